package paymentsview

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"treasury/desk/live"
	"treasury/desk/paystats"
	"treasury/figures"
	"treasury/ui"
	"treasury/views/viewtest"
	"treasury/wire/money"
	"treasury/wire/payments"
)

// TestStateChartNamesItsWindowAndSpan: with 7 days chosen the chart's
// title read "counts held, last 24h window" next to 7 days' counts. It
// names the window counted and how long its history spans; every state
// is drawn in the same time slots (a state that first had payments an
// hour later is at its minimum, zero, for the first half).
func TestStateChartNamesItsWindowAndSpan(t *testing.T) {
	t0 := time.Date(2026, 11, 25, 9, 37, 0, 0, time.UTC)
	now := t0
	week := 7 * 24 * time.Hour
	var held []payments.Payment
	fetch := func(context.Context) ([]payments.Payment, error) { return held, nil }
	fold := func(prev *live.PaymentSet, got []payments.Payment, at time.Time) (*live.PaymentSet, live.Changes) {
		return live.MergePayments(prev, got, at.Add(-week))
	}
	st := live.New(live.Options{Inline: true, Now: func() time.Time { return now }, Feeds: []live.Feed{
		live.FoldFeed(live.PaymentsKey, fetch, fold, live.FeedOptions[[]payments.Payment, *live.PaymentSet]{Interval: time.Minute}),
	}})
	key := paystats.StateHistories(st, week)
	for i := 0; i <= 120; i++ {
		now = t0.Add(time.Duration(i) * time.Minute)
		st.PutPayments(nil)
		at := now.Add(-time.Second)
		held = append(held, payments.Payment{PaymentID: fmt.Sprint("i", i), PaymentState: payments.Initiated, InitiatedAt: at, LastStateUpdatedAt: at})
		for k := range map[bool]int{false: 0, true: 50}[i == 60] + 1 {
			if i >= 60 { // none in the first hour, fifty at once, then one a minute
				held = append(held, payments.Payment{PaymentID: fmt.Sprint("f", i, "-", k), PaymentState: payments.Failed, InitiatedAt: at, LastStateUpdatedAt: at})
			}
		}
		st.FetchNow(context.Background(), live.Payments)
	}
	r := colorprofile.NoTTY
	ctx := &ui.Context{Shared: &ui.Shared{Store: st, Now: func() time.Time { return now }}, Session: ui.Session{Colors: r, Dark: true, Theme: ui.NewTheme(r, true, nil)}}
	const w, sparkW = 89, 89 - (payments.StateWidth + 1) - 7 - 2
	out := drawStateChart(ctx, live.Get(st, key).Data, week, w, 10)
	lines := strings.Split(out, "\n")
	if !strings.Contains(lines[0], "payments per state, last 7d") || !strings.Contains(lines[0], "last 24h window, 2h held") {
		t.Errorf("title %q: the 7 days counted, two hours held of the 24 hours' history", lines[0])
	}
	spark := func(state string) []rune {
		for _, l := range lines {
			if strings.HasPrefix(l, state+" ") {
				r := []rune(l)
				return r[len(r)-sparkW:]
			}
		}
		t.Fatalf("no line for %s in\n%s", state, out)
		return nil
	}
	blanks := func(r []rune) int { return len(r) - len([]rune(strings.TrimLeft(string(r), " "))) }
	if n := blanks(spark("INITIATED")); n != 0 {
		t.Errorf("INITIATED, counted from the start, begins with %d blank columns:\n%s", n, out)
	}
	low := func(r []rune) int { return len(r) - len([]rune(strings.TrimLeft(string(r), "▁"))) }
	if n := low(spark("FAILED")); n < sparkW/2-2 || n > sparkW/2+2 {
		t.Errorf("FAILED, none in the first half of the history, begins with %d columns at zero of %d:\n%s", n, sparkW, out)
	}
}

// TestStateChartMovesOnEveryPage: on FAILED by reason the chart stayed at
// "47s held" for two minutes while the scope bar moved on. It is counted
// at every poll and drawn anew on every page of the view.
func TestStateChartMovesOnEveryPage(t *testing.T) {
	e := world(t, viewtest.Options{})
	v := New(e.Ctx, e.P)
	send(v, ui.Open{View: Name, Args: []string{"failed"}})
	title := func() string {
		for _, l := range strings.Split(v.Render(120, 40), "\n") {
			if strings.HasPrefix(l, "payments per state") {
				return l
			}
		}
		t.Fatalf("no chart on FAILED by reason:\n%s", v.Render(120, 40))
		return ""
	}
	if got := title(); !strings.Contains(got, "one point held") {
		t.Fatalf("title %q at the first count", got)
	}
	for range 2 {
		e.Advance(time.Minute)
	}
	send(v, ui.StoreChanged{})
	if got := title(); !strings.Contains(got, "2m held") {
		t.Errorf("title %q after two polls a minute apart", got)
	}
}

