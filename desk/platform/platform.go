// Package platform builds, from one resolved configuration profile, the
// clients of the five interfaces (each on the shared transport, its token
// source and the request log) and the live store with its feeds: what to
// poll, how often, how to fold, chart and alert on it. It is the one place
// that knows which client fills which live topic; main and the SSH server
// open a Platform, views receive its store and clients.
package platform

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"path/filepath"
	"sync/atomic"
	"time"

	"treasury/config"
	"treasury/desk/history"
	"treasury/desk/live"
	"treasury/desk/metrics"
	"treasury/figures/runway"
	"treasury/wire/apierr"
	"treasury/wire/auth"
	"treasury/wire/custody"
	custodyclient "treasury/wire/custody/client"
	liquidityclient "treasury/wire/liquidity/client"
	payclient "treasury/wire/payments/client"
	reportingclient "treasury/wire/reporting/client"
	"treasury/wire/transport"
	walletclient "treasury/wire/wallet/client"
)

// Options tune Open.
type Options struct {
	// Now is the clock of the store, the token caches and the windows; nil
	// means time.Now. The embedded sandbox passes its own clock.
	Now func() time.Time
	// ClockRate is how fast Now runs against real time (the embedded
	// sandbox's speed; nil means 1): ages and staleness are on Now's clock.
	ClockRate func() float64
	// Log receives one record per request; nil logs nothing.
	Log *slog.Logger
	// HTTP sends every request; nil means a default client.
	HTTP *http.Client
	// Sleep replaces the retry waits (tests); nil waits for real.
	Sleep func(ctx context.Context, d time.Duration) error
	// UserAgent is sent with every request.
	UserAgent string
	// Inline builds the store's derivations in the goroutine that changes
	// their source (live.Options.Inline): deterministic, for tests.
	Inline bool
	// StateDir is where what the payments server was learnt to take is
	// remembered for the profile (payments-dialect.json); "" remembers
	// nothing.
	StateDir string
	// BackfillBudget bounds the backfill of a window in one poll, in
	// wall-clock time; zero means half the window's poll interval. Tests
	// that read whole windows in one poll, whatever the machine's load,
	// give it a minute.
	BackfillBudget time.Duration
	// HistoryDir is where the profile's chart history is kept across
	// restarts (desk/history); "" keeps none. History is the file's
	// retention and size bound.
	HistoryDir string
	History    history.Options
	// Metrics is told every request, retry and token asked (nil: none
	// kept).
	Metrics *metrics.Metrics
}

// Platform is the clients of one profile and the live store they feed. An
// interface the profile does not configure has a nil client and no feeds.
type Platform struct {
	Config    *config.Config
	Liquidity *liquidityclient.Client
	Payments  *payclient.Client
	Reporting *reportingclient.Client
	// Wallet reads with the profile's monitoring credential. When
	// configured, WalletControls reads policies and limits (CONTROLS with
	// policy:* and keylimit:*) and WalletTransactions freezes, unfreezes
	// and triggers sweeps (TRANSACTIONS).
	Wallet             *walletclient.Client
	WalletControls     *walletclient.Client
	WalletTransactions *walletclient.Client
	Custody            *custodyclient.Client
	// CustodyCanSign says whether the profile has a signing key for intents.
	CustodyCanSign bool
	Store          *live.Store
	// Runway is the runway of the prefunded balances at their weighted
	// net outflow (the zero key when the profile has no payments).
	Runway live.Key[runway.Sheet]
	// Reads are the one-off reads pages ask for (reads.go).
	Reads Reads

	paymentsToken *auth.Cached
	now           func() time.Time
	// backfillBudget is Options.BackfillBudget.
	backfillBudget time.Duration
	// alerts are the alert settings in effect (Alerts, SetAlerts),
	// shared by every copy of the Platform.
	alerts *atomic.Pointer[config.Alerts]
	stop   context.CancelFunc // ends what Start started besides the store
	// rate, log, historyDir and historyOpts are Options'; history is
	// the file Start opened (nil: none).
	rate        func() float64
	log         *slog.Logger
	historyDir  string
	historyOpts history.Options
	history     *historyRun
	past        PastRelay // the site's past, or nil
	// feedList are the store's feeds (ready.go reads their topics).
	feedList []live.Feed
}

