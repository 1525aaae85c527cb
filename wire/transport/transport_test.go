package transport_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"treasury/kit/logfile"
	"treasury/wire/apierr"
	"treasury/wire/auth"
	"treasury/wire/transport"
)

// script answers the n-th request (from 0) with steps[n], the last step
// repeating; it records the bodies and Authorization headers it saw.
type script struct {
	mu     sync.Mutex
	steps  []func(w http.ResponseWriter)
	bodies []string
	auths  []string
}

func (s *script) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	n := len(s.bodies)
	s.bodies = append(s.bodies, string(b))
	s.auths = append(s.auths, r.Header.Get("Authorization"))
	s.mu.Unlock()
	s.steps[min(n, len(s.steps)-1)](w)
}

func (s *script) count() int { s.mu.Lock(); defer s.mu.Unlock(); return len(s.bodies) }

func jsonStep(status int, v any) func(http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		json.NewEncoder(w).Encode(v)
	}
}

func rawStep(status int, body string) func(http.ResponseWriter) {
	return func(w http.ResponseWriter) { w.WriteHeader(status); io.WriteString(w, body) }
}

var (
	ok200   = jsonStep(200, map[string]string{"name": "ok"})
	sys500  = jsonStep(500, apierr.PaymentsBody{Code: "SYS_001", Type: apierr.TypeSystem, Status: 500})
	cfg500  = jsonStep(500, apierr.PaymentsBody{Code: "CFG_001", Type: apierr.TypeConfiguration, Status: 500})
	usr400  = jsonStep(400, apierr.PaymentsBody{Code: "USR_002", Type: apierr.TypeUser, Status: 400})
	auth401 = jsonStep(401, apierr.PaymentsBody{Code: "AUTH_001", Type: apierr.TypeAuth, Status: 401})
)

// sleeper records the waits and returns at once.
type sleeper struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (s *sleeper) Sleep(ctx context.Context, d time.Duration) error {
	s.mu.Lock()
	s.waits = append(s.waits, d)
	s.mu.Unlock()
	return ctx.Err()
}

// newClient serves h on loopback and returns a client for iface with a
// recording sleeper and jitter fixed at the middle (15 %).
func newClient(t *testing.T, iface apierr.Interface, h http.Handler, src auth.Source) (*transport.Client, *sleeper) {
	t.Helper()
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	sl := &sleeper{}
	c, err := transport.New(transport.Config{Interface: iface, BaseURL: ts.URL + "/base", Auth: src,
		Sleep: sl.Sleep, Retry: transport.Retry{Jitter: func() float64 { return 0.5 }}})
	if err != nil {
		t.Fatal(err)
	}
	return c, sl
}

func ms(d ...float64) []time.Duration {
	out := make([]time.Duration, len(d))
	for i, v := range d {
		out[i] = time.Duration(v * float64(time.Millisecond))
	}
	return out
}

func TestRetryScheduleSucceedsOnFifthAttempt(t *testing.T) {
	s := &script{steps: []func(http.ResponseWriter){sys500, sys500, sys500, sys500, ok200}}
	c, sl := newClient(t, apierr.Payments, s, nil)
	var out struct{ Name string }
	resp, err := c.Do(context.Background(), transport.Request{Path: "/x"}, &out)
	if err != nil || out.Name != "ok" || resp.Attempts != 5 {
		t.Fatalf("resp %+v, out %+v, err %v", resp, out, err)
	}
	// 2, 4, 8, 16 s plus 15 % jitter.
	if want := ms(2300, 4600, 9200, 18400); !slices.Equal(sl.waits, want) {
		t.Errorf("waits %v, want %v", sl.waits, want)
	}
}

func TestRetryGivesUpAfterFiveAttempts(t *testing.T) {
	s := &script{steps: []func(http.ResponseWriter){sys500}}
	c, sl := newClient(t, apierr.Payments, s, nil)
	_, err := c.Do(context.Background(), transport.Request{Path: "/x"}, nil)
	e, ok := apierr.As(err)
	if !ok || e.Code != "SYS_001" || e.Path != "/x" {
		t.Fatalf("err %v", err)
	}
	if s.count() != 5 || len(sl.waits) != 4 {
		t.Errorf("attempts %d waits %v, want 5 and 4", s.count(), sl.waits)
	}
}