// TestAnyWindow: ":payments failed 90d" shows the failures of 90 days
// (any window, in days), not a lookup of a payment called "failed"; a
// window that cannot be read is said, not looked up.
func TestAnyWindow(t *testing.T) {
	e := world(t, viewtest.Options{})
	v := New(e.Ctx, e.P)
	send(v, ui.Open{View: Name, Args: []string{"failed", "90d"}})
	if v.Depth() != 1 || v.window != 90*24*time.Hour || v.scope != scopeFailed {
		t.Fatalf("depth %d, window %v, scope %v: want the FAILED scope over 90 days", v.Depth(), v.window, v.scope)
	}
	if out := v.Render(120, 40); !strings.Contains(out, "last 90d") {
		t.Errorf("the scope bar does not say the window:\n%s", out)
	}
	var flash ui.Flash
	for _, m := range send(v, ui.Open{View: Name, Args: []string{"failed", "9x"}}) {
		if f, ok := m.(ui.Flash); ok {
			flash = f
		}
	}
	if v.Depth() != 1 || !strings.Contains(flash.Text, "not a length of time") {
		t.Errorf("depth %d, flash %q: want the window refused, no lookup", v.Depth(), flash.Text)
	}
	// w from 90d comes back to the first window.
	send(v, viewtest.Key("w"))
	if v.window != windows[0] {
		t.Errorf("w from 90d: %v", v.window)
	}
}

// TestPaymentsCSVIsData: the export has one meaning per column: amounts
// apart from their currency, times RFC 3339 to the second, no glyphs; a
// failure's funding, every code, the code it is grouped under and the one
// retry verdict (package figures); the rows are those shown, filtered.
func TestPaymentsCSVIsData(t *testing.T) {
	e := world(t, viewtest.Options{})
	v := New(e.Ctx, e.P)
	send(v, ui.Open{View: Name, Args: []string{"all"}})
	viewtest.Drive(v, ui.SetFilterOf(v, "state:FAILED"))
	c := viewtest.ReadCSV(t, ui.CSVOf(v))
	c.HasHeader(t, "initiated_at", "payment_id", "internal_id", "state", "funding", "error_codes", "reason_code", "error_title",
		"retry", "retry_why", "source_amount", "source_currency", "destination_amount", "destination_currency", "destination_country",
		"last_state_updated_at", "expires_at", "jit_funding_expires_at", "beneficiary", "beneficiary_id", "originator", "labels")
	if len(c.Rows) == 0 {
		t.Fatal("no FAILED payment")
	}
	ps := live.Get(e.P.Store, live.PaymentsKey).Data
	for _, r := range c.Rows {
		viewtest.Time(t, "initiated_at", r["initiated_at"], false)
		viewtest.Amount(t, "source_amount", r["source_amount"], r["source_currency"])
		p, ok := ps.Get(r["payment_id"])
		if !ok {
			t.Fatalf("payment %s exported, not held", r["payment_id"])
		}
		a, e := figures.VerdictOf(p), figures.Reason
		code, _ := e(p)
		if r["state"] != "FAILED" || r["error_codes"] == "" || r["reason_code"] != code.Code || r["retry"] != a.Word.Word() || r["retry_why"] != a.Why ||
			r["funding"] != figures.FundingOf(p).Name() {
			t.Errorf("row %v: the verdict of its errors %+v", r, a)
		}
	}
	c.Plain(t)
}

// TestTicketSummary: Y on a failed payment's detail asks the shell to
// copy its ticket summary: its id, error, what to do and timeline.
func TestTicketSummary(t *testing.T) {
	e := world(t, viewtest.Options{})
	v := New(e.Ctx, e.P)
	p := newestIn(t, e, payments.Failed)
	send(v, ui.Open{View: Name, Args: []string{p.PaymentID}})
	for range 3 { // the detail's reads by id (the record, its states)
		send(v, ui.StoreChanged{})
	}
	var c ui.Copy
	for _, m := range send(v, viewtest.Key("Y")) {
		if x, ok := m.(ui.Copy); ok {
			c = x
		}
	}
	for _, want := range []string{"Payment       " + p.PaymentID, "State         FAILED", "Error         ", "What to do    ", "Timeline\n"} {
		if !strings.Contains(c.Text, want) {
			t.Errorf("ticket lacks %q:\n%s", want, c.Text)
		}
	}
	if !strings.Contains(c.What, p.PaymentID) {
		t.Errorf("copy names %q", c.What)
	}
}