// Open builds the clients and the store (not yet started: call Start).
func Open(cfg *config.Config, o Options) (*Platform, error) {
	if cfg == nil {
		return nil, errors.New("platform: no configuration")
	}
	if cfg.Embedded != nil {
		return nil, errors.New("platform: the embedded sandbox must be started and its endpoints put in the configuration first")
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.HTTP == nil {
		o.HTTP = transport.NewHTTP()
	}
	p := &Platform{Config: cfg, now: o.Now, backfillBudget: o.BackfillBudget, alerts: &atomic.Pointer[config.Alerts]{},
		rate: o.ClockRate, log: o.Log, historyDir: o.HistoryDir, historyOpts: o.History}
	a := cfg.Alerts
	p.alerts.Store(&a)
	var store *live.Store
	// The store sees each call once, after its retries: health and the
	// errors view count calls, not attempts.
	observe := func(iface apierr.Interface, path string, d time.Duration, err error) {
		if store == nil {
			return
		}
		store.Observe(iface, path, d, err)
		if e, ok := apierr.As(err); ok {
			store.RecordFailure(e)
		}
	}
	var obs transport.Observer
	if o.Metrics != nil {
		obs = o.Metrics
	}
	tc := func(iface apierr.Interface, base string, src auth.Source) (*transport.Client, error) {
		var maxBody int64
		if iface == apierr.Reporting {
			maxBody = reportingclient.MaxDownload // a month's RECON report is large
		}
		section := string(iface)
		if iface == apierr.Auth {
			section = "payments"
		}
		return transport.New(transport.Config{Interface: iface, BaseURL: base, Auth: src, HTTP: o.HTTP,
			Sleep: o.Sleep, Now: o.Now, Log: o.Log, OnCall: observe, UserAgent: o.UserAgent, MaxBody: maxBody, Observer: obs,
			Retry:     retryOf(iface),
			ConfigKey: cfg.Key(section),
			OnRetry: func(iface apierr.Interface, path string, attempt, of int, err error) {
				if store != nil {
					store.Retrying(iface, path, attempt, of, err)
				}
			},
			OnDate: func(iface apierr.Interface, sent, received, date time.Time) {
				if store != nil {
					store.ObserveDate(iface, sent, received, date)
				}
			}})
	}
	if err := p.build(cfg, o, tc); err != nil {
		return nil, err
	}
	p.feedList = p.feeds()
	lo := live.Options{Feeds: p.feedList, Now: o.Now, Rate: o.ClockRate, Inline: o.Inline}
	if p.Payments != nil {
		// A payment is read by id when a session shows it (a partial
		// record's rest, a failure's reason) or an alert needs its reason.
		lo.ReadPayment, lo.AlertNeeds = p.Payments.Get, alertNeeds
	}
	store = live.New(lo)
	p.Store = store
	p.Reads = p.reads("")
	if p.Payments != nil {
		p.Runway = p.runwayKey(store)
	}
	return p, nil
}

// tokenFetched tells m of each token asked of iface's issuer.
func tokenFetched(m *metrics.Metrics, iface apierr.Interface) func(error) {
	return func(err error) { m.TokenRefresh(string(iface), err) }
}

// retryOf is the backoff of iface's calls. Spec 7.1's schedule (2, 4, 8,
// 16 s) is the payments interface's, and the wallet's and the others'
// where they say nothing. The liquidity interface has none in the spec
// (7.3): its quotes live 30 seconds and are polled every 2, so a retry
// later than the next poll reads nothing a poll would not; its retries
// wait 250 ms doubling up to 2 s, and a quote page that fails costs a
// second, not half a minute.
func retryOf(iface apierr.Interface) transport.Retry {
	if iface == apierr.Liquidity {
		return transport.Retry{Base: 250 * time.Millisecond, Cap: 2 * time.Second}
	}
	return transport.Retry{}
}

// platformNow is the platform's time as iface's answers tell it (the
// store's clock before the store exists).
func (p *Platform) platformNow(iface apierr.Interface) func() time.Time {
	return func() time.Time {
		if p.Store == nil {
			return p.now()
		}
		return p.Store.PlatformNow(iface)
	}
}

// observeRecord tells the store the newest record time of an answer of
// iface (its clock was at least that).
func (p *Platform) observeRecord(iface apierr.Interface) func(time.Time) {
	return func(t time.Time) {
		if p.Store != nil {
			p.Store.ObserveRecord(iface, t)
		}
	}
}

type transportFunc func(iface apierr.Interface, base string, src auth.Source) (*transport.Client, error)

func (p *Platform) build(cfg *config.Config, o Options, tc transportFunc) error {
	if c := cfg.Liquidity; c != nil {
		t, err := tc(apierr.Liquidity, c.BaseURL, auth.NewStatic(auth.NewSecret(c.Token.Reveal())))
		if err != nil {
			return fmt.Errorf("liquidity: %w", err)
		}
		p.Liquidity = liquidityclient.New(t, liquidityclient.Options{Now: o.Now, PageSize: c.PageSize})
	}
	if c := cfg.Payments; c != nil {
		p.paymentsToken = auth.NewPayments(auth.PaymentsConfig{AuthURL: c.AuthURL, ClientID: c.ClientID,
			ClientSecret: auth.NewSecret(c.ClientSecret.Reveal()), Audience: c.Audience, HTTP: o.HTTP,
			ConfigKey: cfg.Key("payments"), CachedOptions: auth.CachedOptions{Now: o.Now, OnFetch: tokenFetched(o.Metrics, apierr.Auth)}})
		t, err := tc(apierr.Payments, c.BaseURL, p.paymentsToken)
		if err != nil {
			return fmt.Errorf("payments: %w", err)
		}
		at, err := tc(apierr.Auth, c.AuthURL, p.paymentsToken)
		if err != nil {
			return fmt.Errorf("payments auth: %w", err)
		}
		memory := &dialects{}
		if o.StateDir != "" {
			memory.path = filepath.Join(o.StateDir, dialectFile)
		}
		key := dialectKey(cfg.Profile, c.BaseURL)
		p.Payments = payclient.New(t, payclient.Options{Now: o.Now, Auth: at, PageSize: c.PageSize,
			Dialect: memory.load(key),
			OnDialect: func(d payclient.Dialect) {
				if err := memory.save(key, d); err != nil && o.Log != nil {
					o.Log.Warn("remember the payments dialect", "file", memory.path, "err", err)
				}
			}})
		if r := cfg.Reporting; r != nil {
			rt, err := tc(apierr.Reporting, r.BaseURL, p.paymentsToken)
			if err != nil {
				return fmt.Errorf("reporting: %w", err)
			}
			p.Reporting = reportingclient.New(rt)
		}
	}
	if c := cfg.Wallet; c != nil {
		mk := func(cl config.Client, section string) (*walletclient.Client, error) {
			src := auth.NewWallet(auth.WalletConfig{BaseURL: c.BaseURL, ClientID: cl.ClientID,
				ClientSecret: auth.NewSecret(cl.ClientSecret.Reveal()), HTTP: o.HTTP, ConfigKey: cfg.Key(section),
				CachedOptions: auth.CachedOptions{Now: o.Now, OnFetch: tokenFetched(o.Metrics, apierr.Wallet)}})
			t, err := tc(apierr.Wallet, c.BaseURL, src)
			if err != nil {
				return nil, fmt.Errorf("wallet: %w", err)
			}
			wc := walletclient.New(t)
			if c.PageSize > 0 {
				wc = wc.WithPageSize(c.PageSize)
			}
			return wc, nil
		}
		var err error
		if p.Wallet, err = mk(c.Client, "wallet"); err != nil {
			return err
		}
		// The clients of the other credentials learn what the server
		// takes (the form of its per-wallet paths, the wallet of each
		// transaction) with the reading client, not each on its own: an
		// action is then never the request that finds out.
		if c.Controls != nil {
			if p.WalletControls, err = mk(*c.Controls, "wallet.controls"); err != nil {
				return err
			}
			p.WalletControls = p.WalletControls.SharingWith(p.Wallet)
		}
		if c.Transactions != nil {
			if p.WalletTransactions, err = mk(*c.Transactions, "wallet.transactions"); err != nil {
				return err
			}
			p.WalletTransactions = p.WalletTransactions.SharingWith(p.Wallet)
		}
	}
	if c := cfg.Custody; c != nil {
		t, err := tc(apierr.Custody, c.BaseURL, auth.NewStatic(auth.NewSecret(c.Token.Reveal())))
		if err != nil {
			return fmt.Errorf("custody: %w", err)
		}
		var signer custody.Signer
		if k, ok := c.SigningKey.(ed25519.PrivateKey); ok {
			signer = custody.Signer{UserID: c.UserID, Key: k}
			p.CustodyCanSign = true
		}
		p.Custody = custodyclient.New(t, c.DomainID, signer).WithClock(o.Now).WithPageSize(c.PageSize)
	}
	return nil
}

// Start starts polling, and judging the feeds' staleness; both stop when
// ctx ends or on Close.
func (p *Platform) Start(ctx context.Context) {
	ctx, cancel := context.WithCancel(ctx)
	p.stop = cancel
	if p.historyDir != "" {
		p.history = p.startHistory(ctx, p.historyDir, p.historyOpts, p.logWarn)
	}
	p.Store.Start(ctx)
	go p.watchStale(ctx)
}

// Close stops the store and the history's recorder (after its last
// write).
func (p *Platform) Close() {
	if p.stop != nil {
		p.stop()
	}
	p.Store.Close()
	p.history.close()
}

// logWarn logs to Options.Log, when there is one.
func (p *Platform) logWarn(msg string, args ...any) {
	if p.log != nil {
		p.log.Warn(msg, args...)
	}
}

// Now is the platform's clock.
func (p *Platform) Now() time.Time { return p.now() }

// PaymentsToken is when the payments token held now was asked for and
// when it expires, on Now's clock (auth.Cached.Held): zeros when the
// profile has no payments interface or no token is held. The token test
// (live.TokenExpiryKey) is polled every TokenInterval; the token is
// replaced in between, before it expires, and at a fast sandbox clock
// several times (an hour of its life is 15 s at 240 times real time).
func (p *Platform) PaymentsToken() (issued, expiry time.Time) {
	if p.paymentsToken == nil {
		return time.Time{}, time.Time{}
	}
	return p.paymentsToken.Held()
}
