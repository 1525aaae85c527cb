// Package sandbox is the embedded simulator of the platform's five
// interfaces: one http.Handler that behaves as spec/platform-interfaces.md
// says (auth, pagination, limits, error bodies, states that move over time,
// signed webhooks), on a clock that can run fast or stand still, with faults
// that can be switched on at runtime under /_sandbox/.
//
// Each interface lives under its own prefix, which is its base URL:
// /liquidity, /auth, /payments, /reporting, /wallet and /custody. Only main
// and tests import this package; clients see it only as HTTP.
//
// Options.Variant gives the sandbox a second face: the same world answered
// as another legal implementation would where the spec says "not shown"
// (package internal/variant lists what changes), so the data layer can be
// tested against both.
package sandbox

import (
	"context"
	"crypto"
	"crypto/ed25519"
	"errors"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"treasury/sandbox/internal/authsim"
	"treasury/sandbox/internal/custodysim"
	"treasury/sandbox/internal/hooksim"
	"treasury/sandbox/internal/market"
	"treasury/sandbox/internal/payworld"
	"treasury/sandbox/internal/reportsim"
	"treasury/sandbox/internal/simkit"
	"treasury/sandbox/internal/variant"
	"treasury/sandbox/internal/walletsim"
	"treasury/wire/apierr"
)

// Prefixes of the interfaces; each is the interface's base URL path.
const (
	PrefixLiquidity = "/liquidity"
	PrefixAuth      = "/auth"
	PrefixPayments  = "/payments"
	PrefixReporting = "/reporting"
	PrefixWallet    = "/wallet"
	PrefixCustody   = "/custody"
	PrefixControl   = "/_sandbox"
)

// Org is the tenant of the sandbox's own payments clients.
const Org = "sandbox-org"

// Sandbox is a running simulated platform.
type Sandbox struct {
	opts    Options
	env     *simkit.Env
	auth    *authsim.Issuer
	world   *payworld.World
	wallet  *walletsim.Sim
	custody *custodysim.Sim
	hooks   *hooksim.Deliverer
	sims    []simkit.Sim
	handler http.Handler

	requests requestCounts
	byID     atomic.Uint64 // GET /v3/payments/{id}

	mu       sync.Mutex
	webhooks WebhookOptions
}

// New builds a sandbox. Its background work (traffic, webhook delivery)
// runs until Close.
func New(opts Options) (*Sandbox, error) {
	opts.defaults()
	if err := opts.validate(); err != nil {
		return nil, err
	}
	var clock *simkit.Clock
	if opts.Frozen {
		start := opts.Start
		if start.IsZero() {
			start = time.Now()
		}
		clock = simkit.NewFrozenClock(start)
	} else {
		clock = simkit.NewClock(opts.Start, opts.Speed)
	}
	env := &simkit.Env{Seed: uint64(opts.Seed), Clock: clock, Faults: simkit.NewFaults(opts.Faults), Host: opts.Host, Logf: opts.Logf}
	if opts.Variant {
		env.Gate = variant.Gate
	}
	c := opts.Credentials
	auth := authsim.New(env.Seed, clock, env.Faults, c.PaymentsAudience, []authsim.Client{
		{ID: c.PaymentsClientID, Secret: c.PaymentsClientSecret, Scopes: authsim.AllScopes, Org: Org},
		{ID: c.PaymentsLimitedClientID, Secret: c.PaymentsLimitedClientSecret, Org: Org,
			Scopes: "payments:read payments:create quotes:create identities:read identities:create"},
	})
	s := &Sandbox{opts: opts, env: env, auth: auth, webhooks: opts.Webhooks}
	s.hooks = hooksim.New(env, WebhookKey(opts.Seed), hookSettings(opts.Webhooks))
	world, err := payworld.New(env, payworld.Options{
		Auth: auth, Org: Org, HistoryPayments: opts.HistoryPayments, LivePerMinute: max(opts.LivePaymentsPerMinute, 0),
		Spec: opts.Variant, Retain: opts.Retain, Accounts: opts.Accounts,
		Notify: s.hooks.Enqueue,
	})
	if err != nil {
		s.hooks.Close()
		return nil, err
	}
	s.world = world
	creds := make([]walletsim.Credential, len(c.Wallet))
	for i, w := range c.Wallet {
		creds[i] = walletsim.Credential{ClientID: w.ClientID, ClientSecret: w.ClientSecret, Type: w.Type, Permissions: w.Permissions}
	}
	liq := market.New(env, c.LiquidityToken)
	rep := reportsim.New(env, auth, world)
	cus := custodysim.New(env, custodysim.Options{Token: c.CustodyToken, DomainID: c.CustodyDomainID,
		Operators: map[string]ed25519.PublicKey{OperatorID(opts.Seed): OperatorKey(opts.Seed).Public().(ed25519.PublicKey)}})
	// The wallet asks custody whether a destination is a locked endpoint:
	// one function, called with the wallet's lock held; custody never calls
	// the wallet, so the two locks cannot deadlock.
	wal := walletsim.New(env, creds, walletsim.Options{LockedAddress: cus.LockedAddress, NestedWalletPaths: opts.Variant, Retain: opts.Retain})
	s.sims = []simkit.Sim{liq, world, rep, wal, cus}
	s.wallet, s.custody = wal, cus

	// Each interface: counted, prefix stripped, then the variant (which
	// reshapes the faults' bodies too), then the faults, then the sim.
	mux := http.NewServeMux()
	vcfg := variant.Config{Now: clock.Now, SignCustody: cus.Sign}
	mount := func(prefix string, iface apierr.Interface, h http.Handler) {
		if opts.Observe != nil && !opts.Variant && (iface == apierr.Payments || iface == apierr.Auth) {
			h = observed(iface, opts.Observe, h)
		}
		h = s.faults(iface, h)
		if opts.Variant {
			h = variant.Wrap(iface, vcfg, h)
		}
		mux.Handle(prefix+"/", s.counted(iface, http.StripPrefix(prefix, h)))
	}
	mount(PrefixLiquidity, apierr.Liquidity, liq.Handler())
	mount(PrefixAuth, apierr.Auth, auth.Handler())
	mount(PrefixPayments, apierr.Payments, world.Handler())
	mount(PrefixReporting, apierr.Reporting, rep.Handler())
	mount(PrefixWallet, apierr.Wallet, wal.Handler())
	mount(PrefixCustody, apierr.Custody, cus.Handler())
	mux.Handle(PrefixControl+"/", http.StripPrefix(PrefixControl, s.control()))
	mux.HandleFunc("/{$}", s.index)
	s.handler = mux
	return s, nil
}

