package paymentsview

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"treasury/desk/live"
	"treasury/desk/platform"
	"treasury/ui"
	"treasury/wire/payments"
)

// quoteWorld is a view over a store whose payments feed answers, at each
// poll, one QUOTED payment expiring at expires and one INITIATED payment;
// the clock is now's.
func quoteWorld(t *testing.T, now *time.Time, expires time.Time) (*View, *live.Store) {
	t.Helper()
	ps := synth(2)
	quote, initiated := ps[0], ps[1]
	quote.PaymentState, quote.InitiatedAt, quote.ExpiresAt = payments.Quoted, time.Time{}, expires
	quote.LastStateUpdatedAt = now.Add(-time.Hour)
	initiated.PaymentState, initiated.InitiatedAt, initiated.LastStateUpdatedAt = payments.Initiated, now.Add(-time.Hour), now.Add(-time.Hour)
	fetch := func(context.Context) ([]payments.Payment, error) { return []payments.Payment{quote, initiated}, nil }
	fold := func(prev *live.PaymentSet, got []payments.Payment, _ time.Time) (*live.PaymentSet, live.Changes) {
		return live.MergePayments(prev, got, time.Time{})
	}
	store := live.New(live.Options{Inline: true, Now: func() time.Time { return *now }, Feeds: []live.Feed{
		live.FoldFeed(live.PaymentsKey, fetch, fold, live.FeedOptions[[]payments.Payment, *live.PaymentSet]{Interval: time.Minute}),
	}})
	r := colorprofile.NoTTY
	ctx := &ui.Context{Shared: &ui.Shared{Store: store, Environment: "test", Now: func() time.Time { return *now }}, Session: ui.Session{Colors: r, Dark: true, Theme: ui.NewTheme(r, true, nil)}}
	v := New(ctx, &platform.Platform{Store: store})
	store.FetchNow(context.Background(), live.Payments)
	send(v, ui.StoreChanged{})
	return v, store
}

// rowOf is the line of the table that shows the payment id's start.
func rowOf(body, id string) string {
	for _, l := range strings.Split(ansi.Strip(body), "\n") {
		if strings.Contains(l, id[:8]) && !strings.HasPrefix(l, "▸ "+id) {
			return l
		}
	}
	return ""
}

// TestQuotedIsNotInFlight: QUOTED payments (never initiated) were counted
// in flight, expired ones too, and nothing said a quote had expired. A
// QUOTED payment has a scope of its own; its row and detail say when its
// quote expired, on the platform's clock, at the first poll after its
// expiresAt, though the record did not change.
func TestQuotedIsNotInFlight(t *testing.T) {
	now := benchStart
	expires := now.Add(90 * time.Second)
	v, store := quoteWorld(t, &now, expires)
	c := live.Get(store, v.counts).Data
	if c[scopeInFlight] != 1 || c[scopeQuoted] != 1 || c[scopeAll] != 2 {
		t.Fatalf("counts all %d, quoted %d, in flight %d: want 2, 1, 1", c[scopeAll], c[scopeQuoted], c[scopeInFlight])
	}
	quote := synth(1)[0].PaymentID
	if row := rowOf(v.Render(120, 30), quote); !strings.Contains(row, "QUOTED") || strings.Contains(row, "expired") {
		t.Fatalf("the quote's row before its expiry: %q", row)
	}
	now = now.Add(2 * time.Minute)
	store.FetchNow(context.Background(), live.Payments) // nothing changed but the time
	send(v, ui.StoreChanged{})
	if row := rowOf(v.Render(120, 30), quote); !strings.Contains(row, "QUOTED (expired)") {
		t.Errorf("the quote's row after its expiry: %q", row)
	}
	send(v, ui.Open{View: Name, Args: []string{"quoted"}})
	if recs := v.page.Records(); len(recs) != 1 || recs[0].PaymentID != quote ||
		!strings.Contains(ansi.Strip(v.Render(120, 30)), "[QUOTED 1]") {
		t.Errorf(":payments quoted does not show the quote alone:\n%s", ansi.Strip(v.Render(120, 30)))
	}
	send(v, ui.Open{View: Name, Args: []string{quote}})
	body := ansi.Strip(v.Render(120, 60))
	for _, want := range []string{"QUOTED (expired)", "the quote expired <40s ago", "(expired <40s ago)", "no payout: the quote expired"} {
		if !strings.Contains(body, want) {
			t.Errorf("the detail lacks %q:\n%s", want, body)
		}
	}
}

// TestSinceSaysTheDateOfAnotherDay: the Since column showed "15:13" for a
// change days old. A time of today (the platform's day) is shown alone,
// one of another day with its date; when the day turns, the rows say so
// at the next poll.
func TestSinceSaysTheDateOfAnotherDay(t *testing.T) {
	now := time.Date(2026, 11, 16, 23, 59, 0, 0, time.UTC)
	v, store := quoteWorld(t, &now, now.Add(72*time.Hour))
	initiated := synth(2)[1].PaymentID
	row := rowOf(v.Render(120, 30), initiated)
	if !strings.Contains(row, "GBP→EUR FR 22:59 ") { // the corridor, then Since
		t.Fatalf("a change of today: %q", row)
	}
	now = now.Add(2 * time.Minute)
	store.FetchNow(context.Background(), live.Payments)
	send(v, ui.StoreChanged{})
	if row := rowOf(v.Render(120, 30), initiated); !strings.Contains(row, "GBP→EUR FR 11-16 22:59 ") {
		t.Errorf("a change of yesterday: %q", row)
	}
}
