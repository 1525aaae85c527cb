package auditview_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"treasury/desk/live"
	"treasury/ui/uitest"
	auditview "treasury/views/audit"
	"treasury/views/viewtest"
)

// TestUnreadableLog: a log that cannot be read any more shows why above
// what was last read, marked stale (here: the empty log read at start).
func TestUnreadableLog(t *testing.T) {
	t.Parallel()
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory()})
	// The file becomes a directory: the log stays open, reading it fails.
	path := e.Audit.Path()
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(path, 0o700); err != nil {
		t.Fatal(err)
	}
	e.P.Store.FetchNow(context.Background(), live.Audit)
	// Wide enough for the error line whatever the length of the test's
	// temporary directory (the path is in it).
	w := 120 + len(path)
	tm := e.ProgramAt(t, w, 40, auditview.New(e.Ctx))
	uitest.WaitFor(t, tm, w, 40, 45*time.Second, "STALE")
	frame := viewtest.Frame(t, tm)
	if !strings.Contains(frame, "audit.jsonl: is a") || !strings.Contains(frame, "STALE (fetched") {
		t.Errorf("the failure is not named above the entries last read:\n%s", frame)
	}
}
