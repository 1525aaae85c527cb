//go:build unix

package audit

import (
	"errors"
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

// tryLock takes an exclusive advisory lock on f without waiting: false
// when another open file holds one. The lock lasts until f is closed.
func tryLock(f *os.File) (bool, error) {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.EWOULDBLOCK):
			return false, nil
		}
		return false, err
	}
}
