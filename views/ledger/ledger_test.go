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
	viewtest.WaitFor(t, tm, "Balance after")
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
