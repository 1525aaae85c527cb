//go:build !unix

package diskfree

import "errors"

// Avail is not known where there is no statfs.
func Avail(string) (uint64, error) { return 0, errors.New("free space is not known on this system") }
