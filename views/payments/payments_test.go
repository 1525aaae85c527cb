package paymentsview

import (
	"context"
	"strings"
	"testing"
	"time"

	"treasury/desk/live"
	"treasury/ui"
	"treasury/views/viewtest"
	"treasury/wire/payments"
	"treasury/wire/reporting"
	"treasury/wire/webhook"
)

func TestPaymentsGolden(t *testing.T) {
	e := shared.Env(t)
	tm := e.Program(t, New(e.Ctx, e.P))
	viewtest.WaitFor(t, tm, "payments per state")
	viewtest.Keys(tm, "down")
	frame := viewtest.Golden(t, tm)
	for _, want := range []string{"Payments", "[all ", "FAILED 4", "Initiated", "INV-"} {
		if !strings.Contains(frame, want) {
			t.Errorf("frame lacks %q", want)
		}
	}
}

// TestPaymentsFailedDetailGolden goes the support engineer's way: the
// FAILED scope from the palette, grouped by reason code; the code of the
// newest failed payment, its payments, enter on the newest, and reads its
// error, the guidance, the timeline and the ledger lines.
func TestPaymentsFailedDetailGolden(t *testing.T) {
	e := shared.Env(t)
	failed := newestIn(t, e, payments.Failed)
	tm := e.Program(t, New(e.Ctx, e.P))
	viewtest.WaitFor(t, tm, "payments per state")
	viewtest.Keys(tm, ":", "payments failed", "enter")
	viewtest.WaitAll(t, tm, "[FAILED 4]", "FAILED by reason", "Reason code")
	code := failed.Errors[0].Code
	viewtest.Keys(tm, "/", code, "enter", "enter")
	viewtest.WaitFor(t, tm, "› "+code)
	viewtest.Keys(tm, "enter")
	viewtest.WaitAll(t, tm, "Payment "+failed.PaymentID, failed.Errors[0].Code, "retry?", "what to do", "Record", "rate used")
	// The rest of the page: the payout, the timeline, the ledger, the
	// report rows.
	viewtest.Keys(tm, "pgdown")
	viewtest.WaitAll(t, tm, "Payout", "→ FAILED", "no RECON report covers")
	frame := viewtest.Golden(t, tm)
	for _, want := range []string{"RESERVE", "Ledger trail", "funds came back"} {
		if !strings.Contains(frame, want) {
			t.Errorf("frame lacks %q", want)
		}
	}
}

// TestPaymentsOpenFromAlert: what the alerts view sends opens the detail
// directly, and esc comes back to the table.
func TestPaymentsOpenFromAlert(t *testing.T) {
	e := shared.Env(t)
	declined := newestIn(t, e, payments.Declined)
	v := New(e.Ctx, e.P)
	send(v, ui.Open{View: Name, Args: []string{declined.PaymentID}})
	body := v.Render(120, 60)
	if !strings.Contains(body, "Payment "+declined.PaymentID) || !strings.Contains(body, "NOT YET") {
		t.Fatalf("detail of the declined payment not shown:\n%s", body)
	}
	if c := v.Crumbs(); len(c) != 1 {
		t.Fatalf("crumbs %q, want the payment only", c)
	}
	if !v.Back() || v.Depth() != 1 || strings.Contains(v.Render(120, 36), "Payment "+declined.PaymentID+"  ") {
		t.Fatal("esc did not come back to the table")
	}
	if v.Back() {
		t.Fatal("Back at the root popped something")
	}
}

func TestPaymentsPaletteByInternalID(t *testing.T) {
	e := shared.Env(t)
	p := newestIn(t, e, payments.Completed)
	tm := e.Program(t, New(e.Ctx, e.P))
	viewtest.WaitFor(t, tm, "payments per state")
	viewtest.Keys(tm, ":", "payment "+p.InternalID(), "enter")
	viewtest.WaitFor(t, tm, "Payment "+p.PaymentID)
	tm.Quit()
}

