package paymentsview

import (
	"strings"
	"testing"
	"time"

	"treasury/desk/live"
	"treasury/ui"
	"treasury/ui/table"
	"treasury/views/viewtest"
	"treasury/wire/payments"
)

// top is the table of the page shown.
func top(v *View) *table.Model {
	return v.Stack.Top().(interface{ Table() *table.Model }).Table()
}

// TestReasonsReadAsShown: on a platform whose list records carry no
// reasons, a week's FAILED scope groups by the codes known and counts
// the rest as "(reason not read)" without reading them; listing that
// group reads by id the payments it shows, once each whatever the
// sessions showing them, and no more (counted at the platform).
func TestReasonsReadAsShown(t *testing.T) {
	t.Parallel()
	e := viewtest.New(t, viewtest.Options{Skip: notShown, Unread: true})
	// Six hours of the platform hold a few thousand payments, some
	// hundreds failed: enough to group, and read in a few seconds under
	// -race (three days were 52,000 payments, over the 30 s a poll may
	// take under -race).
	e.Advance(6 * time.Hour)
	week := []string{"failed", "7d"}
	v := New(e.Ctx, e.P)
	send(v, ui.Open{View: Name, Args: week})
	unread := 0
	for _, g := range live.Get(e.P.Store, codeGroups(e.P.Store, scopeFailed, 7*24*time.Hour)).Data.List {
		if g.Code == noCode {
			unread = g.Count
		}
	}
	if unread < 20 {
		t.Fatalf("%d FAILED payments of the week unread: the test proves nothing", unread)
	}
	before := e.Sandbox.Stats().PaymentsByID
	if body := v.Render(120, 40); !strings.Contains(body, noCode) {
		t.Fatalf("the groups do not name the payments whose reason is not read:\n%s", body)
	}
	send(v, ui.Tick{Now: time.Now()})
	if n := e.Sandbox.Stats().PaymentsByID - before; n != 0 {
		t.Fatalf("%d read by id to show the groups", n)
	}
	// Two sessions list the payments of "(reason not read)", then show
	// them: the rows in view are read once for both.
	var sessions []*View
	for range 2 {
		s := New(e.Ctx, e.P)
		send(s, ui.Open{View: Name, Args: week})
		s.Render(120, 40)
		for i := 0; top(s).SelectedID() != noCode; i++ {
			if i > 50 {
				t.Fatalf("no (reason not read) group selected:\n%s", s.Render(120, 40))
			}
			send(s, viewtest.Key("down"))
		}
		send(s, viewtest.Key("enter"))
		if s.Depth() < 2 {
			t.Fatalf("enter did not list the group:\n%s", s.Render(120, 40))
		}
		sessions = append(sessions, s)
	}
	rows := 0
	for _, s := range sessions {
		s.Render(120, 40) // a frame: the rows in view are known
		send(s, ui.Tick{Now: time.Now()})
		rows = len(top(s).ShownIDs())
	}
	for _, s := range sessions {
		send(s, ui.Tick{Now: time.Now()}) // the reasons read: the same rows stay in view
		if n := len(top(s).ShownIDs()); n != rows || n < 10 {
			t.Fatalf("%d rows in view, then %d", rows, n)
		}
		if body := s.Render(120, 40); strings.Count(body, "USR_")+strings.Count(body, "SYS_") < rows/2 {
			t.Errorf("the rows read do not show their codes:\n%s", body)
		}
	}
	e.P.Store.Sync()
	read := int(e.Sandbox.Stats().PaymentsByID - before)
	if read != rows {
		t.Fatalf("%d read by id for %d rows shown of %d unread", read, rows, unread)
	}
	held := live.Get(e.P.Store, live.PaymentsKey).Data
	detailed := 0
	for i := range held.Len() {
		if p := held.At(i); p.PaymentState == payments.Failed && p.Detailed {
			detailed++
		}
	}
	if detailed < read {
		t.Fatalf("%d read, %d held with their reason", read, detailed)
	}
}