// TestEscFromAScopeToAllPayments: after ":payments failed", esc walks back
// from a reason's payments to the reasons, then to all the payments of
// the window (the window kept).
func TestEscFromAScopeToAllPayments(t *testing.T) {
	e := world(t, viewtest.Options{})
	v := New(e.Ctx, e.P)
	send(v, ui.Open{View: Name, Args: []string{"failed", "7d"}})
	send(v, viewtest.Key("enter")) // a reason's payments
	if v.Depth() != 2 {
		t.Fatalf("depth %d after enter on a reason", v.Depth())
	}
	if !v.Back() || v.Depth() != 1 || v.scope != scopeFailed {
		t.Fatalf("first esc: depth %d scope %v; want the reasons", v.Depth(), v.scope)
	}
	if !v.Back() || v.scope != scopeAll || v.window != 7*24*time.Hour {
		t.Fatalf("second esc: scope %v window %v; want all payments of 7d", v.scope, v.window)
	}
	send(v, ui.StoreChanged{})
	if v.Back() {
		t.Fatal("esc on all payments should have nowhere to go")
	}
	if out := v.Render(120, 40); !strings.Contains(out, "[all ") {
		t.Errorf("the scope bar does not mark all:\n%s", out)
	}
}

// TestTicketFromAListRow: Y on a DECLINED row of a list (whose records
// carry no errors) reads the payment by id first: the ticket has its
// error with its time, one verdict and the timeline, and nothing says
// "not read".
func TestTicketFromAListRow(t *testing.T) {
	e := world(t, viewtest.Options{})
	v := New(e.Ctx, e.P)
	send(v, ui.Open{View: Name, Args: []string{"all"}})
	viewtest.Drive(v, ui.SetFilterOf(v, "state:DECLINED"))
	var c ui.Copy
	for _, m := range send(v, viewtest.Key("Y")) {
		if x, ok := m.(ui.Copy); ok {
			c = x
		}
	}
	for _, want := range []string{"State         DECLINED", "Error         ", " (at 20", "Retry         ", "Timeline\n"} {
		if !strings.Contains(c.Text, want) {
			t.Errorf("ticket lacks %q:\n%s", want, c.Text)
		}
	}
	if strings.Contains(c.Text, "not read") || strings.Count(c.Text, "Retry ") != 1 {
		t.Errorf("ticket of a row read by id:\n%s", c.Text)
	}
	// Figure by figure, against the server's record read by id.
	id := strings.Fields(strings.TrimPrefix(c.What, "the ticket summary of "))[0]
	p, err := e.P.Payments.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	a := figures.VerdictOf(&p)
	want := []string{"Retry         " + a.Retry, "Internal id   " + p.Originator.InternalID}
	for _, er := range p.Errors {
		at, _ := time.Parse(time.RFC3339Nano, er.Timestamp)
		want = append(want, "Error         "+er.Code+" ", "(at "+at.UTC().Format("2006-01-02 15:04:05")+" UTC)")
	}
	for _, x := range p.Taxes {
		want = append(want, "Tax           "+money.Format(x.TotalTaxes.Decimal(), x.TaxCurrency)+" "+x.TaxCurrency)
	}
	for _, f := range p.Fees {
		want = append(want, "Fee           "+money.Format(f.TotalFee.Decimal(), f.FeeCurrency)+" "+f.FeeCurrency)
	}
	for _, w := range want {
		if !strings.Contains(c.Text, w) {
			t.Errorf("ticket lacks the server's %q:\n%s", w, c.Text)
		}
	}
}

// TestDetailGivesOneVerdict: a payment whose two errors answer the retry
// question differently gets one verdict, the stricter, with why.
func TestDetailGivesOneVerdict(t *testing.T) {
	e := world(t, viewtest.Options{})
	v := New(e.Ctx, e.P)
	d := &detail{v: v}
	p := &payments.Payment{PaymentID: "x", PaymentState: payments.Failed, Detailed: true,
		Errors: []payments.PaymentError{{Code: "SYS_001", Title: "Timeout"}, {Code: "USR_030", Title: "Account closed"}}}
	out := d.errorSection(p, 120)
	if !strings.Contains(out, "verdict") || !strings.Contains(out, "SYS_001 YES, USR_030 NO") {
		t.Errorf("no single verdict:\n%s", out)
	}
}

// TestOldPaymentsLedgerIsReadForItsDates: a payment initiated days before
// the polled ledger's 24 hours gets its RESERVE and DEBIT from a read of
// its own dates, and the detail says which window it shows.
func TestOldPaymentsLedgerIsReadForItsDates(t *testing.T) {
	e := world(t, viewtest.Options{})
	v := New(e.Ctx, e.P)
	cut := v.now().Add(-48 * time.Hour)
	var old *payments.Payment
	for p, err := range e.P.Payments.Filter(context.Background(), payments.Filter{PaymentStates: []payments.State{payments.Completed}, BeforeTimestamp: &cut}) {
		if err != nil {
			t.Fatal(err)
		}
		old = &p
		break
	}
	if old == nil {
		t.Fatal("no completed payment older than two days")
	}
	send(v, ui.Open{View: Name, Args: []string{old.PaymentID}})
	for range 3 {
		send(v, ui.StoreChanged{})
	}
	out := ansi.Strip(v.Render(120, 200))
	if !strings.Contains(out, "read for its dates: ") || !strings.Contains(out, "RESERVE") || strings.Contains(out, "none held for this payment") {
		t.Errorf("the ledger of %s (initiated %v):\n%s", old.PaymentID, old.When(), out)
	}
}
