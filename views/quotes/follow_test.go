package quotes

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"treasury/ui"
	"treasury/views/viewtest"
	"treasury/wire/liquidity"
)

// TestChartFollowsAPair: each poll brings a quote of another pair and the
// cursor follows the newest; the chart keeps the pair it showed. A cursor
// move by the operator moves it to the pair then selected; P pins one.
func TestChartFollowsAPair(t *testing.T) {
	st, fetch := quoteStore(t, 40)
	v := sessions(st, 1)[0]
	pairOf := func() string {
		out := ansi.Strip(v.Render(120, 36))
		i := strings.Index(out, "mid rate ")
		if i < 0 {
			t.Fatalf("no chart:\n%s", out)
		}
		return strings.Fields(out[i+len("mid rate "):])[0]
	}
	first := pairOf()
	seen := map[string]bool{}
	for range 4 {
		fetch()
		st.Sync()
		v.Update(ui.StoreChanged{})
		_, rec, _ := ui.SelectedOf(v)
		seen[rec.(liquidity.Quote).Pair()] = true
		if p := pairOf(); p != first {
			t.Fatalf("the chart went from %s to %s as a quote arrived", first, p)
		}
	}
	if len(seen) < 2 {
		t.Fatal("the cursor stayed on one pair: the test proves nothing")
	}
	v.Update(viewtest.Key("down"))
	_, rec, _ := ui.SelectedOf(v)
	if p, want := pairOf(), rec.(liquidity.Quote).Pair(); p != want {
		t.Fatalf("after a cursor move the chart shows %s, the row is of %s", p, want)
	}
}

// TestChartSaysItIsReading: while history is read back into the store,
// the chart's title says so, not only how much it holds.
func TestChartSaysItIsReading(t *testing.T) {
	st, fetch := quoteStore(t, 40)
	v := sessions(st, 1)[0]
	st.SetReading("the platform's past quotes")
	fetch() // a new poll: the chart is drawn again
	st.Sync()
	v.Update(ui.StoreChanged{})
	if out := ansi.Strip(v.Render(120, 36)); !strings.Contains(out, "reading the platform's past quotes…") {
		t.Fatalf("no word of the reading:\n%s", out)
	}
	st.SetReading("")
	fetch()
	st.Sync()
	v.Update(ui.StoreChanged{})
	if out := ansi.Strip(v.Render(120, 36)); strings.Contains(out, "reading") {
		t.Fatalf("still reading:\n%s", out)
	}
}