// TestPaymentsLookupNotHeld opens a payment of last month, which the store
// does not hold: it is looked up by internalId through the client, and its
// lines of last month's RECON report are shown.
func TestPaymentsLookupNotHeld(t *testing.T) {
	e := plainWorld(t)
	g := octoberPayment(t, e)
	if _, ok := held(t, e).Get(g.NetworkPaymentID); ok {
		t.Fatal("an october payment is held: pick another")
	}
	v := New(e.Ctx, e.P)
	send(v, ui.Open{View: Name, Args: []string{g.EndToEndID}}) // the internalId
	body := v.Render(120, 80)
	for _, want := range []string{"Payment " + g.NetworkPaymentID, "RECON 2026-10-01", "totals", g.Lines[0].TransactionType} {
		if !strings.Contains(body, want) {
			t.Errorf("detail lacks %q:\n%s", want, body)
		}
	}
	// A page shows what it looked up; it never writes into the store,
	// which holds the window every session shares.
	if _, ok := held(t, e).Get(g.NetworkPaymentID); ok {
		t.Error("the looked-up payment was put into the store")
	}
	send(v, ui.Open{View: Name, Args: []string{"INV-none-such"}})
	if body := v.Render(120, 20); !strings.Contains(body, "not found") {
		t.Errorf("an unknown reference does not say so:\n%s", body)
	}
}

func TestPaymentsScopes(t *testing.T) {
	e := shared.Env(t)
	v := New(e.Ctx, e.P)
	send(v, ui.StoreChanged{})
	all := v.table().Total()
	check := func(want scope, keep func(payments.State) bool) {
		t.Helper()
		if v.scope != want {
			t.Fatalf("scope %s, want %s", v.scope.Label(), want.Label())
		}
		if want.Grouped() {
			groups := live.Get(e.P.Store, codeGroups(e.P.Store, want, windows[0])).Data.List
			n := 0
			for _, g := range groups {
				n += g.Count
			}
			if n == 0 || n != live.Get(e.P.Store, scopeCounts(e.P.Store, windows[0])).Data[want] {
				t.Fatalf("scope %s: %d payments in its reason groups", want.Label(), n)
			}
			if !strings.Contains(v.Render(120, 36), "Reason code") {
				t.Fatalf("scope %s is not grouped by reason", want.Label())
			}
			return
		}
		recs := v.page.Records()
		if len(recs) == 0 && want != scopeReturned {
			t.Fatalf("scope %s is empty", want.Label())
		}
		for _, p := range recs {
			if !keep(p.PaymentState) {
				t.Fatalf("scope %s holds a %s payment", want.Label(), p.PaymentState)
			}
		}
		if want != scopeAll && len(recs) >= all {
			t.Fatalf("scope %s holds every payment (%d of %d)", want.Label(), len(recs), all)
		}
		if !strings.Contains(v.Render(120, 36), "["+want.Label()+" ") {
			t.Fatal("scope bar does not mark the scope")
		}
	}
	send(v, viewtest.Key("]"))
	check(scopeQuoted, func(s payments.State) bool { return s == payments.Quoted })
	send(v, viewtest.Key("]"))
	check(scopeInFlight, payments.State.InFlight)
	send(v, viewtest.Key("]"))
	check(scopeFailed, func(s payments.State) bool { return s == payments.Failed })
	if got := v.Crumbs(); len(got) != 1 || got[0] != "FAILED by reason" {
		t.Fatalf("crumbs %q", got)
	}
	send(v, viewtest.Key("["))
	check(scopeInFlight, payments.State.InFlight)
	send(v, ui.Open{View: Name, Args: []string{"declined"}})
	check(scopeDeclined, func(s payments.State) bool { return s == payments.Declined })
	send(v, ui.Open{View: Name, Args: []string{"completed"}})
	check(scopeCompleted, func(s payments.State) bool { return s == payments.Completed })
	send(v, ui.Open{View: Name, Args: []string{"all"}})
	check(scopeAll, func(payments.State) bool { return true })
	if v.table().Total() != all {
		t.Fatal("scope all lost payments")
	}
}

func TestPaymentsCompletion(t *testing.T) {
	e := shared.Env(t)
	v := New(e.Ctx, e.P)
	p := newestIn(t, e, payments.Failed)
	var pay, scopes bool
	for _, c := range v.Commands() {
		switch c.Name {
		case "payment":
			got := c.Complete(p.InternalID()[:len(p.InternalID())-1])
			pay = len(got) > 0 && len(got) <= 50 && strings.Contains(strings.Join(got, " "), p.InternalID())
		case "payments":
			scopes = strings.Join(c.Complete("f"), ",") == "failed"
		}
	}
	if !pay || !scopes {
		t.Fatalf("completion: payment %v, scopes %v", pay, scopes)
	}
}

