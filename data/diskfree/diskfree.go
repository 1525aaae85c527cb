// Package diskfree says how much room the file system of a directory has
// left for this process, so that the state directory (audit log, request
// and session logs) is checked before it fills up rather than found full
// when an action cannot be recorded.
package diskfree

// Low is the free space under which the state directory is reported as
// running out (at start and by `treasury doctor`): the logs rotate within
// their limits, but other files on the same file system do not.
const Low = 100 << 20