func TestWaitDoublesJittersAndCaps(t *testing.T) {
	for _, j := range []float64{0, 0.999} {
		r := transport.Retry{Jitter: func() float64 { return j }}
		base := time.Duration(2)
		for n := 1; n <= 8; n++ {
			w := r.Wait(n)
			nominal := base * time.Second
			lo, hi := nominal+nominal/10, nominal+nominal/5
			if lo > 60*time.Second {
				lo, hi = 60*time.Second, 60*time.Second
			}
			hi = min(hi, 60*time.Second)
			lo = min(lo, 60*time.Second)
			if w < lo || w > hi {
				t.Errorf("jitter %v wait %d = %v, want in [%v, %v]", j, n, w, lo, hi)
			}
			base *= 2
		}
	}
}

func TestWhatIsRetried(t *testing.T) {
	wallet13 := jsonStep(500, apierr.WalletBody{Code: apierr.GRPCInternal, Message: "internal"})
	wallet14 := jsonStep(503, apierr.WalletBody{Code: apierr.GRPCUnavailable, Message: "unavailable"})
	wallet9 := jsonStep(400, apierr.WalletBody{Code: apierr.GRPCFailedPrecondition, Message: "state"})
	cases := []struct {
		name  string
		iface apierr.Interface
		step  func(http.ResponseWriter)
		sends int
	}{
		{"payments SYS_ 500", apierr.Payments, sys500, 5},
		{"payments CFG_ 500", apierr.Payments, cfg500, 1},
		{"payments USR_ 400", apierr.Payments, usr400, 1},
		{"payments AUTH_002 403", apierr.Payments, jsonStep(403, apierr.PaymentsBody{Code: "AUTH_002", Type: apierr.TypeAuth, Status: 403}), 1},
		{"wallet 13", apierr.Wallet, wallet13, 5},
		{"wallet 14", apierr.Wallet, wallet14, 5},
		{"wallet 9", apierr.Wallet, wallet9, 1},
		{"liquidity 500", apierr.Liquidity, rawStep(500, "oops"), 5},
		{"liquidity 502", apierr.Liquidity, rawStep(502, "<html>bad gateway"), 5},
		{"liquidity 404", apierr.Liquidity, rawStep(404, `{"status":404,"message":"no"}`), 1},
		{"custody 400", apierr.Custody, rawStep(400, "bad"), 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := &script{steps: []func(http.ResponseWriter){tc.step}}
			c, _ := newClient(t, tc.iface, s, nil)
			_, err := c.Do(context.Background(), transport.Request{Path: "/x"}, nil)
			if _, ok := apierr.As(err); !ok {
				t.Fatalf("err %v is not an *apierr.Error", err)
			}
			if s.count() != tc.sends {
				t.Errorf("sent %d times, want %d", s.count(), tc.sends)
			}
		})
	}
}

func TestActionsAreNotRepeatedUnlessIdempotent(t *testing.T) {
	body := map[string]string{"internalId": "k-1"}
	s := &script{steps: []func(http.ResponseWriter){sys500}}
	c, _ := newClient(t, apierr.Payments, s, nil)
	if _, err := c.Do(context.Background(), transport.Request{Method: "POST", Path: "/act", Body: body}, nil); err == nil {
		t.Fatal("want an error")
	}
	if s.count() != 1 {
		t.Fatalf("a non-idempotent POST was sent %d times", s.count())
	}

	s2 := &script{steps: []func(http.ResponseWriter){sys500, sys500, ok200}}
	c2, _ := newClient(t, apierr.Payments, s2, nil)
	if _, err := c2.Do(context.Background(), transport.Request{Method: "POST", Path: "/act", Body: body, Idempotent: true}, nil); err != nil {
		t.Fatal(err)
	}
	if s2.count() != 3 {
		t.Fatalf("idempotent POST sent %d times, want 3", s2.count())
	}
	for _, b := range s2.bodies {
		if b != s2.bodies[0] || !strings.Contains(b, `"k-1"`) {
			t.Errorf("body changed between attempts: %q vs %q", b, s2.bodies[0])
		}
	}
}

