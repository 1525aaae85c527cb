package figures

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"treasury/wire/money"
	"treasury/wire/payments"
)

// line is a ledger line of amount of USD at at, moving the available
// balance from before to after; ref "" is null.
func line(op, src, ref, amount string, at time.Time, before, after string) payments.LedgerTransaction {
	tx := payments.LedgerTransaction{Currency: "USD", Operation: op, TxnSource: src, Amount: money.N(money.MustParse(amount)),
		CreatedDttm: at, AvailableBalanceBefore: money.N(money.MustParse(before)), AvailableBalanceAfter: money.N(money.MustParse(after)),
		Status: payments.TxnSuccess}
	if ref != "" {
		tx.TxnReference = &ref
	}
	return tx
}

func hm(t time.Time) string { return t.UTC().Format("15:04:05") }

// TestTrailOfAFailedPayment: the document's ledger names the payment on
// its RESERVE only; the RELEASE that gave the funds back (null
// txnReference) is tied by its operation, source, currency, amount and
// time (within TrailSlack of the FAILED the state history gives), the
// nearest of those that fit, and the others counted; a BANK credit or a
// RELEASE of another amount is not it.
func TestTrailOfAFailedPayment(t *testing.T) {
	p := pay("pay-1", payments.Failed, PayinPrefunding, "USD", "MXN", "1234.50", "21000")
	failedAt := now.Add(-10 * time.Minute)
	p.LastStateUpdatedAt = failedAt.Add(time.Second) // the record's time; the history's is the transition's
	hist := []payments.StateTransition{{UpdatedFrom: "INITIATED", UpdatedTo: "VALIDATING", UpdatedAt: now.Add(-20 * time.Minute)},
		{UpdatedFrom: "VALIDATING", UpdatedTo: "FAILED", UpdatedAt: failedAt}}
	ledger := []payments.LedgerTransaction{
		line(payments.OpReserve, payments.SrcPayment, "pay-1", "1234.50", now.Add(-20*time.Minute), "5000", "3765.50"),
		line(payments.OpCredit, payments.SrcBank, "", "1234.50", failedAt, "3765.50", "5000"),                        // a top-up
		line(payments.OpRelease, payments.SrcPayment, "", "99.00", failedAt, "5000", "5099"),                         // another amount
		line(payments.OpRelease, payments.SrcPayment, "", "1234.50", failedAt.Add(5*time.Minute), "0", "1"),          // too late
		line(payments.OpRelease, payments.SrcPayment, "", "1234.50", failedAt.Add(90*time.Second), "1", "2"),         // fits, farther
		line(payments.OpRelease, payments.SrcPayment, "", "1234.50", failedAt.Add(2*time.Second), "5099", "6333.50"), // it
		line(payments.OpReserve, payments.SrcPayment, "pay-2", "1234.50", now, "6333.50", "5099"),
	}
	tr := TrailOf(p, ledger, hist, now)
	if tr.Back != BackAll || len(tr.Lines) != 2 || !tr.Returned.Equal(d("1234.50")) || !tr.ReturnedAt.Equal(failedAt.Add(2*time.Second)) {
		t.Fatalf("trail %+v", tr)
	}
	rel := tr.Lines[1]
	if !rel.Tie.ByAmount || rel.Tie.Others != 1 || rel.Tx.AvailableBalanceBefore.String() != "5099" || tr.Lines[0].Tie.ByAmount {
		t.Fatalf("lines %+v", tr.Lines)
	}
	w := tr.Words(hm)
	for _, want := range []string{"funds came back: 1,234.50 USD at 11:50:02", "RELEASE, tied by amount and time", "1 other line(s) fit as well"} {
		if !strings.Contains(w, want) {
			t.Errorf("words %q lack %q", w, want)
		}
	}
	// Without the history, the record's own time of the state: the same
	// line, within the slack.
	if tr := TrailOf(p, ledger, nil, now); tr.Back != BackAll || !tr.ReturnedAt.Equal(failedAt.Add(2*time.Second)) {
		t.Fatalf("without history %+v", tr)
	}
	// The release not read yet: not back (yet), as of the read.
	if tr := TrailOf(p, ledger[:3], hist, now); tr.Back != BackNotYet || !strings.Contains(tr.Words(hm), "funds not back (yet): 1,234.50 USD drawn at 11:40:00, no RELEASE or CREDIT of it in the ledger read to 12:00:00") {
		t.Fatalf("not yet: %+v %q", tr, tr.Words(hm))
	}
}

