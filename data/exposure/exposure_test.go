package exposure

import (
	"slices"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"treasury/data/money"
	"treasury/data/payments"
	"treasury/data/runway"
)

var now = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

func pay(id string, st payments.State, payin, src, dst, sa, da string) *payments.Payment {
	return &payments.Payment{PaymentID: id, PaymentState: st, InitiatedAt: now.Add(-time.Minute),
		Originator:  payments.Originator{SourceCurrency: src, SourceAmount: money.N(money.MustParse(sa)), Payin: payin},
		Destination: payments.Destination{DestinationCurrency: dst, DestinationAmount: money.N(money.MustParse(da))}}
}

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

// TestBuild: the payments in flight are summed by the currency they pay
// out in, and by the one they are paid from as they are funded: the
// prefunded ones (PRE_FUNDING, FUNDED, or not said) draw the prefunded
// account and are said in hours of its outflow; the just-in-time ones are
// owed while AWAITING_FUNDING (first due, and due within the hour), and
// nothing once funded; the invoiced and unknown ones stand apart, named.
// Finished and QUOTED payments count for nothing.
func TestBuild(t *testing.T) {
	jit := func(id string, st payments.State, amt string, due time.Duration) *payments.Payment {
		p := pay(id, st, PayinJIT, "USD", "MXN", amt, "1")
		p.JITFundingExpiresAt = now.Add(due)
		return p
	}
	ps := []*payments.Payment{
		pay("a", payments.Transferring, PayinPrefunding, "USD", "MXN", "100.10", "1725.50"),
		pay("b", payments.Validating, "", "USD", "MXN", "0.20", "3.45"),
		pay("c", payments.Initiated, PayinFunded, "EUR", "GBP", "50", "43.10"),
		jit("j1", payments.AwaitingFunding, "1000", 30*time.Minute),
		jit("j2", payments.AwaitingFunding, "2000.5", 3*time.Hour),
		jit("j3", payments.Transferring, "777", -time.Hour), // funded: owed no more
		pay("k", payments.Initiated, PayinCredit, "EUR", "USD", "300", "320"),
		pay("u", payments.Initiated, "NEW_FUNDING", "EUR", "USD", "5", "5.3"),
		pay("f", payments.Completed, PayinPrefunding, "USD", "MXN", "999", "17000"),
		pay("q", payments.Quoted, PayinPrefunding, "USD", "MXN", "999", "17000"),
	}
	bal := payments.Balances{Balances: []payments.Balance{
		{FundingType: "PREFUNDED", Currency: "USD", AvailableBalance: money.N(money.MustParse("1000")), ReservedBalance: money.N(money.MustParse("100.30"))},
		{FundingType: "PREFUNDED", Currency: "EUR", AvailableBalance: money.N(money.MustParse("10")), ReservedBalance: money.N(money.MustParse("50"))},
	}}
	sheet := runway.Sheet{Currencies: []runway.Currency{{Currency: "USD", Outflow: d("50")}, {Currency: "EUR", NoOutflow: true}}}
	e := Build(slices.Values(ps), bal, sheet, now)
	var names []string
	for _, l := range e.Lines {
		names = append(names, l.Currency)
	}
	if !slices.Equal(names, []string{"USD", "EUR", "GBP", "MXN"}) {
		t.Fatalf("lines %v", names)
	}
	usd, eur, mxn := e.Lines[0], e.Lines[1], e.Lines[3]
	if !usd.Drawn.Equal(d("100.30")) || usd.DrawnCount != 2 || !usd.HasBalance || !usd.Available.Equal(d("1000")) {
		t.Errorf("USD drawn %+v", usd)
	}
	if !usd.HasHours || !usd.Hours.Equal(d("2")) {
		t.Errorf("USD drawn is %v h of outflow (has %v), want 2.0", usd.Hours, usd.HasHours)
	}
	if !usd.Owed.Equal(d("3000.5")) || usd.OwedCount != 2 || !usd.FirstDue.Equal(now.Add(30*time.Minute)) ||
		!usd.DueSoon.Equal(d("1000")) || usd.DueSoonCount != 1 {
		t.Errorf("USD owed %+v", usd)
	}
	if !eur.Drawn.Equal(d("50")) || eur.DrawnCount != 1 || eur.HasHours || !eur.Funded.Equal(d("305")) || eur.FundedCount != 2 ||
		!slices.Equal(eur.Payins, []string{PayinCredit, "NEW_FUNDING"}) {
		t.Errorf("EUR %+v", eur)
	}
	if !mxn.Out.Equal(d("1731.95")) || mxn.OutCount != 5 || mxn.HasBalance || mxn.HasHours {
		t.Errorf("MXN %+v", mxn)
	}
	if e.Empty() || !Build(slices.Values(ps[8:]), bal, sheet, now).Empty() {
		t.Error("Empty")
	}
}
