//go:build unix

package audit

import (
	"os"
	"syscall"
)

// lockFile takes an advisory lock on f (exclusive for a writer, shared for
// a reader), waiting for other processes' appends to finish, and returns
// its release.
func lockFile(f *os.File, exclusive bool) (func(), error) {
	how := syscall.LOCK_SH
	if exclusive {
		how = syscall.LOCK_EX
	}
	fd := int(f.Fd())
	for {
		err := syscall.Flock(fd, how)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		return func() { _ = syscall.Flock(fd, syscall.LOCK_UN) }, nil
	}
}
