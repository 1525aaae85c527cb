package paystats

import (
	"fmt"
	"testing"
	"time"

	"treasury/desk/live"
	"treasury/figures/runway"
	"treasury/wire/money"
	"treasury/wire/payments"
)

// benchSet is a set of n payments over a month, a failure in twelve with
// one or two errors (the two disagreeing on one in six), as a busy desk's.
func benchSet(n int, now time.Time) *live.PaymentSet {
	ps := make([]payments.Payment, n)
	codes := []payments.PaymentError{{Code: "SYS_003", Type: "SYSTEM_ERROR"}, {Code: "USR_030", Type: "USER_ERROR"},
		{Code: "USR_067", Type: "USER_ERROR"}, {Code: "CFG_002", Type: "CONFIGURATION_ERROR"}}
	for i := range ps {
		at := now.Add(-time.Duration(n-i) * 30 * 24 * time.Hour / time.Duration(n))
		p := payments.Payment{PaymentID: fmt.Sprintf("p-%07d", i), PaymentState: payments.Completed, InitiatedAt: at, LastStateUpdatedAt: at.Add(time.Minute)}
		if i%12 == 0 {
			p.PaymentState, p.Detailed = payments.Failed, true
			p.Errors = []payments.PaymentError{codes[i/12%len(codes)]}
			if i%72 == 0 {
				p.Errors = append(p.Errors, codes[3])
			}
		}
		ps[i] = p
	}
	set, _ := live.MergePayments(nil, ps, time.Time{})
	return set
}

// BenchmarkCountScopes counts the scopes of 100,000 payments over 30
// days, the retryable one (each failure's verdict) with them: what the
// scope bar costs at each change of the set.
func BenchmarkCountScopes(b *testing.B) {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	set := benchSet(100_000, now)
	var c Counts
	for b.Loop() {
		c = CountScopes(set, now.Add(-30*24*time.Hour))
	}
	if c[Retryable] == 0 || c[Failed] == 0 {
		b.Fatalf("counts %v", c)
	}
}

// BenchmarkCountGroups counts the reason groups of 100,000 payments over
// 30 days from nothing (a first build; later ones fold the changes):
// each failure grouped under the error its verdict is of.
func BenchmarkCountGroups(b *testing.B) {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	set := benchSet(100_000, now)
	var g Groups
	for b.Loop() {
		g = countGroups(set, Failed, now.Add(-30*24*time.Hour))
	}
	if len(g.List) == 0 {
		b.Fatal("no groups")
	}
}

// BenchmarkBuildExposure builds the exposure of 100,000 payments over 30
// days, a hundred of them awaiting their funds just in time: the sums per
// class and the payments owed (figures.Owing, for the funding plan and
// the owed page's totals), once per change of the set.
func BenchmarkBuildExposure(b *testing.B) {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	set := owedSet(100_000, 100, now)
	var e Exposure
	for b.Loop() {
		e = BuildExposure(set, payments.Balances{}, runway.Sheet{}, now)
	}
	if len(e.Owing) != 100 {
		b.Fatalf("%d owed", len(e.Owing))
	}
}

// owedSet is benchSet with owed of its payments awaiting funds just in
// time, due from an hour ago to an hour ahead.
func owedSet(n, owed int, now time.Time) *live.PaymentSet {
	ps := make([]payments.Payment, 0, n)
	base := benchSet(n, now)
	for i := range base.Len() {
		p := *base.At(i)
		if i >= n-owed {
			p.PaymentState, p.Errors = payments.AwaitingFunding, nil
			p.Originator = payments.Originator{SourceCurrency: "USD", SourceAmount: money.N(money.MustParse("100.00")), Payin: "JIT_FUNDING"}
			p.JITFundingExpiresAt = now.Add(time.Duration(i-n+owed/2) * time.Minute)
		}
		ps = append(ps, p)
	}
	set, _ := live.MergePayments(nil, ps, time.Time{})
	return set
}
