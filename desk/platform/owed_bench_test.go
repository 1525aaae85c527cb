package platform

import (
	"fmt"
	"testing"
	"time"

	"treasury/desk/live"
	"treasury/wire/money"
	"treasury/wire/payments"
)

// BenchmarkOwedAlerts judges the payments owed just in time of a set of
// 100,000 payments, a hundred of them awaiting their funds (half past
// due): what each poll of the payments adds to the feed's alerts.
func BenchmarkOwedAlerts(b *testing.B) {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	ps := make([]payments.Payment, 100_000)
	for i := range ps {
		at := now.Add(-time.Duration(len(ps)-i) * time.Minute / 4)
		p := payments.Payment{PaymentID: fmt.Sprintf("p-%07d", i), PaymentState: payments.Completed, InitiatedAt: at, LastStateUpdatedAt: at}
		if i >= len(ps)-100 {
			p.PaymentState = payments.AwaitingFunding
			p.Originator = payments.Originator{SourceCurrency: "USD", SourceAmount: money.N(money.MustParse("100.00")), Payin: "JIT"}
			p.JITFundingExpiresAt = now.Add(time.Duration(i-len(ps)+50) * time.Minute)
		}
		ps[i] = p
	}
	set, _ := live.MergePayments(nil, ps, time.Time{})
	var out []live.Alert
	for b.Loop() {
		out = owedAlerts(set, now)
	}
	if len(out) != 100 {
		b.Fatalf("%d alerts", len(out))
	}
}
