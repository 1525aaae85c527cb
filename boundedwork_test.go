package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// semaphore finds the hand-made ways to bound parallel work: errgroup or
// a weighted semaphore used directly, or a buffered channel of slots (a
// channel of capacity 1 is a wake-up signal, not a bound).
var semaphore = regexp.MustCompile(`"golang.org/x/sync/(errgroup|semaphore)"|make\(chan struct\{\}, ([^1)]|1[^)])`)

// TestParallelWorkIsBoundedOneWay: kit/parallel is the one way the house
// bounds parallel work (ARCHITECTURE.md); no other package (tests aside)
// holds its own semaphore.
func TestParallelWorkIsBoundedOneWay(t *testing.T) {
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (path == "kit/parallel" || strings.HasPrefix(d.Name(), ".") && path != ".") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(b), "\n") {
			if m := semaphore.FindString(line); m != "" {
				t.Errorf("%s:%d: %s: bound parallel work with kit/parallel", path, i+1, m)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !semaphore.MatchString("sem := make(chan struct{}, c.opts.Concurrency)") || !semaphore.MatchString(`	"golang.org/x/sync/errgroup"`) ||
		semaphore.MatchString("wake := make(chan struct{}, 1)") {
		t.Error("the pattern does not tell a semaphore from a signal")
	}
}
