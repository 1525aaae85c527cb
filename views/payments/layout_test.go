package paymentsview

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/charmbracelet/x/ansi"

	"treasury/ui"
	"treasury/views/viewtest"
	"treasury/wire/payments"
)

// cryptoPayout is the newest completed payment held whose payout partner
// reports a tracking reference longer than a label column (a crypto
// payout's "Transaction hash"), with the reference as read by id.
func cryptoPayout(t *testing.T, e *viewtest.Env) (*payments.Payment, payments.TrackingReference) {
	t.Helper()
	ps := held(t, e)
	for i := ps.Len() - 1; i >= 0; i-- {
		p := ps.At(i)
		if p.PaymentState != payments.Completed || p.Destination.DestinationBlockchainNetwork == "" {
			continue
		}
		full, err := e.P.Payments.Get(context.Background(), p.PaymentID)
		if err != nil {
			t.Fatal(err)
		}
		x, _ := full.PayoutExecutionDetails.Get()
		for _, r := range x.TrackingReferences {
			if len(r.Name()) > minLabel && len(r.Value) > 40 {
				return p, r
			}
		}
	}
	t.Fatal("no completed crypto payout with a long tracking reference held")
	return nil, payments.TrackingReference{}
}

// TestDetailWrapsWhatASupportDeskCopies: at 80 columns the payout's
// transaction hash was cut ("0x5a3879...dad68…", its type on the next
// line), and labels longer than the label column ("Transaction hash",
// "source of cash") pushed their values out of line. Every value is
// shown whole, wrapped under its column, and the values of a section
// start in one column.
func TestDetailWrapsWhatASupportDeskCopies(t *testing.T) {
	e := shared.Env(t)
	p, ref := cryptoPayout(t, e)
	v := New(e.Ctx, e.P)
	send(v, ui.Open{View: Name, Args: []string{p.PaymentID}})
	for _, w := range []int{80, 120} {
		body := ansi.Strip(v.Render(w, 200))
		viewtest.Fits(t, "detail", body, w, 200)
		squeezed := strings.Map(func(r rune) rune {
			if unicode.IsSpace(r) {
				return -1
			}
			return r
		}, body)
		if !strings.Contains(squeezed, string(ref.Value)) {
			t.Errorf("at %d columns the %s %s is not shown whole:\n%s", w, ref.Name(), ref.Value, body)
		}
		var record []string
		for _, f := range (&detail{v: v}).fields(p) {
			record = append(record, f[0])
		}
		for section, labels := range map[string][]string{
			"Record": record,
			"Payout": {"network", "transaction", "rail", "started", "last update", ref.Name()},
		} {
			if offs := valueOffsets(body, section, labels); len(offs) != 1 {
				t.Errorf("at %d columns the values of %s are %v cells from their labels:\n%s", w, section, offs, body)
			}
		}
	}
}

// valueOffsets are the distances from a label of the section to the
// start of its value, each once: one distance when the values line up.
func valueOffsets(body, section string, labels []string) []int {
	var offs []int
	in := false
	for _, l := range strings.Split(body, "\n") {
		switch {
		case strings.HasPrefix(l, section):
			in = true
			continue
		case !in:
			continue
		case strings.TrimSpace(l) == "":
			return offs
		}
		for _, label := range labels {
			i := strings.Index(l, label+"  ")
			if i < 0 || (i > 0 && !strings.HasSuffix(l[:i], "  ")) {
				continue
			}
			v := i + len(label)
			for v < len(l) && l[v] == ' ' {
				v++
			}
			if off := ansi.StringWidth(l[i:v]); !slices.Contains(offs, off) {
				offs = append(offs, off)
			}
		}
	}
	return offs
}

// TestDetailLinesUpLongLabels: "source of cash", longer than the label
// column, pushed its value and the right-hand column two cells out of
// line with "labels" and "purpose" in the record's two columns.
func TestDetailLinesUpLongLabels(t *testing.T) {
	e := shared.Env(t)
	ps := held(t, e)
	var p *payments.Payment
	for i := ps.Len() - 1; i >= 0 && p == nil; i-- {
		if q := ps.At(i); q.Declared().SourceOfCash != "" && !q.Partial {
			p = q
		}
	}
	if p == nil {
		t.Fatal("no payment with a sourceOfCash held")
	}
	v := New(e.Ctx, e.P)
	send(v, ui.Open{View: Name, Args: []string{p.PaymentID}})
	var labels []string
	for _, f := range (&detail{v: v}).fields(p) {
		labels = append(labels, f[0])
	}
	for _, w := range []int{80, 120} {
		body := ansi.Strip(v.Render(w, 200))
		if !strings.Contains(body, "source of cash  ") {
			t.Fatalf("at %d columns no source of cash:\n%s", w, body)
		}
		if offs := valueOffsets(body, "Record", labels); len(offs) != 1 {
			t.Errorf("at %d columns the values of the record are %v cells from their labels:\n%s", w, offs, body)
		}
	}
}

// TestDetailPayoutAt80Golden: the payout of a crypto payment at 80x24,
// its transaction hash whole under its column.
func TestDetailPayoutAt80Golden(t *testing.T) {
	e := shared.Env(t)
	p, ref := cryptoPayout(t, e)
	tm := e.ProgramAt(t, 80, 24, New(e.Ctx, e.P))
	viewtest.WaitFor(t, tm, "Initiated")
	viewtest.Keys(tm, ":", "payment "+p.PaymentID, "enter")
	viewtest.WaitAll(t, tm, "Payment "+p.PaymentID)
	viewtest.Keys(tm, "pgdown")
	viewtest.WaitAll(t, tm, "Payout", ref.Name())
	viewtest.Golden(t, tm)
}

// TestDetailErrorTimeAsThePage: an error's "at" read
// 2026-11-27T13:36:09.493Z, as received, where every other time of the
// page is 2026-11-27 13:36:09 UTC.
func TestDetailErrorTimeAsThePage(t *testing.T) {
	e := shared.Env(t)
	p := newestIn(t, e, payments.Failed)
	v := New(e.Ctx, e.P)
	send(v, ui.Open{View: Name, Args: []string{p.PaymentID}})
	body := ansi.Strip(v.Render(120, 200))
	at := regexp.MustCompile(`(?m)^at +(.*?) *$`).FindStringSubmatch(body)
	if at == nil {
		t.Fatalf("no time of the error:\n%s", body)
	}
	if !regexp.MustCompile(`^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$`).MatchString(at[1]) {
		t.Errorf("the error's time is %q, not written as the page's times", at[1])
	}
}

// TestPaymentsScrolledAt80Golden: at 80x24 the payout and the beneficiary
// did not fit and were out of reach; → scrolls the columns sideways, the
// initiation time staying first, the header marking the columns left (‹)
// and right (›) of those shown, the selection kept.
func TestPaymentsScrolledAt80Golden(t *testing.T) {
	e := shared.Env(t)
	tm := e.ProgramAt(t, 80, 24, New(e.Ctx, e.P))
	viewtest.WaitAll(t, tm, "Initiated", "←/→ more columns", "not shown (←/→)")
	viewtest.Keys(tm, "down", "right", "right", "right")
	viewtest.WaitAll(t, tm, "Initiated  ‹", "Payout Beneficiary")
	frame := viewtest.Golden(t, tm)
	if !strings.Contains(frame, "Payment id") {
		t.Errorf("the footer does not name the payment id scrolled away:\n%s", frame)
	}
}
