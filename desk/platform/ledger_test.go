package platform

import (
	"context"
	"errors"
	"testing"
	"time"

	"treasury/desk/live"
	"treasury/wire"
	"treasury/wire/payments"
)

// TestLedgerKeepsTheCurrencyItCouldNotRead: a ledger read that missed a
// currency keeps the movements held of it (within the window), so its
// runway does not read "no outflow"; the currencies read replace theirs.
func TestLedgerKeepsTheCurrencyItCouldNotRead(t *testing.T) {
	now := time.Date(2026, 11, 16, 9, 30, 0, 0, time.UTC)
	tx := func(cur string, ago time.Duration) payments.LedgerTransaction {
		return payments.LedgerTransaction{Currency: cur, Operation: "DEBIT", CreatedDttm: now.Add(-ago)}
	}
	held := []payments.LedgerTransaction{tx("GBP", time.Minute), tx("GBP", 30*time.Hour), tx("USD", time.Minute)}
	st := live.New(live.Options{Feeds: []live.Feed{live.ListFeed(live.LedgerKey, LedgerID,
		func(context.Context) ([]payments.LedgerTransaction, error) { return held, nil },
		live.FeedOptions[[]payments.LedgerTransaction, []payments.LedgerTransaction]{Interval: time.Hour})}})
	defer st.Close()
	st.FetchNow(context.Background(), live.Ledger)
	p := &Platform{Store: st}
	read := []payments.LedgerTransaction{tx("USD", 10*time.Second)}
	part := &wire.Partial{What: "ledger of each currency", Of: 2, Failed: []wire.Failure{{Name: "GBP", Err: errors.New("HTTP 200: malformed")}}}
	got := p.keepUnread(read, part, now.Add(-24*time.Hour))
	var gbp, usd int
	for _, x := range got {
		switch x.Currency {
		case "GBP":
			gbp++
		case "USD":
			usd++
		}
	}
	if gbp != 1 || usd != 1 {
		t.Fatalf("GBP %d, USD %d: want the GBP movement of the window kept and USD as read", gbp, usd)
	}
	if got := p.keepUnread(read, nil, now.Add(-24*time.Hour)); len(got) != 1 {
		t.Fatalf("a whole read kept %d records, want what it read", len(got))
	}
}
