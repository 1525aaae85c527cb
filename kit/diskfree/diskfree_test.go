package diskfree

import (
	"errors"
	"io"
	"os"
	"syscall"
	"testing"
)

func TestAvailOfATempDir(t *testing.T) {
	n, err := Avail(t.TempDir())
	if err != nil || n == 0 {
		t.Fatalf("Avail = %d, %v", n, err)
	}
	if _, err := Avail("/no/such/directory"); err == nil {
		t.Fatal("no error for a missing directory")
	}
}

type failing struct{}

func (failing) Write([]byte) (int, error) { return 0, syscall.ENOSPC }

func TestProbe(t *testing.T) {
	dir := t.TempDir()
	if err := Probe(dir, nil); err != nil {
		t.Fatal(err)
	}
	if err := Probe(dir, func(io.Writer) io.Writer { return failing{} }); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("a full disk: %v", err)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Fatalf("probes left: %v", left)
	}
}
