//go:build !unix

package audit

import "os"

// lockFile does nothing where there is no flock: the Log's mutex still
// serializes the appends of one process.
func lockFile(*os.File, bool) (func(), error) { return func() {}, nil }
