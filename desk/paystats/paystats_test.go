package paystats

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"treasury/desk/live"
	"treasury/wire/payments"
)

// TestCountsAndGroupsOfAWindow: the counts and the reason groups take the
// payments initiated in the window only, whatever the set holds.
func TestCountsAndGroupsOfAWindow(t *testing.T) {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	var ps []payments.Payment
	add := func(st payments.State, ago time.Duration, code string) {
		// Each finished a minute after it was initiated.
		p := payments.Payment{PaymentID: fmt.Sprint(len(ps)), PaymentState: st, InitiatedAt: now.Add(-ago), LastStateUpdatedAt: now.Add(-ago + time.Minute)}
		if code != "" {
			p.Errors = []payments.PaymentError{{Code: code, Title: code + " title"}}
		}
		ps = append(ps, p)
	}
	add(payments.Failed, 2*time.Hour, "SYS_001") // outside the last hour
	add(payments.Failed, 30*time.Minute, "SYS_001")
	add(payments.Failed, 20*time.Minute, "USR_030")
	add(payments.Failed, 10*time.Minute, "USR_030")
	add(payments.Failed, 5*time.Minute, "")
	add(payments.Completed, 5*time.Minute, "")
	add(payments.Transferring, time.Minute, "")
	st := live.New(live.Options{Inline: true, Now: func() time.Time { return now }})
	st.PutPayments(ps)
	c := live.Get(st, ScopeCounts(st, time.Hour)).Data
	if c[All] != 6 || c[Failed] != 4 || c[Completed] != 1 || c[InFlight] != 1 || c[Declined] != 0 {
		t.Fatalf("counts %v", c)
	}
	if wide := live.Get(st, ScopeCounts(st, 24*time.Hour)).Data; wide[Failed] != 5 {
		t.Fatalf("24h counts %v", wide)
	}
	g := live.Get(st, CodeGroups(st, Failed, time.Hour)).Data.List
	if len(g) != 3 || g[0].Code != "USR_030" || g[0].Count != 2 || g[0].Title != "USR_030 title" || g[1].Code != NoCode && g[2].Code != NoCode {
		t.Fatalf("groups %+v", g)
	}
	// A group's time is when its newest payment was initiated (the
	// column says "Last initiated"), not when another one last changed.
	if want := now.Add(-10 * time.Minute); !g[0].Newest.Equal(want) {
		t.Fatalf("USR_030 last initiated %v, want %v", g[0].Newest, want)
	}
	if !Failed.Grouped() || !Declined.Grouped() || All.Grouped() {
		t.Fatal("grouped scopes")
	}
}

// TestGroupsUpdatedAsCounted: reason groups updated from each poll's
// changes (payments new, changed, evicted, leaving the window as the
// clock moves) are those a full count of the set gives.
func TestGroupsUpdatedAsCounted(t *testing.T) {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	rnd := rand.New(rand.NewPCG(1, 2))
	var next []payments.Payment
	st := live.New(live.Options{Inline: true, Now: func() time.Time { return now }, Feeds: []live.Feed{
		live.FoldFeed(live.PaymentsKey, func(context.Context) ([]payments.Payment, error) { return next, nil },
			func(prev *live.PaymentSet, got []payments.Payment, at time.Time) (*live.PaymentSet, live.Changes) {
				return live.MergePayments(prev, got, at.Add(-3*time.Hour))
			}, live.FeedOptions[[]payments.Payment, *live.PaymentSet]{Interval: time.Hour}),
	}})
	defer st.Close()
	keys := []live.Key[Groups]{CodeGroups(st, Failed, time.Hour), CodeGroups(st, Declined, 2*time.Hour)}
	scopes := []Scope{Failed, Declined}
	wins := []time.Duration{time.Hour, 2 * time.Hour}
	states := []payments.State{payments.Failed, payments.Declined, payments.Completed, payments.Transferring}
	codes := []string{"USR_030", "USR_062", "SYS_001", ""}
	held := map[string]payments.Payment{}
	for round := range 60 {
		next = nil
		for range 1 + rnd.IntN(30) {
			var p payments.Payment
			if len(held) > 0 && rnd.IntN(2) == 0 { // change one held
				for _, h := range held {
					p = h
					break
				}
				p.LastStateUpdatedAt = now
			} else {
				id := fmt.Sprintf("p%04d", len(held)+round*1000)
				at := now.Add(-time.Duration(rnd.IntN(150)) * time.Minute)
				p = payments.Payment{PaymentID: id, InitiatedAt: at, LastStateUpdatedAt: at}
			}
			p.PaymentState = states[rnd.IntN(len(states))]
			p.Errors = nil
			if c := codes[rnd.IntN(len(codes))]; c != "" {
				p.Errors = []payments.PaymentError{{Code: c, Title: c + " " + fmt.Sprint(rnd.IntN(3))}}
			}
			held[p.PaymentID] = p
			next = append(next, p)
		}
		st.FetchNow(context.Background(), live.Payments)
		snap := live.Get(st, live.PaymentsKey)
		for i, k := range keys {
			got := live.Get(st, k).Data.List
			want := countGroups(snap.Data, scopes[i], snap.FetchedAt.Add(-wins[i])).List
			if fmt.Sprint(strip(got)) != fmt.Sprint(strip(want)) {
				t.Fatalf("round %d, %s: updated %v, counted %v", round, scopes[i].Label(), strip(got), strip(want))
			}
		}
		now = now.Add(time.Duration(rnd.IntN(10)) * time.Minute)
	}
}

// strip keeps what a group shows.
func strip(gs []CodeGroup) []CodeGroup {
	out := make([]CodeGroup, len(gs))
	for i, g := range gs {
		out[i] = CodeGroup{Code: g.Code, Title: g.Title, Count: g.Count, Newest: g.Newest}
	}
	return out
}
