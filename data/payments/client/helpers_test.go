package client_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"treasury/data/apierr"
	"treasury/data/auth"
	"treasury/data/payments/client"
	"treasury/data/sandbox"
	"treasury/data/sandbox/sandboxtest"
	"treasury/data/transport"
)

// waits records the backoff waits instead of sleeping; then, when set, is
// called with the number of waits so far (a test clears a fault burst).
type waits struct {
	mu   sync.Mutex
	d    []time.Duration
	then func(n int)
}

func (w *waits) sleep(ctx context.Context, d time.Duration) error {
	w.mu.Lock()
	w.d = append(w.d, d)
	n, then := len(w.d), w.then
	w.mu.Unlock()
	if then != nil {
		then(n)
	}
	return ctx.Err()
}

func (w *waits) all() []time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]time.Duration(nil), w.d...)
}

// newClient builds a payments client for a sandbox client id (the full or
// the limited one), with the sandbox clock and recorded waits.
func newClient(tb testing.TB, srv *sandbox.Server, id, secret string, opts client.Options) (*client.Client, *waits) {
	tb.Helper()
	w := &waits{}
	ep := srv.Endpoints()
	src := auth.NewPayments(auth.PaymentsConfig{AuthURL: ep.Auth, ClientID: id, ClientSecret: auth.NewSecret(secret),
		Audience: srv.Credentials().PaymentsAudience, CachedOptions: auth.CachedOptions{Now: srv.Clock().Now}})
	mk := func(iface apierr.Interface, base string) *transport.Client {
		t, err := transport.New(transport.Config{Interface: iface, BaseURL: base, Auth: src, Sleep: w.sleep, Now: srv.Clock().Now})
		if err != nil {
			tb.Fatal(err)
		}
		return t
	}
	if opts.Now == nil {
		opts.Now = srv.Clock().Now
	}
	opts.Auth = mk(apierr.Auth, ep.Auth)
	return client.New(mk(apierr.Payments, ep.Payments), opts), w
}

// fullClient is newClient with the default, full-scope credentials.
func fullClient(tb testing.TB, srv *sandbox.Server, opts client.Options) (*client.Client, *waits) {
	c := srv.Credentials()
	return newClient(tb, srv, c.PaymentsClientID, c.PaymentsClientSecret, opts)
}

func start(tb testing.TB, mutate func(*sandbox.Options)) *sandbox.Server {
	tb.Helper()
	o := sandboxtest.Options()
	if mutate != nil {
		mutate(&o)
	}
	return sandboxtest.Listen(tb, o)
}

// wantAPIErr checks that err is an *apierr.Error with the code, HTTP status
// and class.
func wantAPIErr(t *testing.T, what string, err error, status int, code string, class apierr.Class) {
	t.Helper()
	e, ok := apierr.As(err)
	if !ok {
		t.Fatalf("%s: error %v (%T), want *apierr.Error %s", what, err, err, code)
	}
	if e.HTTPStatus != status || e.Code != code || e.Class != class || e.Interface != apierr.Payments || e.Timestamp == "" {
		t.Fatalf("%s: %+v, want HTTP %d %s class %s with timestamp", what, e, status, code, class)
	}
}
