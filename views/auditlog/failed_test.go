package auditlog_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"treasury/data/audit"
	"treasury/views/auditlog"
	"treasury/views/viewtest"
)

// TestUnreadableLog: a log that cannot be read shows why where the
// entries would be, never "no action attempted yet".
func TestUnreadableLog(t *testing.T) {
	t.Parallel()
	e := viewtest.Shared(t)
	dir := t.TempDir()
	log, err := audit.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { log.Close() })
	// The file becomes a directory: opening it works, reading it fails.
	path := filepath.Join(dir, audit.FileName)
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(path, 0o700); err != nil {
		t.Fatal(err)
	}
	tm := e.Program(t, auditlog.New(e.Ctx, log))
	viewtest.WaitFor(t, tm, "Could not read the audit log")
	frame := viewtest.Frame(t, tm)
	if !strings.Contains(frame, "is a directory") || strings.Contains(frame, "no action attempted") {
		t.Errorf("the failure is not named where the entries would be:\n%s", frame)
	}
}
