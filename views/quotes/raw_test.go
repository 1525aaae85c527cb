package quotes_test

import (
	"strings"
	"testing"

	"treasury/desk/live"
	"treasury/views/quotes"
	"treasury/views/viewtest"
)

// TestRawQuoteReadAgain: the store holds the quotes of its window
// decoded, without their JSON; y on one reads it again (the quotes of its
// millisecond) and shows it as the platform sends it, saying so.
func TestRawQuoteReadAgain(t *testing.T) {
	e := shared.Env(t)
	qs := live.Get(e.P.Store, live.QuotesKey).Data
	if len(qs) == 0 || len(qs[0].RawJSON()) != 0 {
		t.Fatalf("%d quotes held, the first with %d bytes of JSON", len(qs), len(qs[0].RawJSON()))
	}
	tm := e.Program(t, quotes.New(e.Ctx).RawFrom(e.P.Reads.QuoteJSON))
	viewtest.WaitFor(t, tm, "mid rate")
	viewtest.Keys(tm, "y")
	viewtest.WaitFor(t, tm, "read again now")
	frame := viewtest.Frame(t, tm)
	for _, want := range []string{"as received, read again now (GET /api/v0/quotes of its millisecond)", `"quoteId": "`, `"bidPrice"`} {
		if !strings.Contains(frame, want) {
			t.Errorf("the raw view lacks %q:\n%s", want, frame)
		}
	}
}
