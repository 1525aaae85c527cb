//go:build !unix

package audit

import (
	"errors"
	"os"
)

// lockFile does nothing where there is no flock: the Log's mutex still
// serializes the appends of one process.
func lockFile(*os.File, bool) (func(), error) { return func() {}, nil }

// tryLock cannot tell where there is no flock: a process's liveness is
// then Unknown.
func tryLock(*os.File) (bool, error) { return false, errors.New("no advisory locks on this system") }
