package platform_test

import (
	"context"
	"testing"
	"time"

	"treasury/config"
	"treasury/desk/live"
	"treasury/desk/platform"
	"treasury/process/sandboxprofile"
	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
	"treasury/wire/apierr"
	"treasury/wire/payments"
	"treasury/wire/webhook"
)

// TestEveryTopicFilledFromSandbox opens a platform on the sandbox profile
// and reads each topic once: each holds the type topics.go promises, with
// records in it.
func TestEveryTopicFilledFromSandbox(t *testing.T) {
	srv, p := open(t)
	ctx := context.Background()
	check := func(topic live.Topic, n func() int) {
		t.Helper()
		snap := p.Store.FetchNow(ctx, topic)
		if snap.Err != nil {
			t.Fatalf("%s: %v", topic, snap.Err)
		}
		if snap.FetchedAt.IsZero() {
			t.Fatalf("%s: no fetch time", topic)
		}
		if got := n(); got == 0 {
			t.Fatalf("%s: no records", topic)
		}
	}
	check(live.Quotes, func() int { return len(live.Get(p.Store, live.QuotesKey).Data) })
	check(live.Trades, func() int { return len(live.Get(p.Store, live.TradesKey).Data) })
	check(live.LiquidityBalances, func() int { return len(live.Get(p.Store, live.LiquidityBalancesKey).Data) })
	check(live.Payments, func() int { return live.Get(p.Store, live.PaymentsKey).Data.Len() })
	check(live.PaymentBalances, func() int { return len(live.Get(p.Store, live.PaymentBalancesKey).Data.Balances) })
	check(live.TokenExpiry, func() int {
		if live.Get(p.Store, live.TokenExpiryKey).Data.After(srv.Clock().Now()) {
			return 1
		}
		return 0
	})
	check(live.Identities, func() int { return len(live.Get(p.Store, live.IdentitiesKey).Data) })
	check(live.Ledger, func() int { return len(live.Get(p.Store, live.LedgerKey).Data) })
	check(live.Reports, func() int { return len(live.Get(p.Store, live.ReportsKey).Data) })
	check(live.Vaults, func() int { return len(live.Get(p.Store, live.VaultsKey).Data) })
	check(live.Wallets, func() int { return len(live.Get(p.Store, live.WalletsKey).Data) })
	check(live.Transactions, func() int { return len(live.Get(p.Store, live.TransactionsKey).Data) })
	check(live.Sweeps, func() int { return len(live.Get(p.Store, live.SweepsKey).Data) })
	check(live.WalletWebhooks, func() int { return len(live.Get(p.Store, live.WalletWebhooksKey).Data) })
	check(live.Subscriptions, func() int { return len(live.Get(p.Store, live.SubscriptionsKey).Data) })
	check(live.Counterparties, func() int { return len(live.Get(p.Store, live.CounterpartiesKey).Data) })
	check(live.Endpoints, func() int { return len(live.Get(p.Store, live.EndpointsKey).Data) })

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
// in-flight filter, from the document's face and from the spec's.
func TestPaymentsFollowStateChanges(t *testing.T) {
	for _, opts := range []sandbox.Options{sandboxtest.Options(), sandboxtest.VariantOptions()} {
		t.Run(map[bool]string{false: "document", true: "variant"}[opts.Variant], func(t *testing.T) {
			testPaymentsFollowStateChanges(t, opts)
		})
	}
}

// heldAfterTraffic opens a platform on a sandbox of opts, lets ten
// minutes of live traffic start payments, and returns the ids of the
// payments held whose state is one of those of keep. The traffic is 2
// payments a minute, a sixth of the default: the tests then jump hours,
// and read every payment those hours started.
func heldAfterTraffic(t *testing.T, opts sandbox.Options, keep func(payments.State) bool) (*sandbox.Server, *platform.Platform, []string) {
	t.Helper()
	opts.LivePaymentsPerMinute = 2
	srv, p := openOn(t, opts)
	srv.AdvanceClock(10 * time.Minute) // live traffic starts payments
	ps := fetched(p, live.PaymentsKey)
	var ids []string
	for i := range ps.Len() {
		if keep(ps.At(i).PaymentState) {
			ids = append(ids, ps.At(i).PaymentID)
		}
	}
	if len(ids) == 0 {
		t.Fatal("the sandbox world has no payment in flight")
	}
	return srv, p, ids
}

func testPaymentsFollowStateChanges(t *testing.T, opts sandbox.Options) {
	srv, p, inflight := heldAfterTraffic(t, opts, payments.State.InFlight)
	ctx := context.Background()
	srv.AdvanceClock(6 * time.Hour)
	ps := fetched(p, live.PaymentsKey)
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

// TestPaymentsThePlatformForgotLeave: a payment held in flight that
// settled and was then pruned by the platform between two polls (a world
// that keeps an hour) is asked for by id at the next full read, not
// returned, and leaves the set: it is not shown in flight for ever (at 240x, a soak held 2,000
// more payments than the platform had after an hour, and asked for each
// by id at every poll).
func TestPaymentsThePlatformForgotLeave(t *testing.T) {
	for _, opts := range []sandbox.Options{sandboxtest.Options(), sandboxtest.VariantOptions()} {
		t.Run(map[bool]string{false: "document", true: "variant"}[opts.Variant], func(t *testing.T) {
			opts.Retain = time.Hour
			srv, p, inflight := heldAfterTraffic(t, opts, payments.State.Unfinished)
			ctx := context.Background()
			srv.AdvanceClock(3 * time.Hour) // most settle, and an hour later are pruned
			// A poll that reads what changed since the last one cannot
			// see what the platform forgot; the full read (at least every
			// FullEvery polls) asks for it by id.
			var ps *live.PaymentSet
			for range platform.FullEvery {
				ps = fetched(p, live.PaymentsKey)
			}
			forgot := 0
			for _, id := range inflight {
				want, err := p.Payments.Get(ctx, id)
				got, held := ps.Get(id)
				switch {
				case err != nil:
					forgot++
					if held {
						t.Fatalf("payment %s held as %s, the platform no longer returns it (%v)", id, got.PaymentState, err)
					}
				case !held && want.PaymentState.Unfinished():
					t.Fatalf("payment %s in flight on the platform (%s) was dropped", id, want.PaymentState)
				case held && got.PaymentState != want.PaymentState:
					t.Fatalf("payment %s held as %s, the platform says %s", id, got.PaymentState, want.PaymentState)
				}
			}
			if forgot == 0 {
				t.Fatalf("none of the %d payments in flight was pruned: the test proves nothing", len(inflight))
			}
		})
	}
}

// TestFailureReasonsReadAsNeeded: a failure's reason is read by id only
// where the list records lack it and someone needs it. Against the
// document's face (the filter's records carry no reason) a week held
// reads the failures of the last hour (the alerts need them), not the
// week's, and a failure a session shows is read when asked, once; against
// a face whose list records carry the errors, every failure is counted by
// its code and nothing is read by id. Reads are counted at the platform.
func TestFailureReasonsReadAsNeeded(t *testing.T) {
	for _, opts := range []sandbox.Options{sandboxtest.Options(), sandboxtest.VariantOptions()} {
		t.Run(map[bool]string{false: "document", true: "variant"}[opts.Variant], func(t *testing.T) {
			srv, p := openOn(t, opts)
			srv.AdvanceClock(2 * time.Hour) // failures in the last hour, and before
			sub := p.Store.Subscribe()
			defer sub.Close()
			sub.Watch(live.Window(live.Payments, 7*24*time.Hour))
			p.Store.FetchNow(context.Background(), live.Payments)
			p.Store.FetchNow(context.Background(), live.Payments)
			p.Store.Sync()
			now := p.Store.PlatformNow(apierr.Payments)
			ps := live.Get(p.Store, live.PaymentsKey).Data
			var recent, older int
			var unread []string
			for i := range ps.Len() {
				x := ps.At(i)
				if !x.PaymentState.FailedTerminal() {
					continue
				}
				hasReason := len(x.Errors) > 0 && x.Errors[0].Code != ""
				switch {
				case opts.Variant && !hasReason:
					t.Fatalf("%s %s held without the reason its list record carries", x.PaymentState, x.PaymentID)
				case x.LastStateUpdatedAt.After(now.Add(-platform.FailureWindow)):
					recent++
					if !hasReason {
						t.Fatalf("%s %s of the last hour held without its reason: the alerts need it", x.PaymentState, x.PaymentID)
					}
				default:
					older++
					if !hasReason {
						unread = append(unread, x.PaymentID)
					}
				}
			}
			byID := srv.Stats().PaymentsByID
			if opts.Variant {
				if byID != 0 {
					t.Fatalf("%d reads by id though the list records carry the reasons", byID)
				}
				return
			}
			if recent == 0 || older < 3 || len(unread) != older || int(byID) != recent {
				t.Fatalf("%d failures in the last hour, %d before (%d unread); %d reads by id, want one per failure of the hour",
					recent, older, len(unread), byID)
			}
			for range 5 { // five sessions show the same three
				p.Store.WantDetails(unread[:3])
			}
			p.Store.Sync()
			if n := srv.Stats().PaymentsByID - byID; n != 3 {
				t.Fatalf("%d reads by id for three payments shown", n)
			}
			for _, id := range unread[:3] {
				if x, _ := live.Get(p.Store, live.PaymentsKey).Data.Get(id); len(x.Errors) == 0 || !x.Detailed {
					t.Fatalf("%s shown and read, held without its reason", id)
				}
			}
		})
	}
}

// TestQuotesBackfill: the first poll reads the last minutes only; the
// second holds the whole window, without duplicates, newest first, and the
// rate chart reaches back over the whole window.
func TestQuotesBackfill(t *testing.T) {
	srv, p := open(t)
	now := srv.Clock().Now()
	first := fetched(p, live.QuotesKey)
	if oldest := first[len(first)-1].CreatedAt; oldest.Before(now.Add(-platform.QuoteFirstWindow)) {
		t.Fatalf("first poll reaches back to %v", oldest)
	}
	srv.AdvanceClock(3 * time.Second)
	all := fetched(p, live.QuotesKey)
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
	return openOn(t, sandboxtest.Options())
}

// openOn opens a platform on a sandbox of opts.
func openOn(t *testing.T, opts sandbox.Options) (*sandbox.Server, *platform.Platform) {
	t.Helper()
	srv := sandboxtest.Listen(t, opts)
	p, err := platform.Open(sandboxprofile.Of(srv, config.Builtin()), platform.Options{Now: srv.Clock().Now, BackfillBudget: time.Minute,
		Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }}) // retries do not wait
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return srv, p
}

// fetched fetches a topic now and returns its data.
func fetched[T any](p *platform.Platform, k live.Key[T]) T {
	p.Store.FetchNow(context.Background(), k.Topic())
	return live.Get(p.Store, k).Data
}

// TestPaymentWindowFollowsTheViews: a view that asks for the payments of
// the last 7 days makes the feed read the days it did not hold (not the
// whole history); when no view asks any more, the finished payments older
// than the default window leave the set.
func TestPaymentWindowFollowsTheViews(t *testing.T) {
	srv, p := open(t)
	now := srv.Clock().Now()
	oldest := func() time.Time {
		ps := live.Get(p.Store, live.PaymentsKey).Data
		o := now
		for i := range ps.Len() {
			if at := ps.At(i).InitiatedAt; at.Before(o) && !ps.At(i).PaymentState.Unfinished() {
				o = at
			}
		}
		return o
	}
	fetched(p, live.PaymentsKey)
	if o := oldest(); o.Before(now.Add(-platform.PaymentWindow - time.Hour)) {
		t.Fatalf("the default window reaches back to %v", o)
	}
	sub := p.Store.Subscribe()
	sub.Watch(live.Window(live.Payments, 7*24*time.Hour))
	if p.Store.Need(live.Payments) != 7*24*time.Hour {
		t.Fatal("the need is not known")
	}
	fetched(p, live.PaymentsKey)
	o := oldest()
	if o.After(now.Add(-6*24*time.Hour)) || o.Before(now.Add(-7*24*time.Hour-2*time.Minute)) {
		t.Fatalf("with a 7-day view the set reaches back to %v (now %v)", o, now)
	}
	sub.Close()
	srv.AdvanceClock(time.Minute)
	fetched(p, live.PaymentsKey)
	// A finished payment stays while it changed within the window: one
	// initiated before it may have finished in it (a just-in-time payment
	// whose funds never came is declined more than two hours on).
	lastChange := func() time.Time {
		ps := live.Get(p.Store, live.PaymentsKey).Data
		o := now
		for i := range ps.Len() {
			if x := ps.At(i); x.InitiatedAt.Before(now.Add(-platform.PaymentWindow)) && !x.PaymentState.Unfinished() && x.LastStateUpdatedAt.Before(o) {
				o = x.LastStateUpdatedAt
			}
		}
		return o
	}
	if o := lastChange(); o.Before(now.Add(-platform.PaymentWindow - time.Hour)) {
		t.Fatalf("after the 7-day view closed the set still holds a payment finished at %v", o)
	}
}

// TestNotifiedPaymentReadByIDWhenShown: a notification about a payment
// the store does not hold yet makes it held as partial, left for the next
// poll while nobody shows it; shown, it is read by id at once (GET
// /v3/payments/{id}): the fields the notification does not carry are then
// known.
func TestNotifiedPaymentReadByIDWhenShown(t *testing.T) {
	srv, p := open(t)
	ctx := context.Background()
	srv.AdvanceClock(10 * time.Minute)
	all, err := p.Payments.AllFiltered(ctx, payments.Filter{})
	if err != nil || len(all) == 0 {
		t.Fatalf("no payment to be notified about: %v", err)
	}
	want := all[0]
	sub := p.Store.Subscribe()
	defer sub.Close()
	sub.Watch(live.Payments)
	p.Store.ApplyPaymentEvent(webhook.Event{ID: "evt-1", EventType: "PAYMENT_STATE_TRANSITION", CreateDate: want.LastStateUpdatedAt,
		EventData: webhook.EventData{PaymentID: want.PaymentID, PaymentState: want.PaymentState, CreatedAt: want.InitiatedAt,
			SourceCurrency: want.Originator.SourceCurrency, SourceAmount: want.Originator.SourceAmount,
			DestinationCurrency: want.Destination.DestinationCurrency, PayoutAmount: want.Destination.DestinationAmount}})
	p.Store.Sync()
	if n := srv.Stats().PaymentsByID; n != 0 {
		t.Fatalf("%d reads by id with nobody showing the payment", n)
	}
	p.Store.WantDetails([]string{want.PaymentID}) // a session shows it
	deadline := time.After(10 * time.Second)
	for {
		got, ok := live.Get(p.Store, live.PaymentsKey).Data.Get(want.PaymentID)
		if !ok {
			t.Fatal("the notified payment is not held")
		}
		if !got.Partial {
			if got.InternalID() != want.InternalID() || got.Destination.BeneficiaryIdentityID != want.Destination.BeneficiaryIdentityID || got.InternalID() == "" {
				t.Fatalf("completed record %+v, want the platform's %+v", got, want)
			}
			return
		}
		select {
		case <-sub.C():
		case <-deadline:
			t.Fatal("the partial payment was not read by id: it waits for the next poll")
		}
	}
}
