package paystats

import (
	"slices"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"treasury/desk/live"
	"treasury/figures/runway"
	"treasury/wire/money"
	"treasury/wire/payments"
)

// TestExposureItems: the texts every view shows of the exposure: what is
// paid out, drawn from the prefunded account against its available
// balance (the name and figure of the Balances view), owed just in time
// (a payin JIT as the document's server sends it, one past its due time)
// with the next due time and what is due within the hour, credit, and a
// payin this build does not know under its own name.
func TestExposureItems(t *testing.T) {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	pay := func(id string, st payments.State, payin, sa string) payments.Payment {
		return payments.Payment{PaymentID: id, PaymentState: st, InitiatedAt: now.Add(-time.Minute), LastStateUpdatedAt: now.Add(-time.Minute),
			Originator:  payments.Originator{SourceCurrency: "USD", SourceAmount: money.N(money.MustParse(sa)), Payin: payin},
			Destination: payments.Destination{DestinationCurrency: "MXN", DestinationAmount: money.N(money.MustParse("10"))}}
	}
	jit := pay("j", payments.AwaitingFunding, "JIT", "332666.71")
	jit.JITFundingExpiresAt = now.Add(5*time.Minute + 30*time.Second)
	late := pay("l", payments.AwaitingFunding, "JIT_FUNDING", "10")
	late.JITFundingExpiresAt = now.Add(-time.Minute)
	st := live.New(live.Options{Inline: true, Now: func() time.Time { return now }})
	st.PutPayments([]payments.Payment{pay("a", payments.Transferring, "PRE_FUNDING", "9201.57"), jit, late,
		pay("c", payments.Validating, "CREDIT_FUNDING", "5"), pay("x", payments.Initiated, "BARTER", "1")})
	bal := payments.Balances{Balances: []payments.Balance{
		{FundingType: "FUNDED", Currency: "USD", AvailableBalance: money.N(money.MustParse("1809411.27")), ReservedBalance: money.N(money.MustParse("9201.57"))},
	}}
	sheet := runway.Sheet{Currencies: []runway.Currency{{Currency: "USD", Outflow: decimal.RequireFromString("13145.10")}}}
	it := BuildExposure(live.Get(st, live.PaymentsKey).Data, bal, sheet, now).Items()
	want := Items{
		Out:    []string{"MXN 50.00 (5)"},
		Drawn:  []string{"USD 9,201.57 (1) of available 1,809,411.27, 0.7 h"},
		Owed:   []string{"USD 332,676.71 (2, 1 past due)", "first due 12:05 UTC (USD)", "due within the hour: USD 332,666.71 (1)"},
		Credit: []string{"USD 5.00 (1) credit"},
		Other:  []string{"USD 1.00 (1) payin BARTER"},
	}
	if !slices.Equal(it.Out, want.Out) || !slices.Equal(it.Drawn, want.Drawn) || !slices.Equal(it.Owed, want.Owed) ||
		!slices.Equal(it.Credit, want.Credit) || !slices.Equal(it.Other, want.Other) || len(it.Funded) != 0 {
		t.Errorf("items\n%q\nwant\n%q", it, want)
	}
	var labels []string
	for _, g := range it.Groups() {
		labels = append(labels, g.Label)
	}
	if !slices.Equal(labels, []string{"out", "from", "owed", "else"}) {
		t.Errorf("groups %v", labels)
	}
}
