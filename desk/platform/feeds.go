package platform

import (
	"context"
	"time"

	"treasury/desk/live"
	"treasury/wire"
	"treasury/wire/apierr"
	"treasury/wire/custody"
	"treasury/wire/liquidity"
	"treasury/wire/payments"
	"treasury/wire/reporting"
	"treasury/wire/wallet"
)

// Windows of the time-bounded topics.
const (
	// QuoteWindow is how far back the quotes table reaches; the first
	// poll reads QuoteFirstWindow of it, the next ones the rest.
	QuoteWindow      = 30 * time.Minute
	QuoteFirstWindow = 5 * time.Minute
	// TradeWindow and LedgerWindow bound the trades and ledger tables.
	TradeWindow  = 24 * time.Hour
	LedgerWindow = 24 * time.Hour
	// TokenInterval is how often the payments token's expiry is tested.
	TokenInterval = 30 * time.Second
	// maxQuotes and maxTrades bound the records held whatever the rate.
	maxQuotes = 20_000
	maxTrades = 50_000
)

// feeds lists a feed per topic the profile's interfaces can fill.
func (p *Platform) feeds() []live.Feed {
	r := p.Config.Refresh
	var fs []live.Feed
	if c := p.Liquidity; c != nil {
		// The windows are cut on the platform's clock: a quote stamped
		// ahead of this host's clock is read and held, not left out.
		now, seen := p.platformNow(apierr.Liquidity), p.observeRecord(apierr.Liquidity)
		q := &windowFeed[liquidity.Quote]{read: c.Quotes, now: now, seen: seen, what: "quotes", interval: r.Quotes, backfill: p.backfillBudget,
			window: QuoteWindow, first: QuoteFirstWindow, max: maxQuotes,
			at: func(x liquidity.Quote) time.Time { return x.CreatedAt }, id: func(x liquidity.Quote) string { return x.QuoteID },
			expires: func(x liquidity.Quote) time.Time { return x.ExpiresAt }, status: func(x liquidity.Quote) string { return x.Status }}
		t := &windowFeed[liquidity.Trade]{read: c.Trades, now: now, seen: seen, what: "trades", interval: r.Balances, backfill: p.backfillBudget,
			window: TradeWindow, first: time.Hour, max: maxTrades,
			at: func(x liquidity.Trade) time.Time { return x.ExecutedAt }, id: func(x liquidity.Trade) string { return x.TradeID },
			status: func(x liquidity.Trade) string { return x.Status }}
		fs = append(fs,
			live.FoldFeed(live.QuotesKey, q.fetch, q.fold, live.FeedOptions[[]liquidity.Quote, []liquidity.Quote]{
				Interface: apierr.Liquidity, Interval: r.Quotes, Always: true, Samples: quoteSamples, Whole: q.whole,
				Cursor: q.cursor, Resume: q.resume}),
			live.FoldFeed(live.TradesKey, t.fetch, t.fold, live.FeedOptions[[]liquidity.Trade, []liquidity.Trade]{
				Interface: apierr.Liquidity, Interval: r.Balances, Whole: t.whole, Cursor: t.cursor, Resume: t.resume}),
			live.ListFeed(live.LiquidityBalancesKey, func(b liquidity.Balance) string { return b.Asset }, c.AllBalances,
				live.FeedOptions[[]liquidity.Balance, []liquidity.Balance]{Interface: apierr.Liquidity, Interval: r.Balances, Always: true,
					Samples: liquidityBalanceSamples, Alerts: p.lowLiquidity}))
	}
	if c := p.Payments; c != nil {
		pf := &paymentFeed{c: c, now: p.platformNow(apierr.Payments), seen: p.observeRecord(apierr.Payments), store: func() *live.Store { return p.Store }}
		lf := &ledgerFeed{c: c, now: p.platformNow(apierr.Payments), seen: p.observeRecord(apierr.Payments),
			held: func() []payments.LedgerTransaction { return live.Get(p.Store, live.LedgerKey).Data }}
		fs = append(fs,
			live.FoldFeed(live.PaymentsKey, pf.fetch, foldPayments, live.FeedOptions[paymentRead, *live.PaymentSet]{
				Interface: apierr.Payments, Interval: r.Payments, Always: true, Alerts: p.judgePayments, AsRead: heldAsRead,
				Cursor: pf.cursor, Resume: pf.resume}),
			live.ValueFeed(live.PaymentBalancesKey, c.Balances, live.FeedOptions[payments.Balances, payments.Balances]{
				Interface: apierr.Payments, Interval: r.Balances, Always: true, Samples: paymentBalanceSamples, Alerts: p.lowPayments}),
			live.ValueFeed(live.TokenExpiryKey, func(ctx context.Context) (time.Time, error) {
				t, err := c.TokenTest(ctx)
				if err != nil {
					return time.Time{}, err
				}
				// Whole seconds: an unchanged expiry is no change.
				return p.now().Add(time.Duration(t.SecondsToExpiry) * time.Second).Truncate(10 * time.Second), nil
			}, live.FeedOptions[time.Time, time.Time]{Interface: apierr.Auth, Interval: TokenInterval, Always: true, Header: true}),
			live.ListFeed(live.IdentitiesKey, func(x payments.Identity) string { return x.IdentityID }, c.Identities,
				live.FeedOptions[[]payments.Identity, []payments.Identity]{Interface: apierr.Payments, Interval: r.AddressBook}),
			live.FoldFeed(live.LedgerKey, lf.fetch, lf.fold, live.FeedOptions[[]payments.LedgerTransaction, []payments.LedgerTransaction]{
				Interface: apierr.Payments, Interval: r.Wallets,
				// The runway alerts need the ledger whoever watches.
				Always: true}))
	}
	if c := p.Reporting; c != nil {
		fs = append(fs, live.ListFeed(live.ReportsKey, func(x reporting.Report) string { return x.ID }, func(ctx context.Context) ([]reporting.Report, error) {
			l, err := c.ListRecords(ctx)
			skipped := make([]wire.Skip, len(l.Skipped))
			for i, s := range l.Skipped {
				skipped[i] = wire.Skip{Index: s.Index, ID: s.ID, Reason: s.Reason}
			}
			wire.Note(ctx, "reports", skipped)
			return l.Reports, err
		}, live.FeedOptions[[]reporting.Report, []reporting.Report]{Interface: apierr.Reporting, Interval: r.Reports}))
	}
	if c := p.Wallet; c != nil {
		fs = append(fs,
			walletList(live.VaultsKey, r.Wallets, func(x wallet.Vault) string { return x.ID }, c.Vaults),
			walletList(live.WalletsKey, r.Wallets, func(x wallet.Wallet) string { return x.ID },
				func(ctx context.Context) ([]wallet.Wallet, error) { return c.Wallets(ctx, "") }),
			walletList(live.TransactionsKey, r.Wallets, func(x wallet.Transaction) string { return x.ID },
				func(ctx context.Context) ([]wallet.Transaction, error) {
					return c.Transactions(ctx, wallet.ListFilter{})
				}),
			walletList(live.SweepsKey, r.Wallets, func(x wallet.SweepConfig) string { return x.ID }, c.Sweeps),
			walletList(live.WalletWebhooksKey, r.AddressBook, func(x wallet.Webhook) string { return x.ID }, c.Webhooks),
			walletList(live.SubscriptionsKey, r.AddressBook, func(x wallet.Subscription) string { return x.ID }, c.Subscriptions),
			walletList(live.CounterpartiesKey, r.AddressBook, func(x wallet.Counterparty) string { return x.ID }, c.Counterparties))
	}
	if c := p.Custody; c != nil {
		fs = append(fs, live.ListFeed(live.EndpointsKey, func(x custody.Endpoint) string { return x.ID }, c.Endpoints,
			live.FeedOptions[[]custody.Endpoint, []custody.Endpoint]{Interface: apierr.Custody, Interval: r.AddressBook}))
	}
	return fs
}

// walletList is a feed of a wallet-interface list.
func walletList[E any](k live.Key[[]E], iv time.Duration, id func(E) string, fetch func(ctx context.Context) ([]E, error)) live.Feed {
	return live.ListFeed(k, id, fetch, live.FeedOptions[[]E, []E]{Interface: apierr.Wallet, Interval: iv})
}
