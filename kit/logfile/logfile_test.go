package logfile

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Writes past MaxBytes rotate the file; Keep rotated files are kept, the
// older removed; no line is split or lost within what is kept.
func TestRotatesBySizeAndKeeps(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sessions.log")
	l, err := Open(path, Options{MaxBytes: 100, Keep: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	line := []byte(strings.Repeat("x", 39) + "\n") // 40 bytes: two per file
	for range 9 {
		if _, err := l.Write(line); err != nil {
			t.Fatal(err)
		}
	}
	for name, want := range map[string]int{"sessions.log": 1, "sessions.log.1": 2, "sessions.log.2": 2} {
		b, err := os.ReadFile(filepath.Join(filepath.Dir(path), name))
		if err != nil || bytes.Count(b, []byte("\n")) != want || len(b) != want*40 {
			t.Errorf("%s: %d bytes, %v; want %d lines", name, len(b), err, want)
		}
	}
	if _, err := os.Stat(path + ".3"); !os.IsNotExist(err) {
		t.Errorf("%s.3 kept beyond Keep 2", path)
	}
	if st, _ := os.Stat(path + ".1"); st.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", st.Mode().Perm())
	}
}

// A second writer of the same path follows a rotation the first made.
func TestFollowsAnotherWritersRotation(t *testing.T) {
	path := filepath.Join(t.TempDir(), "requests.log")
	a, err := Open(path, Options{MaxBytes: 50, Keep: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Open(path, Options{MaxBytes: 50, Keep: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	a.Write([]byte(strings.Repeat("a", 39) + "\n"))
	a.Write([]byte(strings.Repeat("a", 39) + "\n")) // rotates
	b.checked = time.Time{}                         // as if a second had passed
	b.Write([]byte("b\n"))
	got, _ := os.ReadFile(path)
	if string(got) != strings.Repeat("a", 39)+"\nb\n" {
		t.Fatalf("the current file holds %q", got)
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"0": 0, "512": 512, "10M": 10 << 20, "10MB": 10 << 20, "10MiB": 10 << 20, "1g": 1 << 30, "64k": 64 << 10} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "M", "-1", "10X", "1.5M", "10TB"} {
		if _, err := ParseSize(in); err == nil {
			t.Errorf("ParseSize(%q) took it", in)
		}
	}
}
