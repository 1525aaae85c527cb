package overview_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"treasury/sandbox/sandboxtest"
	"treasury/views/viewtest"
)

// eight is the world of a payments org with eight prefunded accounts (USD,
// EUR, GBP, CAD, AUD, CHF, SGD, HKD) beside the liquidity's currencies:
// twelve currencies in the balances.
var eight = viewtest.NewWorld(func() viewtest.Options {
	o := sandboxtest.Options()
	o.Accounts = 8
	return viewtest.Options{Skip: noTrades, Sandbox: &o}
}(), tenMinutes)

// prefunded are the eight accounts' currencies.
var prefunded = []string{"USD", "EUR", "GBP", "CAD", "AUD", "CHF", "SGD", "HKD"}

func eightGolden(t *testing.T, w, h int) string {
	e := eight.Env(t)
	tm := e.ProgramAt(t, w, h, newView(e))
	viewtest.WaitFor(t, tm, "Balances & runway")
	return viewtest.Golden(t, tm)
}

// TestOverviewEightCurrenciesGolden: at 120x40 every currency has its row.
func TestOverviewEightCurrenciesGolden(t *testing.T) {
	frame := eightGolden(t, 120, 40)
	viewtest.Fits(t, "120x40", frame, 120, 40)
	for _, c := range prefunded {
		if !regexp.MustCompile(`(?m)^` + c + ` `).MatchString(frame) {
			t.Errorf("no row of %s:\n%s", c, frame)
		}
	}
}

// TestOverviewEightCurrencies80x24: the smallest terminal keeps the rates
// and the balances with their runway; the currencies that do not fit are
// named, and where they are, as are the panels left out.
func TestOverviewEightCurrencies80x24(t *testing.T) {
	frame := eightGolden(t, 80, 24)
	viewtest.Fits(t, "80x24", frame, 80, 24)
	if !strings.Contains(frame, "not shown (3 Balances)") || !strings.Contains(frame, "not shown at this size: payments") {
		t.Errorf("what is left out is not named:\n%s", frame)
	}
	checkNamed(t, frame)
}

// TestOverviewNamesWhatItLeavesOut: at every height from 12 to 40 lines,
// at 80 and 120 columns, each prefunded currency has its row or is named
// as not shown, and each panel is drawn or named.
func TestOverviewNamesWhatItLeavesOut(t *testing.T) {
	e := eight.Env(t)
	v := newView(e)
	for _, w := range []int{80, 120} {
		for h := 12; h <= 40; h++ {
			frame := ansi.Strip(render(v, e, w, h))
			viewtest.Fits(t, "overview", frame, w, h)
			if t.Failed() {
				t.Fatalf("at %dx%d:\n%s", w, h, frame)
			}
			checkNamed(t, frame)
			if t.Failed() {
				t.Fatalf("at %dx%d", w, h)
			}
		}
	}
}

// checkNamed fails t unless every prefunded currency and every panel is
// in the frame or named in a "not shown" line.
func checkNamed(t *testing.T, frame string) {
	t.Helper()
	var notShown string
	for _, l := range strings.Split(frame, "\n") {
		if strings.Contains(l, "not shown") {
			notShown += l + "\n"
		}
	}
	// The balances left out whole are named as a panel.
	moreRows := regexp.MustCompile(`… \d+ more currencies not shown`).MatchString(notShown) || strings.Contains(notShown, "balances")
	for _, c := range prefunded {
		if !regexp.MustCompile(`(?m)^`+c+` `).MatchString(frame) && !strings.Contains(notShown, c) && !moreRows {
			t.Errorf("%s is neither shown nor named:\n%s", c, frame)
		}
	}
	for _, p := range []struct{ title, name string }{{"Balances & runway", "balances"}, {"Payments ·", "payments"}, {"Exposure", "exposure"}, {"Open alerts", "alerts"}, {"Interfaces", "health"}} {
		if !strings.Contains(frame, p.title) && !strings.Contains(notShown, p.name) {
			t.Errorf("panel %s is neither shown nor named:\n%s", p.name, frame)
		}
	}
}
