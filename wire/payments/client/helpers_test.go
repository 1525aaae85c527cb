package client_test

import (
	"testing"

	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
	"treasury/wire/apierr"
	"treasury/wire/auth"
	"treasury/wire/payments/client"
	"treasury/wire/transport"
)

// newClient builds a payments client for a sandbox client id (the full or
// the limited one), with the sandbox clock and recorded waits.
func newClient(tb testing.TB, srv *sandbox.Server, id, secret string, opts client.Options) (*client.Client, *sandboxtest.Waits) {
	tb.Helper()
	return newClientWith(tb, srv, id, secret, opts, transport.Config{})
}

// newClientWith is newClient whose payments transport starts from cfg
// (an OnResult that counts requests, say).
func newClientWith(tb testing.TB, srv *sandbox.Server, id, secret string, opts client.Options, cfg transport.Config) (*client.Client, *sandboxtest.Waits) {
	tb.Helper()
	src := auth.NewPayments(auth.PaymentsConfig{AuthURL: srv.Endpoints().Auth, ClientID: id, ClientSecret: auth.NewSecret(secret),
		Audience: srv.Credentials().PaymentsAudience, CachedOptions: auth.CachedOptions{Now: srv.Clock().Now}})
	cfg.Interface, cfg.Auth = apierr.Payments, src
	t, w := sandboxtest.Transport(tb, srv, cfg)
	opts.Auth = w.Transport(tb, srv, transport.Config{Interface: apierr.Auth, Auth: src})
	if opts.Now == nil {
		opts.Now = srv.Clock().Now
	}
	return client.New(t, opts), w
}

// fullClient is newClient with the default, full-scope credentials.
func fullClient(tb testing.TB, srv *sandbox.Server, opts client.Options) (*client.Client, *sandboxtest.Waits) {
	c := srv.Credentials()
	return newClient(tb, srv, c.PaymentsClientID, c.PaymentsClientSecret, opts)
}

// faces runs fn against a sandbox of each face: the default one, which
// answers as the vendor's published document does (every exchange checked
// against it), and the variant, which keeps the spec's wording where the
// two differ (the CREATED_AT sort, GET /v3/payments?internalId=) and makes
// the other legal choices. The client must work with both.
func faces(t *testing.T, mutate func(*sandbox.Options), fn func(t *testing.T, srv *sandbox.Server, variant bool)) {
	t.Helper()
	for _, variant := range []bool{false, true} {
		name := "document"
		if variant {
			name = "variant"
		}
		t.Run(name, func(t *testing.T) {
			srv := start(t, func(o *sandbox.Options) {
				o.Variant = variant
				if mutate != nil {
					mutate(o)
				}
			})
			fn(t, srv, variant)
		})
	}
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
