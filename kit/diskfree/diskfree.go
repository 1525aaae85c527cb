// Package diskfree says how much room the file system of a directory has
// left for this process, so that the state directory (audit log, request
// and session logs) is checked before it fills up rather than found full
// when an action cannot be recorded.
package diskfree

import (
	"bytes"
	"io"
	"os"
)

// Low is the free space under which the state directory is reported as
// running out (at start and by `treasury doctor`): the logs rotate within
// their limits, but other files on the same file system do not.
const Low = 100 << 20

// ProbeSize is what Probe writes: more than a line of any of the logs, so
// that a directory with room for the probe has room for the next lines.
const ProbeSize = 8 << 10

// Probe writes ProbeSize bytes to a new file in dir (through wrap, when
// set: tests make it fail as a full disk does), syncs it and removes it:
// whether dir can be written now, not whether it could be once.
func Probe(dir string, wrap func(io.Writer) io.Writer) error {
	f, err := os.CreateTemp(dir, ".probe-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	var w io.Writer = f
	if wrap != nil {
		w = wrap(f)
	}
	_, err = w.Write(bytes.Repeat([]byte{'\n'}, ProbeSize))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
