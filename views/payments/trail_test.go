package paymentsview

import (
	"context"
	"strings"
	"testing"
	"time"

	"treasury/figures"
	"treasury/ui"
	"treasury/views/viewkit"
	"treasury/views/viewtest"
	"treasury/wire/money"
	"treasury/wire/paging"
	"treasury/wire/payments"
)

// givenBack finds, in the sandbox's ledger itself (read apart from the
// views, by currency and time), the line that gave p's funds back: a
// RELEASE or CREDIT from PAYMENTS of its amount at the time it entered
// its state. The document's ledger names no payment on it.
func givenBack(t *testing.T, e *viewtest.Env, p *payments.Payment) payments.LedgerTransaction {
	t.Helper()
	at := p.LastStateUpdatedAt
	txs, err := paging.Collect(e.P.Payments.LedgerOf(context.Background(), p.Originator.SourceCurrency, at.Add(-time.Minute), at.Add(time.Minute)))
	if err != nil {
		t.Fatal(err)
	}
	var out []payments.LedgerTransaction
	for _, tx := range txs {
		if (tx.Operation == payments.OpRelease || tx.Operation == payments.OpCredit) && tx.TxnSource == payments.SrcPayment &&
			tx.Amount.Decimal().Equal(p.Originator.SourceAmount.Decimal()) && tx.CreatedDttm.Equal(at) {
			if tx.Reference() != "" {
				t.Fatalf("the document's ledger names a payment on %s: %q", tx.Operation, tx.Reference())
			}
			out = append(out, tx)
		}
	}
	if len(out) != 1 {
		t.Fatalf("%s payment %s: %d lines give its %s %s back at %s", p.PaymentState, p.PaymentID, len(out),
			p.Originator.SourceAmount, p.Originator.SourceCurrency, at)
	}
	return out[0]
}

// prefundedIn is the newest prefunded payment in state st, as the
// platform's filter finds it (a return comes days after its payment: the
// dashboard's window does not hold it; its detail looks it up).
func prefundedIn(t *testing.T, e *viewtest.Env, st payments.State) *payments.Payment {
	t.Helper()
	ps, err := e.P.Payments.AllFiltered(context.Background(), payments.Filter{PaymentStates: []payments.State{st}})
	if err != nil {
		t.Fatal(err)
	}
	var newest *payments.Payment
	for i := range ps {
		if p := &ps[i]; figures.FundingOf(p).Class == figures.Prefunded && (newest == nil || p.LastStateUpdatedAt.After(newest.LastStateUpdatedAt)) {
			newest = p
		}
	}
	if newest == nil {
		t.Fatalf("no prefunded %s payment", st)
	}
	return newest
}

// TestFundsBackOnTheDetailAndTheTicket: for a FAILED payment whose
// reserved funds were released and a RETURNED payment whose debited funds
// were credited back, the detail and the ticket say that the funds came
// back, with the amount and the time of the ledger's own line (found
// here apart, in the sandbox's ledger), and list its RESERVE and that
// line with the available balance each moved.
func TestFundsBackOnTheDetailAndTheTicket(t *testing.T) {
	e := shared.Env(t)
	for _, st := range []payments.State{payments.Failed, payments.Returned} {
		p := prefundedIn(t, e, st)
		back := givenBack(t, e, p)
		cur := back.Currency
		amount := money.Format(back.Amount.Decimal(), cur) + " " + cur
		when := viewkit.Time(back.CreatedDttm) + " UTC"
		moved := "available " + money.Format(back.AvailableBalanceBefore.Decimal(), cur) + " → " + money.Format(back.AvailableBalanceAfter.Decimal(), cur)

		v := New(e.Ctx, e.P)
		send(v, ui.Open{View: Name, Args: []string{p.PaymentID}})
		for range 6 { // the detail's reads (a lookup when not held) (the record, its states, the ledger of its dates)
			send(v, ui.StoreChanged{})
		}
		body := v.Render(160, 200)
		for _, want := range []string{"Ledger trail", "funds came back: " + amount + " at " + when, back.Operation + ", tied by amount and time",
			"RESERVE", moved + "  (tied by amount and time)"} {
			if !strings.Contains(body, want) {
				t.Errorf("%s detail lacks %q:\n%s", st, want, body)
			}
		}

		var c ui.Copy
		for _, m := range send(v, viewtest.Key("Y")) {
			if x, ok := m.(ui.Copy); ok {
				c = x
			}
		}
		stamp := back.CreatedDttm.UTC().Format("2006-01-02 15:04:05") + " UTC"
		for _, want := range []string{"Funds         funds came back: " + amount + " at " + stamp, "Ledger\n", "RESERVE",
			back.Operation, amount + "  " + moved + "  (no txnReference: tied by amount and time)"} {
			if !strings.Contains(c.Text, want) {
				t.Errorf("%s ticket lacks %q:\n%s", st, want, c.Text)
			}
		}
	}
}
