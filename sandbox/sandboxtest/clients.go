package sandboxtest

import (
	"context"
	"sync"
	"testing"
	"time"

	"treasury/sandbox"
	"treasury/wire/apierr"
	"treasury/wire/transport"
)

// Waits records the backoff waits of a transport instead of sleeping (pass
// its Sleep as transport.Config.Sleep). Then, when set before the requests,
// runs after each wait with the number of waits so far: a test changes the
// sandbox's faults between attempts.
type Waits struct {
	mu   sync.Mutex
	d    []time.Duration
	Then func(n int)
}

// Sleep records d and returns at once (ctx's error, if it is done).
func (w *Waits) Sleep(ctx context.Context, d time.Duration) error {
	w.mu.Lock()
	w.d = append(w.d, d)
	n, then := len(w.d), w.Then
	w.mu.Unlock()
	if then != nil {
		then(n)
	}
	return ctx.Err()
}

// All returns the waits so far.
func (w *Waits) All() []time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]time.Duration(nil), w.d...)
}

// Count returns the number of waits so far.
func (w *Waits) Count() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.d)
}

// Endpoint returns the sandbox's base URL of an interface ("" for one it
// does not serve).
func Endpoint(srv *sandbox.Server, iface apierr.Interface) string {
	ep := srv.Endpoints()
	return map[apierr.Interface]string{
		apierr.Liquidity: ep.Liquidity, apierr.Auth: ep.Auth, apierr.Payments: ep.Payments,
		apierr.Reporting: ep.Reporting, apierr.Wallet: ep.Wallet, apierr.Custody: ep.Custody,
	}[iface]
}

// Transport builds a transport to the sandbox from cfg that records its
// waits instead of sleeping: an empty BaseURL is the sandbox's endpoint of
// cfg.Interface, a nil Now the sandbox clock.
func Transport(tb testing.TB, srv *sandbox.Server, cfg transport.Config) (*transport.Client, *Waits) {
	tb.Helper()
	w := &Waits{}
	return w.Transport(tb, srv, cfg), w
}

// Transport is the package's Transport recording into w: transports that
// share a client's waits.
func (w *Waits) Transport(tb testing.TB, srv *sandbox.Server, cfg transport.Config) *transport.Client {
	tb.Helper()
	cfg.Sleep = w.Sleep
	if cfg.BaseURL == "" {
		cfg.BaseURL = Endpoint(srv, cfg.Interface)
	}
	if cfg.Now == nil {
		cfg.Now = srv.Clock().Now
	}
	t, err := transport.New(cfg)
	if err != nil {
		tb.Fatalf("%s transport: %v", cfg.Interface, err)
	}
	return t
}
