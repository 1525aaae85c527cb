package figures

import (
	"slices"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"treasury/figures/runway"
	"treasury/wire/money"
	"treasury/wire/payments"
)

var now = time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)

func pay(id string, st payments.State, payin, src, dst, sa, da string) *payments.Payment {
	return &payments.Payment{PaymentID: id, PaymentState: st, InitiatedAt: now.Add(-time.Minute),
		Originator:  payments.Originator{SourceCurrency: src, SourceAmount: money.N(money.MustParse(sa)), Payin: payin},
		Destination: payments.Destination{DestinationCurrency: dst, DestinationAmount: money.N(money.MustParse(da))}}
}

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

func sum(amount string, n int) Sum { return Sum{Amount: d(amount), Count: n} }

func sameSum(a, b Sum) bool { return a.Amount.Equal(b.Amount) && a.Count == b.Count }

// TestBuildExposure: the payments in flight are summed by the currency
// they pay out in, and by the one they are paid from as they are funded:
// the prefunded ones (PRE_FUNDING, FUNDED, or not said) draw the
// prefunded account and are said in hours of the pace that drives its
// runway; the just-in-time ones (JIT_FUNDING, JIT, AWAITING_FUNDING or a
// jitFundingExpiresAt, whatever the payin says) are owed while
// AWAITING_FUNDING (past due, first due, due within the hour), funded
// once they move on; credit (CREDIT_FUNDING, T_PLUS_ONE) apart; a payin
// this build does not know under its own name. Finished and QUOTED
// payments count for nothing.
func TestBuildExposure(t *testing.T) {
	jit := func(id string, st payments.State, payin, amt string, due time.Duration) *payments.Payment {
		p := pay(id, st, payin, "USD", "MXN", amt, "1")
		p.JITFundingExpiresAt = now.Add(due)
		return p
	}
	ps := []*payments.Payment{
		pay("a", payments.Transferring, PayinPrefunding, "USD", "MXN", "100.10", "1725.50"),
		pay("b", payments.Validating, "", "USD", "MXN", "0.20", "3.45"),
		pay("c", payments.Initiated, PayinFunded, "EUR", "GBP", "50", "43.10"),
		jit("j1", payments.AwaitingFunding, PayinJIT, "1000", 30*time.Minute),
		jit("j2", payments.AwaitingFunding, PayinJITShort, "2000.5", 3*time.Hour),
		jit("j3", payments.AwaitingFunding, PayinFunded, "40", -time.Minute), // past due: still owed
		pay("j4", payments.AwaitingFunding, "", "USD", "MXN", "7", "1"),      // no due time said
		jit("j5", payments.Transferring, PayinJITShort, "777", -time.Hour),   // funded: owed no more
		pay("k", payments.Initiated, PayinCredit, "EUR", "USD", "300", "320"),
		pay("t", payments.Initiated, PayinTPlusOne, "EUR", "USD", "1", "1.1"),
		pay("u", payments.Initiated, "NEW_FUNDING", "EUR", "USD", "5", "5.3"),
		pay("f", payments.Completed, PayinPrefunding, "USD", "MXN", "999", "17000"),
		pay("q", payments.Quoted, PayinPrefunding, "USD", "MXN", "999", "17000"),
	}
	bal := payments.Balances{Balances: []payments.Balance{
		{FundingType: "FUNDED", Currency: "USD", AvailableBalance: money.N(money.MustParse("1000")), ReservedBalance: money.N(money.MustParse("100.30"))},
		{FundingType: "FUNDED", Currency: "EUR", AvailableBalance: money.N(money.MustParse("10")), ReservedBalance: money.N(money.MustParse("50"))},
	}}
	// USD's runway is driven by the burn (15m): the hours are at that pace.
	sheet := runway.Sheet{Currencies: []runway.Currency{
		{Currency: "USD", Outflow: d("50"), Hours: d("20"), BurnKnown: true, Burn: d("200"), BurnHours: d("5")},
		{Currency: "EUR", NoOutflow: true}}}
	e := BuildExposure(slices.Values(ps), bal, sheet, now)
	var names []string
	for _, l := range e.Lines {
		names = append(names, l.Currency)
	}
	if !slices.Equal(names, []string{"USD", "EUR", "GBP", "MXN"}) {
		t.Fatalf("lines %v", names)
	}
	usd, eur, mxn := e.Lines[0], e.Lines[1], e.Lines[3]
	if !sameSum(usd.Drawn, sum("100.30", 2)) || !usd.HasBalance || !usd.Available.Equal(d("1000")) {
		t.Errorf("USD drawn %+v", usd)
	}
	if !usd.HasHours || !usd.Hours.Equal(d("0.5")) || usd.Runway.By != ByBurn {
		t.Errorf("USD drawn is %v h (has %v, by %s), want 0.5 h at the 15m pace that drives the runway", usd.Hours, usd.HasHours, usd.Runway.By)
	}
	if !sameSum(usd.Owed, sum("3047.5", 4)) || !sameSum(usd.PastDue, sum("40", 1)) || !usd.FirstDue.Equal(now.Add(30*time.Minute)) ||
		!sameSum(usd.DueSoon, sum("1000", 1)) || !sameSum(usd.Funded, sum("777", 1)) {
		t.Errorf("USD owed %+v", usd)
	}
	if !sameSum(eur.Drawn, sum("50", 1)) || eur.HasHours || !sameSum(eur.Credit, sum("301", 2)) ||
		len(eur.Others) != 1 || eur.Others[0].Name != "NEW_FUNDING" || !sameSum(eur.Other("NEW_FUNDING"), sum("5", 1)) {
		t.Errorf("EUR %+v", eur)
	}
	if !sameSum(mxn.Out, sum("1733.95", 7)) || mxn.HasBalance || mxn.HasHours {
		t.Errorf("MXN %+v", mxn)
	}
	if e.Empty() || !BuildExposure(slices.Values(ps[11:]), bal, sheet, now).Empty() {
		t.Error("Empty")
	}
	var owing []string
	for _, p := range Owing(slices.Values(ps)) {
		owing = append(owing, p.PaymentID)
	}
	if !slices.Equal(owing, []string{"j3", "j1", "j2", "j4"}) {
		t.Errorf("owing %v, want the payments awaiting funds, oldest due first", owing)
	}
}