// countingSource hands out tok-1, tok-2 ... and counts invalidations.
type countingSource struct {
	mu          sync.Mutex
	n           int
	cur         auth.Secret
	invalidated []string
}

func (c *countingSource) Token(context.Context) (auth.Secret, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cur.IsZero() {
		c.n++
		c.cur = auth.NewSecret("tok-" + string(rune('0'+c.n)))
	}
	return c.cur, nil
}

func (c *countingSource) Invalidate(t auth.Secret) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.invalidated = append(c.invalidated, t.Reveal())
	if c.cur.Equal(t) {
		c.cur = auth.Secret{}
	}
	return true
}

func TestRefreshOnceOn401(t *testing.T) {
	s := &script{steps: []func(http.ResponseWriter){auth401, ok200}}
	src := &countingSource{}
	c, sl := newClient(t, apierr.Payments, s, src)
	// Even a non-idempotent POST is sent again after a 401: it was not processed.
	if _, err := c.Do(context.Background(), transport.Request{Method: "POST", Path: "/x", Body: map[string]int{"a": 1}}, nil); err != nil {
		t.Fatal(err)
	}
	if want := []string{"Bearer tok-1", "Bearer tok-2"}; strings.Join(s.auths, ",") != strings.Join(want, ",") {
		t.Errorf("auth headers %v, want %v", s.auths, want)
	}
	if len(sl.waits) != 0 {
		t.Errorf("a refresh retry must not wait: %v", sl.waits)
	}

	s2 := &script{steps: []func(http.ResponseWriter){auth401}}
	src2 := &countingSource{}
	c2, _ := newClient(t, apierr.Payments, s2, src2)
	_, err := c2.Do(context.Background(), transport.Request{Path: "/x"}, nil)
	if apierr.ClassOf(err) != apierr.ClassRefreshAuth {
		t.Fatalf("err %v", err)
	}
	if s2.count() != 2 || len(src2.invalidated) != 1 {
		t.Errorf("sent %d, invalidated %v: want 2 sends and one refresh", s2.count(), src2.invalidated)
	}
}

func TestStaticToken401IsNotRetried(t *testing.T) {
	s := &script{steps: []func(http.ResponseWriter){rawStep(401, "no")}}
	c, _ := newClient(t, apierr.Custody, s, auth.NewStatic(auth.NewSecret("static")))
	_, err := c.Do(context.Background(), transport.Request{Path: "/x"}, nil)
	if apierr.ClassOf(err) != apierr.ClassRefreshAuth || s.count() != 1 || s.auths[0] != "Bearer static" {
		t.Fatalf("err %v, sends %d, auth %v", err, s.count(), s.auths)
	}
}