// TestPaymentsNarrow renders the root and a detail at 80x24 (a body of 80x20):
// nothing overflows, and the chart gives way to the table.
func TestPaymentsNarrow(t *testing.T) {
	e := shared.Env(t)
	v := New(e.Ctx, e.P)
	send(v, ui.StoreChanged{})
	check := func(what, s string) {
		t.Helper()
		viewtest.Fits(t, what, s, 80, 20)
	}
	root := v.Render(80, 20)
	check("root", root)
	if strings.Contains(root, "payments per state") {
		t.Error("the chart is drawn at 80x24")
	}
	if !strings.Contains(root, "Error") {
		t.Error("the error column is hidden at 80 columns")
	}
	// The header ended at "…Sent Co…" while the error column kept 17
	// cells: the columns are as wide as their values, the least useful
	// give way whole and are named, and no title is cut.
	for _, size := range []struct{ w, h int }{{80, 20}, {120, 36}} {
		body := v.Render(size.w, size.h)
		var head string
		for _, l := range strings.Split(body, "\n") {
			if strings.Contains(l, "Initiated ") {
				head = l
			}
		}
		if head == "" || strings.Contains(head, "…") || !strings.Contains(head, "Corridor") {
			t.Errorf("at %d columns the header is %q", size.w, head)
		}
		if size.w == 80 && !strings.Contains(body, "not shown (←/→): Internal id") {
			t.Errorf("at 80 columns the columns not shown are not named:\n%s", body)
		}
	}
	send(v, ui.Open{View: Name, Args: []string{newestIn(t, e, payments.Failed).PaymentID}})
	check("detail", v.Render(80, 20))
}

// TestPaymentsTimelineMergesWebhooks: webhook arrivals and the state
// history are merged by time, each labelled, a late one marked.
func TestPaymentsTimelineMergesWebhooks(t *testing.T) {
	e := plainWorld(t)
	p := newestIn(t, e, payments.Failed)
	ev := func(id string, st payments.State, at time.Time) webhook.Event {
		return webhook.Event{ID: id, EventType: "PAYMENT_STATE_TRANSITION", CreateDate: at,
			EventData: webhook.EventData{PaymentID: p.PaymentID, CreatedAt: p.InitiatedAt, PaymentState: st}}
	}
	e.P.Store.ApplyPaymentEvent(ev("evt-late-0001", payments.Initiated, p.InitiatedAt))
	e.P.Store.ApplyPaymentEvent(ev("evt-final-0002", payments.Failed, p.LastStateUpdatedAt))
	v := New(e.Ctx, e.P)
	send(v, ui.Open{View: Name, Args: []string{p.PaymentID}})
	body := v.Render(120, 80)
	var tl []string
	in := false
	for _, l := range strings.Split(body, "\n") {
		switch {
		case strings.HasPrefix(l, "State timeline"):
			in = true
		case in && strings.TrimSpace(l) == "":
			in = false
		case in && strings.HasPrefix(l, " ") && len(tl) > 0: // a step's text wrapped
			tl[len(tl)-1] += " " + strings.TrimSpace(l)
		case in:
			tl = append(tl, strings.TrimRight(l, " "))
		}
	}
	if len(tl) != 5 {
		t.Fatalf("timeline has %d lines, want 3 history and 2 webhook:\n%s", len(tl), strings.Join(tl, "\n"))
	}
	want := []string{"history  QUOTED → INITIATED", "webhook  → INITIATED", "history  INITIATED → VALIDATING", "history  ", "webhook  → FAILED"}
	for i, w := range want {
		if !strings.Contains(tl[i], w) {
			t.Errorf("timeline line %d is %q, want %q", i, tl[i], w)
		}
	}
	if !strings.Contains(tl[1], "late") || strings.Contains(tl[4], "late") {
		t.Errorf("late marking wrong:\n%s", strings.Join(tl, "\n"))
	}
}

