package paystats

import (
	"fmt"
	"testing"
	"time"

	"treasury/data/live"
	"treasury/data/payments"
)

// TestCountsAndGroupsOfAWindow: the counts and the reason groups take the
// payments initiated in the window only, whatever the set holds.
func TestCountsAndGroupsOfAWindow(t *testing.T) {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	var ps []payments.Payment
	add := func(st payments.State, ago time.Duration, code string) {
		p := payments.Payment{PaymentID: fmt.Sprint(len(ps)), PaymentState: st, InitiatedAt: now.Add(-ago), LastStateUpdatedAt: now.Add(-ago)}
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
	g := live.Get(st, CodeGroups(st, Failed, time.Hour)).Data
	if len(g) != 3 || g[0].Code != "USR_030" || g[0].Count != 2 || g[0].Title != "USR_030 title" || g[1].Code != NoCode && g[2].Code != NoCode {
		t.Fatalf("groups %+v", g)
	}
	if WindowWord(time.Hour) != "1h" || WindowWord(7*24*time.Hour) != "7d" || WindowWord(24*time.Hour) != "24h" {
		t.Fatal("window words")
	}
	if !Failed.Grouped() || !Declined.Grouped() || All.Grouped() {
		t.Fatal("grouped scopes")
	}
}
