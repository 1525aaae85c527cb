package paymentsview

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"treasury/config"
	"treasury/desk/alerthook"
	"treasury/desk/live"
	"treasury/desk/platform"
	"treasury/figures"
	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
	"treasury/ui"
	"treasury/views/viewkit"
	"treasury/views/viewtest"
	"treasury/wire/payments"
)

// documentWorld is a platform on a server built from the vendor's
// document: its payments are the fixture of sandboxtest.DocumentServer
// (fourteen awaiting their funds just in time, ten of them past their
// jitFundingExpiresAt, one funded, prefunded ones in flight and done).
func documentWorld(t *testing.T) (*viewtest.Env, *sandboxtest.DocumentServer) {
	t.Helper()
	var doc *sandboxtest.DocumentServer
	e := viewtest.New(t, viewtest.Options{Skip: notShown, Profile: func(c *config.Config) {
		root := strings.TrimSuffix(c.Payments.BaseURL, sandbox.PrefixPayments)
		doc = sandboxtest.ServeDocumentAt(t, root, sandboxtest.Start)
		c.Payments.BaseURL = doc.URL + sandbox.PrefixPayments
	}})
	return e, doc
}

// TestOwedOfTheDocumentsServer: :payments owed lists exactly the payments
// the document's server holds awaiting their funds, the first due first,
// each with its due time on the platform's clock and how late (or how
// long until due) it is, its originator, amount and reference; the totals
// above are the exposure's "owed" per currency, and equal what the rows
// sum; every payment past its due time raises a HIGH alert and every one
// due within the hour a MEDIUM one, each naming the payment and its
// amount, in the alert journal the notifications read and in the
// outgoing webhook's message.
func TestOwedOfTheDocumentsServer(t *testing.T) {
	e, doc := documentWorld(t)
	now := sandboxtest.Start()
	var owed []payments.Payment
	for _, p := range doc.Payments {
		if p.PaymentState == payments.AwaitingFunding {
			owed = append(owed, p)
		}
	}
	slices.SortStableFunc(owed, func(a, b payments.Payment) int {
		if c := a.JITFundingExpiresAt.Compare(b.JITFundingExpiresAt); c != 0 {
			return c
		}
		return strings.Compare(a.PaymentID, b.PaymentID)
	})

	v := New(e.Ctx, e.P)
	send(v, ui.Open{View: Name, Args: []string{"owed"}})
	page, ok := v.Stack.Top().(owedPage)
	if !ok {
		t.Fatalf("page %T, want the owed page", v.Stack.Top())
	}
	tb := page.Table()
	if tb.Len() != len(owed) || len(owed) != 14 {
		t.Fatalf("%d rows, want the %d payments awaiting funds", tb.Len(), len(owed))
	}
	sums := map[string]figures.Sum{}
	for i, p := range owed {
		tb.MoveCursor(i - tb.Cursor())
		r, _ := tb.Selected()
		due := p.JITFundingExpiresAt
		if r.ID != p.PaymentID || r.Cells[0] != viewkit.Time(due) || r.Cells[1] != figures.DueIn(due, now) ||
			r.Cells[3] != figures.Money(p.Originator.SourceAmount.Decimal(), p.Originator.SourceCurrency) || r.Cells[6] != p.Originator.InternalID {
			t.Errorf("row %d: %v, want %s due %s (%s)", i, r.Cells, p.PaymentID, due, figures.DueIn(due, now))
		}
		s := sums[p.Originator.SourceCurrency]
		s.Add(p.Originator.SourceAmount.Decimal())
		sums[p.Originator.SourceCurrency] = s
	}
	if r, _ := tb.Selected(); !strings.HasPrefix(r.Cells[1], "in ") {
		t.Errorf("the last due is not ahead: %v", r.Cells)
	}
	tb.MoveCursor(-tb.Cursor())
	if r, _ := tb.Selected(); r.Cells[1] != "late 30m" {
		t.Errorf("the first due: %v, want late 30m", r.Cells)
	}
	// The totals: the exposure's, the rows', the fixture's.
	ex := live.Get(e.P.Store, v.exposure).Data
	screen := ansi.Strip(v.Render(160, 60))
	past := map[string]int{"USD": 3, "EUR": 3, "GBP": 3, "RLUSD": 1}
	for cur, o := range doc.Owed {
		i := slices.IndexFunc(ex.Lines, func(l figures.Line) bool { return l.Currency == cur })
		if i < 0 || !ex.Lines[i].Owed.Amount.Equal(o.Amount) || ex.Lines[i].Owed.Count != o.Count ||
			!sums[cur].Amount.Equal(o.Amount) || sums[cur].Count != o.Count {
			t.Errorf("%s owed: exposure %+v, rows %+v, fixture %+v", cur, ex.Lines[i].Owed, sums[cur], o)
		}
		if want := cur + " " + figures.Money(o.Amount, cur) + " (" + itoa(o.Count) + ", " + itoa(past[cur]) + " past due)"; !strings.Contains(screen, want) {
			t.Errorf("the owed page lacks %q:\n%s", want, screen)
		}
	}

	// The CSV: a row per payment owed, the due time RFC 3339, whether it
	// passed on the platform's clock, the amount apart from its currency.
	csv := viewtest.ReadCSV(t, ui.CSVOf(v))
	csv.HasHeader(t, "jit_funding_expires_at", "past_due", "payment_id", "internal_id", "originator", "originator_id", "source_amount",
		"source_currency", "payin", "memo", "initiated_at")
	csv.Plain(t)
	if len(csv.Rows) != len(owed) {
		t.Fatalf("CSV of %d rows, want %d", len(csv.Rows), len(owed))
	}
	for i, r := range csv.Rows {
		p := owed[i]
		viewtest.Time(t, "jit_funding_expires_at", r["jit_funding_expires_at"], false)
		viewtest.Amount(t, "source_amount", r["source_amount"], r["source_currency"])
		if r["payment_id"] != p.PaymentID || r["past_due"] != strconv.FormatBool(!p.JITFundingExpiresAt.After(now)) {
			t.Errorf("CSV row %d: %v, want %s past due %v", i, r, p.PaymentID, !p.JITFundingExpiresAt.After(now))
		}
	}

	// The alerts: one per payment past due (HIGH), per one due within the
	// hour (MEDIUM); none for the others.
	byRef := map[string]live.Alert{}
	for _, a := range e.P.Store.Alerts() {
		if a.Code == platform.CodeJITPastDue || a.Code == platform.CodeJITDueSoon {
			byRef[a.Ref] = a
		}
	}
	high := 0
	for _, p := range doc.Payments {
		a, raised := byRef[p.PaymentID]
		due := p.JITFundingExpiresAt
		o := p.Originator
		amount := figures.Money(o.SourceAmount.Decimal(), o.SourceCurrency) + " " + o.SourceCurrency
		switch {
		case p.PaymentState != payments.AwaitingFunding || due.After(now.Add(time.Hour)):
			if raised {
				t.Errorf("alert for %s (%s, due %s): %+v", p.PaymentID, p.PaymentState, due, a)
			}
		case !due.After(now):
			high++
			if !raised || a.Severity != live.High || a.Code != platform.CodeJITPastDue || !strings.Contains(a.Title, p.PaymentID) || !strings.Contains(a.Title, amount) {
				t.Errorf("past due %s %s: alert %+v", p.PaymentID, amount, a)
			}
		default:
			if !raised || a.Severity != live.Medium || a.Code != platform.CodeJITDueSoon || !strings.Contains(a.Title, amount) {
				t.Errorf("due within the hour %s %s: alert %+v", p.PaymentID, amount, a)
			}
		}
	}
	if high != doc.PastDue || high != 10 {
		t.Errorf("%d past due alerts, want %d", high, doc.PastDue)
	}
	// The notifications: the journal every session's bell and the
	// outgoing webhook read holds each; the webhook's message names every
	// payment past due.
	evs, _ := e.P.Store.AlertEvents(0)
	told := map[string]bool{}
	for _, ev := range evs {
		if ev.Change != live.Closed {
			told[ev.Alert.Ref+ev.Alert.Code] = true
		}
	}
	for ref, a := range byRef {
		if !told[ref+a.Code] {
			t.Errorf("the alert journal lacks %s %s", a.Code, ref)
		}
	}
	posted := make(chan string, 4)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var m alerthook.Message
		_ = json.Unmarshal(b, &m)
		posted <- m.Text
	}))
	defer srv.Close()
	hook, err := alerthook.New(alerthook.Options{URL: srv.URL, MinSeverity: live.High, Profile: "doc"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go hook.Run(ctx, e.P.Store)
	var text string
	select {
	case text = <-posted:
	case <-time.After(30 * time.Second):
		t.Fatal("the alert webhook posted nothing")
	}
	for _, p := range owed {
		if !p.JITFundingExpiresAt.After(now) && !strings.Contains(text, "JIT_PAST_DUE open at start: payment "+p.PaymentID) {
			t.Errorf("the webhook's message lacks %s:\n%s", p.PaymentID, text)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
