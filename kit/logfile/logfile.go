// Package logfile is an append-only log file (mode 0600) that rotates by
// size: when a write would take it past MaxBytes, FILE becomes FILE.1
// (FILE.1 becomes FILE.2, and so on, the oldest beyond Keep removed) and
// a new FILE starts. The request and session logs use it, so that a
// flood, or months of running, cannot fill the state directory that the
// audit log needs.
//
// Several processes may write the same file (a dashboard and `treasury
// serve` on one state directory): each checks, before a write, that the
// path is still the file it holds, and follows a rotation another made.
package logfile

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Options set the rotation.
type Options struct {
	// MaxBytes is the size past which the file rotates; 0 never rotates.
	MaxBytes int64
	// Keep is how many rotated files are kept (FILE.1 … FILE.Keep); 0
	// keeps none: the file starts again empty.
	Keep int
}

// Defaults: 10 MiB per file, 5 kept (60 MiB at most per log).
const (
	DefaultMaxBytes = 10 << 20
	DefaultKeep     = 5
)

// checkEvery bounds how often a writer looks whether another process
// rotated the file.
const checkEvery = time.Second

// File is a rotating log file, safe for concurrent use.
type File struct {
	path string
	o    Options

	mu      sync.Mutex
	f       *os.File
	checked time.Time
}

// Open opens (appending, creating it with mode 0600) the log at path.
func Open(path string, o Options) (*File, error) {
	if o.MaxBytes < 0 || o.Keep < 0 {
		return nil, fmt.Errorf("logfile: %s: size and retention cannot be negative", path)
	}
	l := &File{path: path, o: o}
	if err := l.open(); err != nil {
		return nil, err
	}
	return l, nil
}

func (l *File) open() error {
	f, err := os.OpenFile(l.path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	l.f, l.checked = f, time.Now()
	return nil
}

// Name is the file's path.
func (l *File) Name() string { return l.path }

// Write appends p, rotating first when p would take the file past
// MaxBytes (a file holding nothing yet takes p whatever its size).
func (l *File) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return 0, os.ErrClosed
	}
	if err := l.follow(); err != nil {
		return 0, err
	}
	if l.o.MaxBytes > 0 {
		st, err := l.f.Stat()
		if err == nil && st.Size() > 0 && st.Size()+int64(len(p)) > l.o.MaxBytes {
			if err := l.rotate(); err != nil {
				return 0, err
			}
		}
	}
	return l.f.Write(p)
}

// follow reopens the path when another process rotated it away.
func (l *File) follow() error {
	if time.Since(l.checked) < checkEvery {
		return nil
	}
	l.checked = time.Now()
	held, err := l.f.Stat()
	if err != nil {
		return err
	}
	if cur, err := os.Stat(l.path); err == nil && os.SameFile(held, cur) {
		return nil
	}
	old := l.f
	if err := l.open(); err != nil {
		return err
	}
	return old.Close()
}

// rotate shifts FILE.i to FILE.i+1 (dropping those past Keep), FILE to
// FILE.1, and starts a new FILE.
func (l *File) rotate() error {
	for i := l.o.Keep; i >= 1; i-- {
		from := l.path
		if i > 1 {
			from = l.path + "." + strconv.Itoa(i-1)
		}
		if err := os.Rename(from, l.path+"."+strconv.Itoa(i)); err != nil && !os.IsNotExist(err) {
			return fmt.Errorf("logfile: rotate %s: %w", l.path, err)
		}
	}
	if l.o.Keep == 0 {
		if err := os.Remove(l.path); err != nil && !os.IsNotExist(err) {
			return fmt.Errorf("logfile: rotate %s: %w", l.path, err)
		}
	}
	old := l.f
	if err := l.open(); err != nil {
		return fmt.Errorf("logfile: rotate %s: %w", l.path, err)
	}
	return old.Close()
}

// Close closes the file; later writes fail.
func (l *File) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}

// ParseSize reads a size: bytes, or with a unit (K, KB, KiB, M, MB, MiB,
// G, GB, GiB: each a power of 1024).
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	num := strings.TrimRight(t, "KMGiBkmgib")
	unit := strings.ToUpper(strings.TrimSuffix(strings.TrimSuffix(t[len(num):], "iB"), "B"))
	n, err := strconv.ParseInt(strings.TrimSpace(num), 10, 64)
	mult := map[string]int64{"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}[unit]
	if err != nil || n < 0 || mult == 0 || n > (1<<62)/mult {
		return 0, fmt.Errorf("size %q: want bytes or a number with K, M or G (such as 10M)", s)
	}
	return n * mult, nil
}
