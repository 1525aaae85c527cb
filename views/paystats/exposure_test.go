package paystats

import (
	"slices"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"treasury/data/live"
	"treasury/data/money"
	"treasury/data/payments"
	"treasury/data/runway"
)

// TestExposure: the payments in flight are summed by the currency they
// pay out in and the one they are paid from, exactly; finished and QUOTED
// ones are not; the prefunded balances stand beside them and the amount
// in flight is said in hours of the runway's outflow.
func TestExposure(t *testing.T) {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	pay := func(id string, st payments.State, src, dst string, sa, da string) payments.Payment {
		return payments.Payment{PaymentID: id, PaymentState: st, InitiatedAt: now.Add(-time.Minute), LastStateUpdatedAt: now.Add(-time.Minute),
			Originator:  payments.Originator{SourceCurrency: src, SourceAmount: money.N(money.MustParse(sa))},
			Destination: payments.Destination{DestinationCurrency: dst, DestinationAmount: money.N(money.MustParse(da))}}
	}
	st := live.New(live.Options{Inline: true, Now: func() time.Time { return now }})
	st.PutPayments([]payments.Payment{
		pay("a", payments.Transferring, "USD", "MXN", "100.10", "1725.50"),
		pay("b", payments.Validating, "USD", "MXN", "0.20", "3.45"),
		pay("c", payments.Initiated, "EUR", "GBP", "50", "43.10"),
		pay("d", payments.Completed, "USD", "MXN", "999", "17000"),
		pay("e", payments.Quoted, "USD", "MXN", "999", "17000"),
	})
	ps := live.Get(st, live.PaymentsKey).Data
	bal := payments.Balances{Balances: []payments.Balance{
		{FundingType: "PREFUNDED", Currency: "USD", AvailableBalance: money.N(money.MustParse("1000")), ReservedBalance: money.N(money.MustParse("100.30"))},
		{FundingType: "PREFUNDED", Currency: "EUR", AvailableBalance: money.N(money.MustParse("10")), ReservedBalance: money.N(money.MustParse("50"))},
	}}
	sheet := runway.Sheet{Currencies: []runway.Currency{{Currency: "USD", Outflow: decimal.RequireFromString("50")}, {Currency: "EUR", NoOutflow: true}}}
	e := BuildExposure(ps, bal, sheet)
	want := []string{"USD", "EUR", "GBP", "MXN"}
	if len(e.Lines) != len(want) {
		t.Fatalf("lines %+v", e.Lines)
	}
	for i, c := range want {
		if e.Lines[i].Currency != c {
			t.Fatalf("line %d is %s, want %s", i, e.Lines[i].Currency, c)
		}
	}
	usd, mxn := e.Lines[0], e.Lines[3]
	if !usd.In.Equal(decimal.RequireFromString("100.30")) || usd.InCount != 2 || !usd.Prefunded || !usd.Reserved.Equal(decimal.RequireFromString("100.30")) {
		t.Errorf("USD %+v", usd)
	}
	if !usd.HasHours || !usd.InHours.Equal(decimal.RequireFromString("2")) {
		t.Errorf("USD in flight is %v h of outflow (has %v), want 2", usd.InHours, usd.HasHours)
	}
	if !mxn.Out.Equal(decimal.RequireFromString("1728.95")) || mxn.OutCount != 2 || mxn.Prefunded || mxn.HasHours {
		t.Errorf("MXN %+v", mxn)
	}
	if eur := e.Lines[1]; eur.HasHours || eur.InCount != 1 {
		t.Errorf("EUR without outflow: %+v", eur)
	}
	outs, froms := e.Items()
	if !slices.Contains(outs, "MXN 1,728.95 (2)") || !slices.Contains(froms, "USD 100.30 of 1,100.30 = 2.0 h of outflow") {
		t.Errorf("items %q / %q", outs, froms)
	}
}