func TestMalformedBodies(t *testing.T) {
	bad := rawStep(200, `{"name": "ok"`+"\x00<html>")
	// A GET whose body cannot be read is read again once (a body cut on
	// its way is whole the next time)...
	s := &script{steps: []func(http.ResponseWriter){bad, ok200}}
	c, _ := newClient(t, apierr.Liquidity, s, nil)
	var out struct{ Name string }
	if _, err := c.Do(context.Background(), transport.Request{Path: "/x"}, &out); err != nil || s.count() != 2 {
		t.Fatalf("GET with a malformed body, then a good one: %v, %d sends: want the second read", err, s.count())
	}
	// ...and not a third time: a server that sends the same bad body
	// twice gives a Malformed.
	s1 := &script{steps: []func(http.ResponseWriter){bad, bad, ok200}}
	c1, _ := newClient(t, apierr.Liquidity, s1, nil)
	if _, err := c1.Do(context.Background(), transport.Request{Path: "/x"}, &out); apierr.ClassOf(err) != apierr.ClassMalformed || s1.count() != 2 {
		t.Fatalf("GET with two malformed bodies: %v, %d sends: want a Malformed after two", err, s1.count())
	}
	s2 := &script{steps: []func(http.ResponseWriter){bad}}
	c2, _ := newClient(t, apierr.Liquidity, s2, nil)
	_, err := c2.Do(context.Background(), transport.Request{Method: "POST", Path: "/x"}, &out)
	if apierr.ClassOf(err) != apierr.ClassMalformed || s2.count() != 1 {
		t.Fatalf("err %v sends %d: want one Malformed", err, s2.count())
	}
	// Wrong types and junk never panic.
	for _, body := range []string{`[]`, `{"name": 5}`, `null`, "\xff\xfe", `{"name":"` + strings.Repeat("a", 100) + `"}`} {
		s3 := &script{steps: []func(http.ResponseWriter){rawStep(200, body)}}
		c3, _ := newClient(t, apierr.Liquidity, s3, nil)
		var o struct{ Name string }
		c3.Do(context.Background(), transport.Request{Path: "/x"}, &o)
	}
}

func TestBodySizeLimit(t *testing.T) {
	ts := httptest.NewServer(rawStepHandler(200, `{"name":"`+strings.Repeat("x", 4096)+`"}`))
	defer ts.Close()
	c, _ := transport.New(transport.Config{Interface: apierr.Liquidity, BaseURL: ts.URL, MaxBody: 1024,
		Retry: transport.Retry{Attempts: 1}})
	_, err := c.Do(context.Background(), transport.Request{Path: "/x"}, &struct{}{})
	if e, ok := apierr.As(err); !ok || e.Class != apierr.ClassMalformed || !strings.Contains(e.Message, "larger") {
		t.Fatalf("err %v", err)
	}
}

func rawStepHandler(status int, body string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { rawStep(status, body)(w) })
}

func TestContextCancelStopsRetries(t *testing.T) {
	s := &script{steps: []func(http.ResponseWriter){sys500}}
	ts := httptest.NewServer(s)
	defer ts.Close()
	ctx, cancel := context.WithCancel(context.Background())
	c, _ := transport.New(transport.Config{Interface: apierr.Payments, BaseURL: ts.URL,
		Sleep: func(ctx context.Context, d time.Duration) error { cancel(); return ctx.Err() }})
	_, err := c.Do(ctx, transport.Request{Path: "/x"}, nil)
	if !errors.Is(err, context.Canceled) || s.count() != 1 {
		t.Fatalf("err %v after %d sends", err, s.count())
	}
}

func TestPerAttemptTimeout(t *testing.T) {
	block := make(chan struct{})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-block:
		case <-r.Context().Done():
		}
	}))
	defer ts.Close()
	defer close(block)
	c, _ := transport.New(transport.Config{Interface: apierr.Liquidity, BaseURL: ts.URL, Timeout: 50 * time.Millisecond,
		Retry: transport.Retry{Attempts: 1}})
	_, err := c.Do(context.Background(), transport.Request{Path: "/slow"}, nil)
	if err == nil || !strings.Contains(err.Error(), "no answer within 50ms") {
		t.Fatalf("err %v", err)
	}
}

