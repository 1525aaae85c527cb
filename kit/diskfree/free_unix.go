//go:build unix

package diskfree

import "syscall"

// Avail is the space of dir's file system that an unprivileged writer may
// still use (statfs f_bavail), in bytes.
func Avail(dir string) (uint64, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, err
	}
	return uint64(st.Bavail) * uint64(st.Bsize), nil //nolint:unconvert // field types differ by platform
}
