package platform

import (
	"context"
	"time"

	"treasury/data/apierr"
	"treasury/data/liquidity"
	"treasury/data/live"
	"treasury/data/wallet"
	"treasury/data/wire"
)

// Windows of the time-bounded topics.
const (
	// QuoteWindow is how far back the quotes table reaches.
	QuoteWindow = 30 * time.Minute
	// TradeWindow and LedgerWindow bound the trades and ledger tables.
	TradeWindow  = 24 * time.Hour
	LedgerWindow = 24 * time.Hour
	// TokenInterval is how often the payments token's expiry is tested.
	TokenInterval = 30 * time.Second
)

// feeds lists a feed per topic the profile's interfaces can fill.
func (p *Platform) feeds() []live.Feed {
	r := p.Config.Refresh
	var fs []live.Feed
	if c := p.Liquidity; c != nil {
		q := &quoteFeed{c: c, now: p.now, window: QuoteWindow}
		fs = append(fs,
			live.Feed{Topic: live.Quotes, Interface: apierr.Liquidity, Interval: r.Quotes, Always: true,
				Fetch: q.fetch, Reduce: q.reduce, Samples: quoteSamples},
			live.Feed{Topic: live.Trades, Interface: apierr.Liquidity, Interval: r.Balances,
				Fetch: func(ctx context.Context) (any, error) {
					return c.AllTrades(ctx, liquidity.Last(TradeWindow, p.now()))
				}},
			live.Feed{Topic: live.LiquidityBalances, Interface: apierr.Liquidity, Interval: r.Balances, Always: true,
				Fetch: func(ctx context.Context) (any, error) {
					return c.AllBalances(ctx)
				},
				Samples: liquidityBalanceSamples, Alerts: p.lowLiquidity})
	}
	if c := p.Payments; c != nil {
		pf := &paymentFeed{c: c, now: p.now, store: func() *live.Store { return p.Store }}
		fs = append(fs,
			live.Feed{Topic: live.Payments, Interface: apierr.Payments, Interval: r.Payments, Always: true,
				Fetch: pf.fetch, Reduce: live.ReducePayments, Samples: p.stateCountSamples, Alerts: paymentAlerts},
			live.Feed{Topic: live.PaymentBalances, Interface: apierr.Payments, Interval: r.Balances, Always: true,
				Fetch:   func(ctx context.Context) (any, error) { return c.Balances(ctx) },
				Samples: paymentBalanceSamples, Alerts: p.lowPayments},
			live.Feed{Topic: live.TokenExpiry, Interface: apierr.Auth, Interval: TokenInterval, Always: true,
				Fetch: func(ctx context.Context) (any, error) {
					t, err := c.TokenTest(ctx)
					if err != nil {
						return nil, err
					}
					return p.now().Add(time.Duration(t.SecondsToExpiry) * time.Second), nil
				}},
			live.Feed{Topic: live.Identities, Interface: apierr.Payments, Interval: r.AddressBook,
				Fetch: func(ctx context.Context) (any, error) { return c.Identities(ctx) }},
			live.Feed{Topic: live.Ledger, Interface: apierr.Payments, Interval: r.Wallets,
				Fetch: func(ctx context.Context) (any, error) {
					now := p.now()
					return newestLedgerFirst(c.Ledger(ctx, now.Add(-LedgerWindow), now))
				}})
	}
	if c := p.Reporting; c != nil {
		fs = append(fs, live.Feed{Topic: live.Reports, Interface: apierr.Reporting, Interval: r.Reports,
			Fetch: func(ctx context.Context) (any, error) {
				l, err := c.ListRecords(ctx)
				skipped := make([]wire.Skip, len(l.Skipped))
				for i, s := range l.Skipped {
					skipped[i] = wire.Skip{Index: s.Index, ID: s.ID, Reason: s.Reason}
				}
				wire.Note(ctx, "reports", skipped)
				return l.Reports, err
			}})
	}
	if c := p.Wallet; c != nil {
		w := func(t live.Topic, iv time.Duration, f func(ctx context.Context) (any, error)) live.Feed {
			return live.Feed{Topic: t, Interface: apierr.Wallet, Interval: iv, Fetch: f}
		}
		fs = append(fs,
			w(live.Vaults, r.Wallets, func(ctx context.Context) (any, error) { return c.Vaults(ctx) }),
			w(live.Wallets, r.Wallets, func(ctx context.Context) (any, error) { return c.Wallets(ctx, "") }),
			w(live.Transactions, r.Wallets, func(ctx context.Context) (any, error) {
				return c.Transactions(ctx, wallet.ListFilter{})
			}),
			w(live.Sweeps, r.Wallets, func(ctx context.Context) (any, error) { return c.Sweeps(ctx) }),
			w(live.WalletWebhooks, r.AddressBook, func(ctx context.Context) (any, error) { return c.Webhooks(ctx) }),
			w(live.Subscriptions, r.AddressBook, func(ctx context.Context) (any, error) { return c.Subscriptions(ctx) }),
			w(live.Counterparties, r.AddressBook, func(ctx context.Context) (any, error) { return c.Counterparties(ctx) }))
	}
	if c := p.Custody; c != nil {
		fs = append(fs, live.Feed{Topic: live.Endpoints, Interface: apierr.Custody, Interval: r.AddressBook,
			Fetch: func(ctx context.Context) (any, error) { return c.Endpoints(ctx) }})
	}
	return fs
}
