//go:build !linux

package portowner

func lookup(int) (Process, bool) { return Process{}, false }