func hookSettings(o WebhookOptions) hooksim.Settings {
	return hooksim.Settings{URL: o.URL, RootCAs: o.RootCAs, HeaderPrefix: o.HeaderPrefix,
		DuplicateRate: o.DuplicateRate, ReorderRate: o.ReorderRate}
}

// Handler serves every interface under its prefix, and /_sandbox/.
func (s *Sandbox) Handler() http.Handler { return s.handler }

// Clock is the sandbox clock.
func (s *Sandbox) Clock() *Clock { return s.env.Clock }

// Faults returns the faults in force.
func (s *Sandbox) Faults() FaultSettings { return s.env.Faults.Get() }

// SetFaults replaces the faults in force.
func (s *Sandbox) SetFaults(f FaultSettings) error { return s.env.Faults.Set(f) }

// WebhookPublicKey is the key that verifies the sandbox's notifications.
func (s *Sandbox) WebhookPublicKey() crypto.PublicKey { return WebhookKey(s.opts.Seed).Public() }

// Webhooks returns the current delivery settings.
func (s *Sandbox) Webhooks() WebhookOptions {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.webhooks
}

// WebhooksDelivered counts the notifications delivered (answered 2xx)
// since start.
func (s *Sandbox) WebhooksDelivered() int { return s.hooks.Stats().Delivered }

// SetWebhooks changes where and how notifications are delivered.
func (s *Sandbox) SetWebhooks(o WebhookOptions) error {
	if o.HeaderPrefix == "" {
		o.HeaderPrefix = s.opts.Webhooks.HeaderPrefix
	}
	if o.DuplicateRate < 0 || o.DuplicateRate > 1 || o.ReorderRate < 0 || o.ReorderRate > 1 {
		return errors.New("duplicate_rate and reorder_rate must be between 0 and 1")
	}
	if o.URL != "" && !strings.HasPrefix(o.URL, "https://") {
		return errors.New("the callback address must use https:// (spec 6.1)")
	}
	s.mu.Lock()
	s.webhooks = o
	s.mu.Unlock()
	s.hooks.Set(hookSettings(o))
	return nil
}

// Seed is the world's seed.
func (s *Sandbox) Seed() int64 { return s.opts.Seed }

// Credentials are the credentials the sandbox accepts.
func (s *Sandbox) Credentials() Credentials { return s.opts.Credentials }

// Close stops background work.
func (s *Sandbox) Close() error {
	var errs []error
	for _, sim := range s.sims {
		errs = append(errs, sim.Close())
	}
	errs = append(errs, s.hooks.Close())
	return errors.Join(errs...)
}

// Server is a sandbox listening on a TCP address.
type Server struct {
	*Sandbox
	// URL is the server's root, such as http://127.0.0.1:8787.
	URL string
	srv *http.Server
	ln  net.Listener
}

// Endpoints are the base URLs of the interfaces of a served sandbox.
type Endpoints struct {
	Liquidity, Auth, Payments, Reporting, Wallet, Custody, Control string
}

// Listen starts a sandbox and serves it on addr ("127.0.0.1:0" picks a
// port). It serves until Close.
func Listen(addr string, opts Options) (*Server, error) {
	sb, err := New(opts)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		sb.Close()
		return nil, err
	}
	srv := &http.Server{Handler: sb.Handler(), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	return &Server{Sandbox: sb, URL: "http://" + ln.Addr().String(), srv: srv, ln: ln}, nil
}

// Endpoints are the base URLs of the served interfaces.
func (s *Server) Endpoints() Endpoints {
	return Endpoints{
		Liquidity: s.URL + PrefixLiquidity, Auth: s.URL + PrefixAuth, Payments: s.URL + PrefixPayments,
		Reporting: s.URL + PrefixReporting, Wallet: s.URL + PrefixWallet, Custody: s.URL + PrefixCustody,
		Control: s.URL + PrefixControl,
	}
}

// Close stops serving and stops the sandbox's background work.
func (s *Server) Close() error {
	// A short grace for requests in flight: a connection that was dialled
	// but never carried a request counts as active for Shutdown, and a
	// dashboard quitting must not wait on it.
	ctx, cancel := context.WithTimeout(context.Background(), 250*time.Millisecond)
	defer cancel()
	err := s.srv.Shutdown(ctx)
	if errors.Is(err, context.DeadlineExceeded) {
		err = s.srv.Close()
	}
	return errors.Join(err, s.Sandbox.Close())
}
