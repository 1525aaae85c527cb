//go:build unix

package history

import (
	"errors"
	"os"
	"syscall"
)

// lockPath takes an exclusive advisory lock on the file path without
// waiting: locked says whether this process got it (and writes). The
// kernel releases it when the process ends, however it ends.
func lockPath(path string) (release func(), locked bool, err error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, false, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	switch {
	case err == nil:
		return func() { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }, true, nil
	case errors.Is(err, syscall.EWOULDBLOCK):
		f.Close()
		return func() {}, false, nil
	}
	f.Close()
	return nil, false, err
}
