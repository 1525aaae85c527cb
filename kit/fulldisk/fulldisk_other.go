//go:build !linux

package fulldisk

import "errors"

// Disk is a mounted tmpfs of a fixed size (Linux only).
type Disk struct{ Dir string }

// Mount says a tmpfs cannot be mounted here.
func Mount(string, int) (*Disk, error) { return nil, errors.New("fulldisk: tmpfs mounts are Linux's") }

// Fill, Free and Unmount do nothing here.
func (d *Disk) Fill() error    { return nil }
func (d *Disk) Free() error    { return nil }
func (d *Disk) Unmount() error { return nil }