// TestTrailOfAReturnedPayment: reserved, debited (paid out), then the
// return's CREDIT from PAYMENTS; a deployment that names the payment on
// every line (the spec's face) is tied by the reference, by id or by
// internalId.
func TestTrailOfAReturnedPayment(t *testing.T) {
	p := pay("pay-r", payments.Returned, PayinFunded, "USD", "MXN", "500", "8600")
	p.Originator.InternalID = "INV-7"
	t0 := now.Add(-3 * time.Hour)
	p.LastStateUpdatedAt = now.Add(-time.Hour)
	ledger := []payments.LedgerTransaction{
		line(payments.OpReserve, payments.SrcPayment, "pay-r", "500", t0, "1000", "500"),
		line(payments.OpDebit, payments.SrcPayment, "pay-r", "500", t0.Add(time.Hour), "500", "500"),
		line(payments.OpCredit, payments.SrcPayment, "", "500", p.LastStateUpdatedAt, "500", "1000"),
	}
	tr := TrailOf(p, ledger, nil, now)
	if tr.Back != BackAll || !tr.Debited.Equal(d("500")) || !tr.Returned.Equal(d("500")) || len(tr.Lines) != 3 {
		t.Fatalf("returned %+v", tr)
	}
	ref := "INV-7"
	ledger[2].TxnReference = &ref
	tr = TrailOf(p, ledger, nil, now)
	if tr.Back != BackAll || tr.Lines[2].Tie.ByAmount || strings.Contains(tr.Words(hm), "tied by amount") {
		t.Fatalf("by reference %+v", tr)
	}
	// Half given back: part, what is missing said.
	ledger[2].Amount = money.N(d("200"))
	tr = TrailOf(p, ledger, nil, now)
	if tr.Back != BackPart || !tr.Missing().Equal(d("300")) || !strings.Contains(tr.Words(hm), "funds partly back: 200.00 USD of 500.00 USD") {
		t.Fatalf("part %+v %q", tr, tr.Words(hm))
	}
}

// TestTrailSaysWhatItCannot: a just-in-time payment draws nothing; one in
// flight has nothing to come back; a finished payment with no line in the
// read cannot be judged.
func TestTrailSaysWhatItCannot(t *testing.T) {
	jit := pay("j", payments.Declined, PayinJIT, "USD", "MXN", "10", "170")
	if tr := TrailOf(jit, nil, nil, now); tr.Back != BackNotDrawn || !strings.Contains(tr.Words(hm), "a just-in-time payment is funded by the customer") {
		t.Fatalf("jit %+v", tr)
	}
	fl := pay("f", payments.Transferring, PayinPrefunding, "USD", "MXN", "10", "170")
	if tr := TrailOf(fl, []payments.LedgerTransaction{line(payments.OpReserve, payments.SrcPayment, "f", "10", now, "20", "10")}, nil, now); tr.Back != BackInFlight ||
		tr.Words(hm) != "10.00 USD reserved at 12:00:00; in flight: nothing to come back yet" {
		t.Fatalf("in flight %+v %q", tr, tr.Words(hm))
	}
	old := pay("o", payments.Failed, PayinPrefunding, "USD", "MXN", "10", "170")
	if tr := TrailOf(old, nil, nil, now); tr.Back != BackUnknown || !strings.Contains(tr.Words(hm), "cannot be said") {
		t.Fatalf("unread %+v", tr)
	}
}

// BenchmarkTrailOf ties a failed payment to its lines in a day's ledger
// of 20,000 lines (what the detail page does at each frame it draws).
func BenchmarkTrailOf(b *testing.B) {
	p := pay("pay-1", payments.Failed, PayinPrefunding, "USD", "MXN", "1234.50", "21000")
	p.LastStateUpdatedAt = now.Add(-time.Hour)
	ledger := make([]payments.LedgerTransaction, 0, 20_000)
	for i := range 20_000 {
		ref := fmt.Sprintf("other-%d", i)
		op := payments.OpReserve
		if i%3 == 0 {
			op, ref = payments.OpRelease, ""
		}
		ledger = append(ledger, line(op, payments.SrcPayment, ref, "99.00", now.Add(-time.Duration(20_000-i)*4*time.Second), "1000", "901"))
	}
	ledger = append(ledger, line(payments.OpReserve, payments.SrcPayment, "pay-1", "1234.50", now.Add(-2*time.Hour), "5000", "3765.50"),
		line(payments.OpRelease, payments.SrcPayment, "", "1234.50", p.LastStateUpdatedAt, "3765.50", "5000"))
	var t Trail
	for b.Loop() {
		t = TrailOf(p, ledger, nil, now)
	}
	if t.Back != BackAll {
		b.Fatalf("trail %+v", t)
	}
}
