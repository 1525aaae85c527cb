//go:build linux

// Package fulldisk gives tests and the soak a real file system that can
// be filled and freed: a small tmpfs mounted on a directory (Linux, as
// root). Where it cannot be mounted (not root, no tmpfs), Mount says why
// and the caller falls back to a writer that fails as a full disk does.
package fulldisk

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// Disk is a mounted tmpfs of a fixed size.
type Disk struct {
	Dir    string
	filler string
}

// Mount mounts a tmpfs of size bytes on a new directory under parent.
func Mount(parent string, size int) (*Disk, error) {
	dir, err := os.MkdirTemp(parent, "fulldisk-")
	if err != nil {
		return nil, err
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, fmt.Sprintf("size=%d,mode=0700", size)); err != nil {
		os.Remove(dir)
		return nil, fmt.Errorf("fulldisk: mount a tmpfs on %s: %w", dir, err)
	}
	return &Disk{Dir: dir, filler: filepath.Join(dir, ".filler")}, nil
}

// Fill writes to a file of its own until the disk is full (ENOSPC).
func (d *Disk) Fill() error {
	f, err := os.OpenFile(d.filler, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	defer f.Close()
	buf := make([]byte, 4096)
	for {
		if _, err := f.Write(buf); err != nil {
			if errors.Is(err, syscall.ENOSPC) {
				// Pages may be left: fill them byte by byte.
				for {
					if _, err := f.Write(buf[:1]); err != nil {
						return nil
					}
				}
			}
			return err
		}
	}
}

// Free removes what Fill wrote.
func (d *Disk) Free() error {
	if err := os.Remove(d.filler); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// Unmount unmounts the tmpfs and removes its directory.
func (d *Disk) Unmount() error {
	if err := syscall.Unmount(d.Dir, syscall.MNT_DETACH); err != nil {
		return err
	}
	return os.Remove(d.Dir)
}