func TestLogAndHealthHook(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state", "treasury")
	lg, err := transport.OpenLog(dir, logfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := &script{steps: []func(http.ResponseWriter){sys500, ok200}}
	ts := httptest.NewServer(s)
	defer ts.Close()
	type res struct {
		path   string
		status int
		err    error
	}
	var got []res
	c, _ := transport.New(transport.Config{Interface: apierr.Payments, BaseURL: ts.URL, Log: lg.Logger,
		Auth:  auth.NewStatic(auth.NewSecret("super-secret-token")),
		Sleep: func(context.Context, time.Duration) error { return nil },
		OnResult: func(iface apierr.Interface, path string, status int, d time.Duration, err error) {
			got = append(got, res{path, status, err})
		}})
	if _, err := c.Do(context.Background(), transport.Request{Path: "/v3/payments/p1"}, nil); err != nil {
		t.Fatal(err)
	}
	lg.Close()
	if len(got) != 2 || got[0].status != 500 || got[0].err == nil || got[1].status != 200 || got[1].err != nil || got[1].path != "/v3/payments/p1" {
		t.Errorf("OnResult calls %+v", got)
	}
	raw, err := os.ReadFile(filepath.Join(dir, transport.LogFile))
	if err != nil {
		t.Fatal(err)
	}
	log := string(raw)
	for _, want := range []string{`"method":"GET"`, `"path":"/v3/payments/p1"`, `"status":500`, `"code":"SYS_001"`, `"attempt":2`, `"status":200`, `"duration_ms"`} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %s:\n%s", want, log)
		}
	}
	if strings.Contains(log, "super-secret-token") || strings.Contains(strings.ToLower(log), "authorization") {
		t.Errorf("log leaks a secret:\n%s", log)
	}
	if st, _ := os.Stat(filepath.Join(dir, transport.LogFile)); st.Mode().Perm() != 0o600 {
		t.Errorf("log mode %v", st.Mode().Perm())
	}
}

func TestQueryAndEscapedPath(t *testing.T) {
	var seen atomic.Value
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen.Store(r.URL.RequestURI())
		w.WriteHeader(204)
	}))
	defer ts.Close()
	c, _ := transport.New(transport.Config{Interface: apierr.Payments, BaseURL: ts.URL + "/payments/"})
	resp, err := c.Do(context.Background(), transport.Request{Path: "/v3/payments/" + transport.PathEscape("a/b c"),
		Query: map[string][]string{"internalId": {"x&y"}}}, &struct{}{})
	if err != nil || resp.Status != 204 {
		t.Fatal(err, resp)
	}
	if got := seen.Load().(string); got != "/payments/v3/payments/a%2Fb%20c?internalId=x%26y" {
		t.Errorf("request URI %s", got)
	}
}

