package client_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"sync"
	"testing"
	"time"

	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
	"treasury/wire/apierr"
	"treasury/wire/auth"
	"treasury/wire/transport"
	"treasury/wire/wallet"
	"treasury/wire/wallet/client"
)

// sent records the method, path and body of every request that leaves.
type sent struct {
	mu   sync.Mutex
	reqs []sentReq
	next http.RoundTripper
	// rewrite, when set, may replace the answer to a request.
	rewrite func(r *http.Request, resp *http.Response)
}

type sentReq struct {
	method, path string
	body         []byte
	status       int
}

func (s *sent) RoundTrip(r *http.Request) (*http.Response, error) {
	var body []byte
	if r.Body != nil {
		body, _ = io.ReadAll(r.Body)
		r.Body.Close()
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	resp, err := s.next.RoundTrip(r)
	status := 0
	if err == nil {
		if s.rewrite != nil {
			s.rewrite(r, resp)
		}
		status = resp.StatusCode
	}
	s.mu.Lock()
	s.reqs = append(s.reqs, sentReq{r.Method, r.URL.Path, body, status})
	s.mu.Unlock()
	return resp, err
}

func (s *sent) all() []sentReq {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]sentReq(nil), s.reqs...)
}

// env is a sandbox and the ways to reach its wallet interface.
type env struct {
	srv *sandbox.Server
}

func newEnv(tb testing.TB) *env {
	tb.Helper()
	return &env{srv: sandboxtest.Listen(tb, sandboxtest.Options())}
}

// variantEnv is a sandbox answering as another legal implementation
// (sandbox --variant: the vault form of the per-wallet paths, a refused
// filter parameter, reasons as objects...).
func variantEnv(tb testing.TB) *env {
	tb.Helper()
	return &env{srv: sandboxtest.Listen(tb, sandboxtest.VariantOptions())}
}

// fixture is a client with its recorded waits, requests and results.
type fixture struct {
	c       *client.Client
	waits   *sandboxtest.Waits
	sent    *sent
	results *results
}

// results records what the transport reports of each attempt.
type results struct {
	mu   sync.Mutex
	errs []error
}

func (r *results) on(_ apierr.Interface, _ string, _ int, _ time.Duration, err error) {
	r.mu.Lock()
	r.errs = append(r.errs, err)
	r.mu.Unlock()
}

func (r *results) all() []error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]error(nil), r.errs...)
}

// static is a client with a token of clientID fetched by sandboxtest.
func (e *env) static(tb testing.TB, clientID string) fixture {
	tb.Helper()
	return e.with(tb, auth.NewStatic(auth.NewSecret(sandboxtest.WalletToken(tb, e.srv, clientID))))
}

func (e *env) with(tb testing.TB, src auth.Source) fixture {
	tb.Helper()
	// Its own connections, closed before the sandbox shuts down: a
	// connection dialled but never used would hold Shutdown for seconds.
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tb.Cleanup(tr.CloseIdleConnections)
	s := &sent{next: tr}
	rs := &results{}
	t, w := sandboxtest.Transport(tb, e.srv, transport.Config{Interface: apierr.Wallet,
		Auth: src, HTTP: &http.Client{Transport: s}, OnResult: rs.on,
		Retry: transport.Retry{Jitter: func() float64 { return 0 }}})
	return fixture{c: client.New(t), waits: w, sent: s, results: rs}
}

// transactions lists every transaction the fixture's client may see.
func (f fixture) transactions(tb testing.TB) []wallet.Transaction {
	tb.Helper()
	all, err := f.c.Transactions(context.Background(), wallet.ListFilter{})
	if err != nil {
		tb.Fatal(err)
	}
	return all
}

// noRetries fails the test when the client waited to retry; format gets
// the number of waits.
func (f fixture) noRetries(tb testing.TB, format string) {
	tb.Helper()
	if n := f.waits.Count(); n != 0 {
		tb.Errorf(format, n)
	}
}

func (e *env) secret(tb testing.TB, clientID string) string {
	tb.Helper()
	for _, c := range e.srv.Credentials().Wallet {
		if c.ClientID == clientID {
			return c.ClientSecret
		}
	}
	tb.Fatalf("no wallet credential %q", clientID)
	return ""
}

func (e *env) faults(tb testing.TB, f sandbox.FaultSettings) {
	tb.Helper()
	if err := e.srv.SetFaults(f); err != nil {
		tb.Fatal(err)
	}
}

// wantWalletErr checks err is a wallet error with the HTTP status, gRPC
// code, reason and class.
func wantWalletErr(tb testing.TB, err error, status, grpc int, reason string, class apierr.Class) *apierr.Error {
	tb.Helper()
	e, ok := apierr.As(err)
	if !ok {
		tb.Fatalf("error %v (%T): want an *apierr.Error", err, err)
	}
	if e.Interface != apierr.Wallet || e.HTTPStatus != status || e.GRPCCode != grpc || e.Code != reason || e.Class != class {
		tb.Fatalf("error %s: HTTP %d gRPC %d reason %q class %s; want HTTP %d gRPC %d reason %q class %s",
			e, e.HTTPStatus, e.GRPCCode, e.Code, e.Class, status, grpc, reason, class)
	}
	return e
}

// mutationIDs returns the mutationId of each request body to path.
func mutationIDs(tb testing.TB, reqs []sentReq, method, suffix string) []string {
	tb.Helper()
	var out []string
	for _, r := range reqs {
		if r.method != method || !bytes.HasSuffix([]byte(r.path), []byte(suffix)) {
			continue
		}
		var b struct {
			MutationID string `json:"mutationId"`
		}
		if err := json.Unmarshal(r.body, &b); err != nil {
			tb.Fatalf("%s %s body %q: %v", r.method, r.path, r.body, err)
		}
		out = append(out, b.MutationID)
	}
	return out
}

// pick returns the first transaction that ok accepts.
func pick(tb testing.TB, ts []wallet.Transaction, what string, ok func(wallet.Transaction) bool) wallet.Transaction {
	tb.Helper()
	for _, t := range ts {
		if ok(t) {
			return t
		}
	}
	tb.Fatalf("no %s transaction among %d", what, len(ts))
	return wallet.Transaction{}
}

func freezable(t wallet.Transaction) bool {
	return wallet.FreezeRuledOut(t, true) == ""
}
