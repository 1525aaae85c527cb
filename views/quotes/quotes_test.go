package quotes_test

import (
	"slices"
	"time"

	"strings"
	"testing"
	"treasury/desk/live"
	"treasury/ui"

	"treasury/views/quotes"
	"treasury/views/viewtest"
)

// noTrades skips the one costly topic the quotes view does not show: the
// trades' 24-hour window.
var noTrades = []live.Topic{live.Trades}

// shared is the default world without the trades, built once and shared
// by the tests that only read it.
var shared = viewtest.NewWorld(viewtest.Options{Skip: noTrades}, nil)

func TestQuotesGolden(t *testing.T) {
	e := shared.Env(t)
	tm := e.Program(t, quotes.New(e.Ctx))
	viewtest.WaitFor(t, tm, "mid rate")
	viewtest.Keys(tm, "down", "down")
	frame := viewtest.Golden(t, tm)
	if !strings.Contains(frame, "Quotes") {
		t.Fatal("no tab")
	}
}

func TestQuotesFilterAndWindow(t *testing.T) {
	e := shared.Env(t)
	v := quotes.New(e.Ctx)
	tm := e.Program(t, v)
	viewtest.WaitFor(t, tm, "mid rate")
	viewtest.Keys(tm, "/", "zz-no-such", "enter")
	viewtest.WaitFor(t, tm, "0/")
	viewtest.Keys(tm, "esc", "w")
	// The world holds 30 minutes of rates: the chart of the last 24 hours
	// says so, as its axis does (it said "last 24h").
	viewtest.WaitFor(t, tm, "(last 24h window, 30m held, UTC")
	tm.Quit()
}

// TestQuotesFollowTheNewest: new quotes appear at the top with the cursor
// on the newest; moved down, the view holds still and counts what arrived
// above until g returns to the newest.
func TestQuotesFollowTheNewest(t *testing.T) {
	e := viewtest.New(t, viewtest.Options{Skip: noTrades})
	v := quotes.New(e.Ctx)
	tm := e.Program(t, v)
	viewtest.WaitFor(t, tm, "mid rate")
	newest := func() string { return live.Get(e.P.Store, live.QuotesKey).Data[0].QuoteID }
	first := newest()
	e.Advance(5 * time.Second)
	tm.Send(ui.StoreChanged{})
	viewtest.WaitFor(t, tm, "▸ "+live.Get(e.P.Store, live.QuotesKey).Data[0].CreatedAt.UTC().Format("2006-01-02 15:04:05"))
	if newest() == first {
		t.Fatal("no new quote in 5 s: the test proves nothing")
	}
	viewtest.Keys(tm, "down", "down")
	e.Advance(5 * time.Second)
	tm.Send(ui.StoreChanged{})
	viewtest.WaitFor(t, tm, "new (g: newest)")
	viewtest.Golden(t, tm)
}

// TestQuotesBoard: b shows one row per pair with its latest quote (the
// newest of the pair held), its mid and spread; enter on a pair shows the
// stream of that pair's quotes; b again the stream.
func TestQuotesBoard(t *testing.T) {
	e := viewtest.New(t, viewtest.Options{Skip: noTrades})
	tm := e.Program(t, quotes.New(e.Ctx))
	viewtest.WaitFor(t, tm, "mid rate")
	latest := map[string]string{}
	for _, q := range live.Get(e.P.Store, live.QuotesKey).Data {
		if _, ok := latest[q.Pair()]; !ok {
			latest[q.Pair()] = q.QuoteID
		}
	}
	if len(latest) < 2 {
		t.Fatalf("the sandbox quotes %d pairs: the test proves nothing", len(latest))
	}
	viewtest.Keys(tm, "b")
	viewtest.WaitFor(t, tm, "In 30m")
	frame := viewtest.Golden(t, tm)
	for pair, id := range latest {
		line := ""
		for _, l := range strings.Split(frame, "\n") {
			if strings.Contains(l, " "+pair+" ") {
				line = l
			}
		}
		if line == "" || !strings.Contains(line, id[:6]) {
			t.Errorf("%s: board line %q lacks its latest quote %s", pair, line, id)
		}
	}
}

func TestQuotesBoardEnterShowsThePair(t *testing.T) {
	e := viewtest.New(t, viewtest.Options{Skip: noTrades})
	tm := e.Program(t, quotes.New(e.Ctx))
	viewtest.WaitFor(t, tm, "mid rate")
	viewtest.Keys(tm, "b")
	viewtest.WaitFor(t, tm, "In 30m")
	viewtest.Keys(tm, "enter")
	// The board's first row, where its cursor starts: pairs are in
	// alphabetical order (not the pair of the newest quote, which, with
	// several quoted in the same instant, can be any of them).
	var pairs []string
	for _, q := range live.Get(e.P.Store, live.QuotesKey).Data {
		pairs = append(pairs, q.Pair())
	}
	pair := slices.Min(pairs)
	frame := viewtest.Frame(t, tm)
	if !strings.Contains(frame, "/"+pair) && !strings.Contains(frame, pair) {
		t.Errorf("enter on the board did not show the stream of %s:\n%s", pair, frame)
	}
	if strings.Contains(frame, "In 30m") {
		t.Errorf("still the board:\n%s", frame)
	}
}
