package ledger_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"treasury/ui"
	"treasury/views/ledger"
	"treasury/views/viewtest"
)

// TestLedgerWindows: w reads the 7 days (more movements than the polled
// 24 hours, the window said above the table); ":ledger 30d EUR" takes
// the window and filters on the rest; ":ledger 90d" is said, never taken
// for a filter.
func TestLedgerWindows(t *testing.T) {
	e := shared.Env(t)
	v := ledger.New(e.Ctx, e.P)
	viewtest.Drive(v, v.Update(ui.StoreChanged{}))
	day := v.Render(120, 40)
	if !strings.Contains(day, "window: last 24 h (polled)") {
		t.Fatalf("the polled window is not said:\n%s", day)
	}
	dayRows := rowsOf(t, day)

	viewtest.Drive(v, v.Update(viewtest.Key("w")))
	viewtest.Drive(v, v.Update(ui.StoreChanged{}))
	week := v.Render(120, 40)
	if !strings.Contains(week, "window: last 7 d (") || !strings.Contains(week, "r reads again") {
		t.Fatalf("the 7-day window is not said:\n%s", week)
	}
	if weekRows := rowsOf(t, week); weekRows <= dayRows {
		t.Errorf("7 days hold %d movements, 24 hours %d", weekRows, dayRows)
	}
	// The window ends when it was read (the platform's now, to the
	// second), never after: what it states is what it holds.
	now := e.Sandbox.Clock().Now().UTC().Truncate(time.Second)
	if stated := " – " + now.Format("2006-01-02 15:04:05") + " UTC"; !strings.Contains(week, stated) {
		t.Errorf("the 7-day window does not end when it was read (%s):\n%s", stated, week)
	}

	viewtest.Drive(v, v.Update(ui.Open{View: "ledger", Args: []string{"30d", "EUR"}}))
	if f := ui.FilterOf(v); f != "EUR" {
		t.Errorf("filter %q after :ledger 30d EUR", f)
	}
	if out := v.Render(120, 40); !strings.Contains(out, "window: last 30 d (") {
		t.Errorf("not the 30 days:\n%s", out)
	}

	var flash string
	for _, m := range viewtest.Drive(v, v.Update(ui.Open{View: "ledger", Args: []string{"90d"}})) {
		if f, ok := m.(ui.Flash); ok {
			flash = f.Text
		}
	}
	if !strings.Contains(flash, "24h, 7d and 30d") || ui.FilterOf(v) == "90d" {
		t.Errorf(":ledger 90d: flash %q, filter %q", flash, ui.FilterOf(v))
	}
}

// rowsOf reads the "N rows" of a frame.
func rowsOf(t *testing.T, frame string) int {
	t.Helper()
	for _, l := range strings.Split(frame, "\n") {
		var n int
		if _, err := fmt.Sscanf(strings.TrimSpace(l), "%d rows", &n); err == nil {
			return n
		}
	}
	t.Fatalf("no row count:\n%s", frame)
	return 0
}

// TestLedgerWindowLineFits80: at 80 columns the window line keeps what
// r and w do, whole.
func TestLedgerWindowLineFits80(t *testing.T) {
	e := shared.Env(t)
	v := ledger.New(e.Ctx, e.P)
	viewtest.Drive(v, v.Update(ui.Open{View: "ledger", Args: []string{"30d"}}))
	viewtest.Drive(v, v.Update(ui.StoreChanged{}))
	out := v.Render(80, 24)
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "window: ") {
			if !strings.Contains(l, "r reads again") || !strings.HasSuffix(l, "w: 24 h") {
				t.Errorf("window line at 80 columns: %q", l)
			}
			return
		}
	}
	t.Fatalf("no window line:\n%s", out)
}
