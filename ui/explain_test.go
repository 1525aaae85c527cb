package ui

import (
	"strings"
	"testing"

	"treasury/ui/uitest"
)

var uitestKey = uitest.Key

// explained is a view that explains its figures.
type explained struct {
	*listView
	n int // paragraphs
}

func (e explained) Explain() []string {
	out := []string{"Runway: the balance over the pace."}
	for range e.n {
		out = append(out, "More of how it is computed.")
	}
	return out
}

// TestHelpExplainsTheFigures: ? on a view that explains its figures shows
// the explanation under its keys; where it does not fit, the help scrolls
// to it: nothing is left out.
func TestHelpExplainsTheFigures(t *testing.T) {
	a := &helpLayer{App: NewApp(testContext("test", false), explained{&listView{name: "ex", rows: []string{"x"}}, 0})}
	if out := a.helpView(100, 40); !strings.Contains(out, "How its figures are computed") || !strings.Contains(out, "Runway: the balance over the pace.") {
		t.Fatalf("no explanation:\n%s", out)
	}
	long := &helpLayer{App: NewApp(testContext("test", false), explained{&listView{name: "ex", rows: []string{"x"}}, 40})}
	if out := long.helpView(100, 30); !strings.Contains(out, "lines 1–29 of") || strings.Contains(out, "closes this help") {
		t.Fatalf("a help taller than the terminal does not say it scrolls:\n%s", out)
	}
	for range 60 {
		long.scrollHelp(uitestKey("pgdown"))
	}
	if out := long.helpView(100, 30); !strings.Contains(out, "More of how") || !strings.Contains(out, "closes this help") {
		t.Fatalf("scrolled down, the explanation's end is not shown:\n%s", out)
	}
}
