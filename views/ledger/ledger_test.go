package ledger_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"treasury/ui"
	"treasury/views/ledger"
	"treasury/views/viewtest"
)

func TestLedgerGolden(t *testing.T) {
	e := shared.Env(t)
	tm := e.Program(t, ledger.New(e.Ctx, e.P))
	viewtest.WaitFor(t, tm, "After")
	viewtest.Golden(t, tm)
}

func TestLedgerFitsNarrowTerminal(t *testing.T) {
	e := shared.Env(t)
	v := ledger.New(e.Ctx, e.P)
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
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory()})
	v := ledger.New(e.Ctx, e.P)
	viewtest.Drive(v, v.Update(ui.Open{View: "ledger", Args: []string{"EUR"}}))
	if ui.FilterOf(v) != "EUR" {
		t.Fatalf("filter %q", ui.FilterOf(v))
	}
	out := v.Render(120, 30)
	if !strings.Contains(out, " EUR ") || strings.Contains(out, " GBP ") {
		t.Fatalf("not the EUR movements only:\n%s", out)
	}
}

// TestLedgerAmountsAtTheirDecimals: amounts read as the server wrote them
// (2702.9, 460, 1290200.3), their points out of line. They are at their
// currency's decimals, the points of a column in line, at 120 and at 80
// columns.
func TestLedgerAmountsAtTheirDecimals(t *testing.T) {
	e := shared.Env(t)
	v := ledger.New(e.Ctx, e.P)
	v.Update(ui.StoreChanged{})
	amount, number := regexp.MustCompile(`^-?\d{1,3}(,\d{3})*\.\d\d$`), regexp.MustCompile(`^-?[\d.,]+$`)
	for _, w := range []int{120, 80} {
		var points []int
		rows := 0
		for _, l := range strings.Split(ansi.Strip(v.Render(w, 30)), "\n") {
			f := strings.Fields(strings.TrimPrefix(l, "▸"))
			if len(f) < 7 || (f[3] != "RESERVE" && f[3] != "DEBIT" && f[3] != "RELEASE" && f[3] != "CREDIT") {
				continue
			}
			rows++
			n := 0
			for _, a := range f[4:] {
				if !number.MatchString(a) {
					continue
				}
				n++
				if !amount.MatchString(a) {
					t.Errorf("at %d columns, amount %q of %s is not at its currency's two decimals:\n%s", w, a, f[2], l)
				}
			}
			if n != 3 {
				t.Errorf("at %d columns, %d amounts in %q, want the amount and the balances before and after", w, n, l)
			}
			var at []int
			for i, r := range []rune(l) {
				if r == '.' {
					at = append(at, i)
				}
			}
			if points == nil {
				points = at
			} else if !slices.Equal(points, at) {
				t.Errorf("at %d columns, decimal points at %v, the first row's at %v:\n%s", w, at, points, l)
			}
		}
		if rows == 0 {
			t.Fatalf("no ledger rows at %d columns", w)
		}
	}
}