// TestPaymentsLookupWithoutClient: a reference the store does not hold,
// in a profile without the payments interface, says so instead of waiting.
func TestPaymentsLookupWithoutClient(t *testing.T) {
	v, _ := benchView(t, 10)
	send(v, ui.Open{View: Name, Args: []string{"INV-unknown"}})
	if body := v.Render(100, 10); !strings.Contains(body, "no payments interface") {
		t.Fatalf("no explanation:\n%s", body)
	}
	send(v, ui.Open{View: Name, Args: []string{"INV-0000003"}})
	if body := v.Render(100, 40); !strings.Contains(body, "Payment 00000003-") || !strings.Contains(body, "no reporting interface") {
		t.Fatalf("held payment not shown by internalId:\n%s", body)
	}
}

// TestRawIsTheRecordShown: on the detail of a payment held as the filter's
// record, y shows the page's read by id (its payout details, its tracking
// references), the record the detail is built from, not the list record.
func TestRawIsTheRecordShown(t *testing.T) {
	e := shared.Env(t)
	p := newestIn(t, e, payments.Completed)
	if p.Detailed {
		t.Skip("the newest completed payment is held as read by id already")
	}
	tm := e.Program(t, New(e.Ctx, e.P))
	viewtest.WaitFor(t, tm, "payments per state")
	viewtest.Keys(tm, ":", "payment "+p.InternalID(), "enter")
	// The page shows the record read by id (its payout started) before y:
	// raw is the record shown, and the list's record has no payout details.
	viewtest.WaitAll(t, tm, "Payment "+p.PaymentID, "Payout", "started ")
	viewtest.Keys(tm, "y")
	viewtest.WaitFor(t, tm, "as received")
	viewtest.Keys(tm, "pgdown")
	viewtest.WaitFor(t, tm, "payoutExecutionDetails")
	tm.Quit()
}

// TestSearchFindsAPaymentOutsideTheWindow: a search of an internalId the
// window does not hold is asked of the platform; the empty table says
// what it found, and enter opens it. A reference the platform does not
// know either is said so.
func TestSearchFindsAPaymentOutsideTheWindow(t *testing.T) {
	e := plainWorld(t)
	g := octoberPayment(t, e)
	v := New(e.Ctx, e.P)
	send(v, ui.StoreChanged{})
	viewtest.Drive(v, ui.SetFilterOf(v, g.EndToEndID)) // the internalId of an october payment
	body := v.Render(120, 40)
	if !strings.Contains(body, "Outside the last 24h: "+g.EndToEndID) || !strings.Contains(body, "enter opens it") {
		t.Fatalf("the empty table does not say what the platform found:\n%s", body)
	}
	send(v, viewtest.Key("enter"))
	if v.Depth() != 2 || !strings.Contains(v.Render(120, 40), "Payment "+g.NetworkPaymentID) {
		t.Fatalf("enter did not open the payment found (depth %d):\n%s", v.Depth(), v.Render(120, 40))
	}
	v.Back()
	viewtest.Drive(v, ui.SetFilterOf(v, "INV-none-such"))
	if body := v.Render(120, 40); !strings.Contains(body, "has no payment INV-none-such either") {
		t.Errorf("an unknown reference:\n%s", body)
	}
	viewtest.Drive(v, ui.SetFilterOf(v, "state:nothing"))
	if body := v.Render(120, 40); !strings.Contains(body, "Only the window shown is searched") {
		t.Errorf("a search of fields is not asked of the platform:\n%s", body)
	}
}

// octoberPayment is the first payment of the sandbox's October RECON
// report: one the window of the views does not hold.
func octoberPayment(t *testing.T, e *viewtest.Env) reporting.ReconPayment {
	t.Helper()
	reps, err := e.P.Reporting.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var rep reporting.Report
	for _, r := range reps {
		if r.Type == reporting.TypeRecon && r.StartDate.Month() == 10 {
			rep = r
		}
	}
	d, err := e.P.Reporting.Download(context.Background(), rep)
	if err != nil || d.Rows == nil || len(d.Rows.Recon) == 0 {
		t.Fatalf("october RECON: %v", err)
	}
	g := reporting.GroupRecon(d.Rows.Recon)[0]
	return g
}