// TestHeldFailures: failures of calls made with a held context reach
// OnCall only when released; dropped ones never; successes at once.
func TestHeldFailures(t *testing.T) {
	var reported []string
	s := &script{steps: []func(http.ResponseWriter){rawStep(404, "no"), ok200, rawStep(400, "bad")}}
	ts := httptest.NewServer(s)
	defer ts.Close()
	c, err := transport.New(transport.Config{Interface: apierr.Custody, BaseURL: ts.URL,
		OnCall: func(_ apierr.Interface, path string, _ time.Duration, err error) {
			reported = append(reported, fmt.Sprintf("%s %v", path, err != nil))
		}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, held := transport.Hold(context.Background())
	c.Do(ctx, transport.Request{Path: "/probe"}, nil)
	c.Do(ctx, transport.Request{Path: "/ok"}, nil)
	if fmt.Sprint(reported) != "[/ok false]" {
		t.Fatalf("reported %v before settling", reported)
	}
	held.Drop()
	ctx, held = transport.Hold(context.Background())
	c.Do(ctx, transport.Request{Path: "/bad"}, nil)
	held.Release()
	if fmt.Sprint(reported) != "[/ok false /bad true]" {
		t.Fatalf("reported %v", reported)
	}
}

// refusing is a token source that answers every caller with the same
// refusal, as auth.Cached does while it remembers one.
type refusing struct{ err *apierr.Error }

func (r refusing) Token(context.Context) (auth.Secret, error) { return auth.Secret{}, r.err }
func (refusing) Invalidate(auth.Secret) bool                  { return false }

// TestSharedFailureIsNotStamped: calls that fail with an error other calls
// hold too (the token source's refusal) each get it stamped with their
// attempts and profile key on their own copy; the shared one is left as
// it was (under -race, concurrent calls would otherwise write it while
// another reads it).
func TestSharedFailureIsNotStamped(t *testing.T) {
	shared := &apierr.Error{Interface: apierr.Auth, HTTPStatus: 401, Code: "ERR000.020", Class: apierr.ClassCredentials}
	c, err := transport.New(transport.Config{Interface: apierr.Wallet, BaseURL: "http://127.0.0.1:1", Auth: refusing{shared},
		ConfigKey: "profiles.p.wallet", Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = c.Do(context.Background(), transport.Request{Path: "/v1/vaults"}, nil)
			if e, ok := apierr.As(errs[i]); ok {
				_ = e.Error() // read as a view renders it
			}
		}()
	}
	wg.Wait()
	for i, err := range errs {
		e, ok := apierr.As(err)
		if !ok || e.Code != "ERR000.020" || e.Attempts != 1 || e.ConfigKey != "profiles.p.wallet" {
			t.Errorf("call %d: %#v", i, err)
		}
	}
	if shared.Attempts != 0 || shared.ConfigKey != "" {
		t.Errorf("the source's error was stamped: attempts %d, key %q", shared.Attempts, shared.ConfigKey)
	}
}

// TestDeadlineMidRetryIsAFailure: a call whose caller's deadline (a poll's
// budget) runs out while the platform keeps failing ends as that failure,
// told to OnCall once with its code: the errors view and the health see
// it. A call the caller cancels is not told.
func TestDeadlineMidRetryIsAFailure(t *testing.T) {
	for _, deadline := range []bool{true, false} {
		s := &script{steps: []func(http.ResponseWriter){sys500}}
		ts := httptest.NewServer(s)
		var calls []error
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		if !deadline {
			ctx, cancel = context.WithCancel(context.Background())
		}
		c, _ := transport.New(transport.Config{Interface: apierr.Payments, BaseURL: ts.URL,
			Sleep: func(ctx context.Context, d time.Duration) error {
				if !deadline {
					cancel() // the page closes during the wait
				}
				<-ctx.Done() // the budget runs out during the wait
				return ctx.Err()
			},
			OnCall: func(_ apierr.Interface, _ string, _ time.Duration, err error) { calls = append(calls, err) }})
		_, err := c.Do(ctx, transport.Request{Path: "/x"}, nil)
		cancel()
		ts.Close()
		e, isAPI := apierr.As(err)
		switch {
		case deadline && (!isAPI || e.Code != "SYS_001" || len(calls) != 1 || calls[0] == nil):
			t.Errorf("deadline: err %v, OnCall %v; want SYS_001 told once", err, calls)
		case !deadline && (!errors.Is(err, context.Canceled) || len(calls) != 0):
			t.Errorf("cancel: err %v, OnCall %v; want the cancellation, not told", err, calls)
		}
	}
}

// observed records what an Observer is told.
type observed struct{ calls []string }

func (o *observed) Attempt(iface, method, path string, status int, d time.Duration) {
	o.calls = append(o.calls, fmt.Sprintf("attempt %s %s %s %d", iface, method, path, status))
}

func (o *observed) Retry(iface, method, path string) {
	o.calls = append(o.calls, fmt.Sprintf("retry %s %s %s", iface, method, path))
}

// The observer (the process's metrics) hears each attempt with its
// method and status, and each retry before it is sent again.
func TestObserverHearsAttemptsAndRetries(t *testing.T) {
	s := &script{steps: []func(http.ResponseWriter){sys500, ok200}}
	ts := httptest.NewServer(s)
	defer ts.Close()
	var o observed
	c, _ := transport.New(transport.Config{Interface: apierr.Payments, BaseURL: ts.URL, Observer: &o,
		Sleep: func(context.Context, time.Duration) error { return nil }})
	if _, err := c.Do(context.Background(), transport.Request{Method: http.MethodPost, Path: "/v3/payments/filter", Idempotent: true}, nil); err != nil {
		t.Fatal(err)
	}
	want := []string{"attempt payments POST /v3/payments/filter 500", "retry payments POST /v3/payments/filter", "attempt payments POST /v3/payments/filter 200"}
	if !slices.Equal(o.calls, want) {
		t.Errorf("observer heard %q, want %q", o.calls, want)
	}
}
