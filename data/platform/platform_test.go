package platform_test

import (
	"context"
	"testing"
	"time"

	"treasury/config"
	"treasury/data/custody"
	"treasury/data/liquidity"
	"treasury/data/live"
	"treasury/data/payments"
	"treasury/data/platform"
	"treasury/data/reporting"
	"treasury/data/sandbox"
	"treasury/data/sandbox/sandboxtest"
	"treasury/data/wallet"
)

// TestEveryTopicFilledFromSandbox opens a platform on the sandbox profile
// and reads each topic once: each holds the type topics.go promises, with
// records in it.
func TestEveryTopicFilledFromSandbox(t *testing.T) {
	srv, p := open(t)
	ctx := context.Background()
	check := func(topic live.Topic, n func(any) int) {
		t.Helper()
		snap := p.Store.FetchNow(ctx, topic)
		if snap.Err != nil {
			t.Fatalf("%s: %v", topic, snap.Err)
		}
		if snap.FetchedAt.IsZero() {
			t.Fatalf("%s: no fetch time", topic)
		}
		if got := n(snap.Data); got == 0 {
			t.Fatalf("%s: no records (%T)", topic, snap.Data)
		}
	}
	check(live.Quotes, func(d any) int { return len(d.([]liquidity.Quote)) })
	check(live.Trades, func(d any) int { return len(d.([]liquidity.Trade)) })
	check(live.LiquidityBalances, func(d any) int { return len(d.([]liquidity.Balance)) })
	check(live.Payments, func(d any) int { return d.(*live.PaymentSet).Len() })
	check(live.PaymentBalances, func(d any) int { return len(d.(payments.Balances).Balances) })
	check(live.TokenExpiry, func(d any) int {
		if d.(time.Time).After(srv.Clock().Now()) {
			return 1
		}
		return 0
	})
	check(live.Identities, func(d any) int { return len(d.([]payments.Identity)) })
	check(live.Ledger, func(d any) int { return len(d.([]payments.LedgerTransaction)) })
	check(live.Reports, func(d any) int { return len(d.([]reporting.Report)) })
	check(live.Vaults, func(d any) int { return len(d.([]wallet.Vault)) })
	check(live.Wallets, func(d any) int { return len(d.([]wallet.Wallet)) })
	check(live.Transactions, func(d any) int { return len(d.([]wallet.Transaction)) })
	check(live.Sweeps, func(d any) int { return len(d.([]wallet.SweepConfig)) })
	check(live.WalletWebhooks, func(d any) int { return len(d.([]wallet.Webhook)) })
	check(live.Subscriptions, func(d any) int { return len(d.([]wallet.Subscription)) })
	check(live.Counterparties, func(d any) int { return len(d.([]wallet.Counterparty)) })
	check(live.Endpoints, func(d any) int { return len(d.([]custody.Endpoint)) })

	if h := p.Store.Series(live.SeriesRate); len(h) == 0 {
		t.Fatal("no rate series after a quotes fetch")
	}
	for _, hl := range p.Store.Health() {
		if hl.LastError != nil {
			t.Fatalf("%s unhealthy: %v", hl.Interface, hl.LastError)
		}
	}
}

// TestPaymentsFollowStateChanges: a payment held in flight reaches its
// final state through the poll even when it no longer matches the
// in-flight filter.
func TestPaymentsFollowStateChanges(t *testing.T) {
	srv, p := open(t)
	ctx := context.Background()
	srv.AdvanceClock(10 * time.Minute) // live traffic starts payments
	ps := p.Store.FetchNow(ctx, live.Payments).Data.(*live.PaymentSet)
	var inflight []string
	for i := range ps.Len() {
		if ps.At(i).PaymentState.InFlight() {
			inflight = append(inflight, ps.At(i).PaymentID)
		}
	}
	if len(inflight) == 0 {
		t.Fatal("the sandbox world has no payment in flight")
	}
	srv.AdvanceClock(6 * time.Hour)
	ps = p.Store.FetchNow(ctx, live.Payments).Data.(*live.PaymentSet)
	moved := 0
	for _, id := range inflight {
		got, ok := ps.Get(id)
		if !ok {
			t.Fatalf("payment %s dropped", id)
		}
		want, err := p.Payments.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if got.PaymentState != want.PaymentState {
			t.Fatalf("payment %s held as %s, the platform says %s", id, got.PaymentState, want.PaymentState)
		}
		if !got.PaymentState.InFlight() {
			moved++
		}
	}
	if moved == 0 {
		t.Fatal("no payment left flight in 6 hours: the test proves nothing")
	}
}

// TestQuotesBackfill: the first poll reads the last minutes only; the
// second holds the whole window, without duplicates, newest first, and the
// rate chart reaches back over the whole window.
func TestQuotesBackfill(t *testing.T) {
	srv, p := open(t)
	ctx := context.Background()
	now := srv.Clock().Now()
	first := p.Store.FetchNow(ctx, live.Quotes).Data.([]liquidity.Quote)
	if oldest := first[len(first)-1].CreatedAt; oldest.Before(now.Add(-platform.QuoteFirstWindow)) {
		t.Fatalf("first poll reaches back to %v", oldest)
	}
	srv.AdvanceClock(3 * time.Second)
	all := p.Store.FetchNow(ctx, live.Quotes).Data.([]liquidity.Quote)
	if oldest := all[len(all)-1].CreatedAt; oldest.After(now.Add(-platform.QuoteWindow + time.Minute)) {
		t.Fatalf("after the backfill the quotes reach back to %v only", oldest)
	}
	seen := map[string]bool{}
	for i, q := range all {
		if seen[q.QuoteID] {
			t.Fatalf("quote %s held twice", q.QuoteID)
		}
		seen[q.QuoteID] = true
		if i > 0 && q.CreatedAt.After(all[i-1].CreatedAt) {
			t.Fatal("quotes not newest first")
		}
	}
	pair := all[0].Pair()
	h := p.Store.History(live.SeriesRate + pair)
	if len(h) == 0 || h[0].At.After(now.Add(-platform.QuoteWindow+time.Minute)) {
		t.Fatalf("rate history of %s starts at %v", pair, h[0].At)
	}
}

// open starts a frozen sandbox and a platform on its profile and clock,
// not polling: tests fetch what they need.
func open(t *testing.T) (*sandbox.Server, *platform.Platform) {
	t.Helper()
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	p, err := platform.Open(srv.Profile(config.Builtin()), platform.Options{Now: srv.Clock().Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return srv, p
}
