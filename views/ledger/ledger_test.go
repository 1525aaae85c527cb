package ledger_test

import (
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"

	"treasury/ui"
	"treasury/views/ledger"
	"treasury/views/viewtest"
)

func TestLedgerGolden(t *testing.T) {
	e := viewtest.Shared(t)
	tm := e.Program(t, ledger.New(e.Ctx))
	viewtest.WaitFor(t, tm, "After")
	viewtest.Golden(t, tm)
}

func TestLedgerFitsNarrowTerminal(t *testing.T) {
	e := viewtest.Shared(t)
	v := ledger.New(e.Ctx)
	v.Update(ui.StoreChanged{})
	out := v.Render(80, 20)
	if !strings.Contains(out, "RESERVE") {
		t.Fatalf("no ledger rows to measure:\n%s", out)
	}
	for _, l := range strings.Split(out, "\n") {
		if w := lipgloss.Width(l); w > 80 {
			t.Fatalf("line of %d cells at 80 columns: %q", w, l)
		}
	}
}

// TestLedgerOpensOnACurrency: ":ledger EUR" (and a runway alert's enter)
// shows the movements of that currency only.
func TestLedgerOpensOnACurrency(t *testing.T) {
	e := viewtest.New(t, viewtest.Options{})
	v := ledger.New(e.Ctx)
	viewtest.Drive(v, v.Update(ui.Open{View: "ledger", Args: []string{"EUR"}}))
	if v.Filter() != "EUR" {
		t.Fatalf("filter %q", v.Filter())
	}
	out := v.Render(120, 30)
	if !strings.Contains(out, " EUR ") || strings.Contains(out, " GBP ") {
		t.Fatalf("not the EUR movements only:\n%s", out)
	}
}
