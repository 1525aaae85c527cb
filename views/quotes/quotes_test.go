package quotes_test

import (
	"strings"
	"testing"

	"treasury/views/quotes"
	"treasury/views/viewtest"
)

func TestQuotesGolden(t *testing.T) {
	e := viewtest.New(t, viewtest.Options{})
	tm := e.Program(t, quotes.New(e.Ctx))
	viewtest.WaitFor(t, tm, "mid rate")
	viewtest.Keys(tm, "down", "down")
	frame := viewtest.Golden(t, tm)
	if !strings.Contains(frame, "Quotes") {
		t.Fatal("no tab")
	}
}

func TestQuotesFilterAndWindow(t *testing.T) {
	e := viewtest.New(t, viewtest.Options{})
	v := quotes.New(e.Ctx)
	tm := e.Program(t, v)
	viewtest.WaitFor(t, tm, "mid rate")
	viewtest.Keys(tm, "/", "zz-no-such", "enter")
	viewtest.WaitFor(t, tm, "0/")
	viewtest.Keys(tm, "esc", "w")
	viewtest.WaitFor(t, tm, "(last 24h, UTC")
	tm.Quit()
}
