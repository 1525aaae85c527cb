package auth_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"treasury/sandbox/sandboxtest"
	"treasury/wire/apierr"
	"treasury/wire/auth"
	"treasury/wire/wallet"
)

func TestSecretNeverPrints(t *testing.T) {
	s := auth.NewSecret("hunter2-very-secret")
	var buf bytes.Buffer
	slog.New(slog.NewTextHandler(&buf, nil)).Info("x", "tok", s, "cfg", auth.PaymentsConfig{ClientSecret: s})
	j, _ := json.Marshal(struct{ S auth.Secret }{s})
	outs := []string{fmt.Sprint(s), fmt.Sprintf("%v %s %+v %#v %q", s, s, s, s, s), buf.String(), string(j),
		fmt.Sprintf("%+v", auth.PaymentsConfig{ClientSecret: s})}
	for _, o := range outs {
		if strings.Contains(o, "hunter2") {
			t.Errorf("secret printed: %s", o)
		}
	}
	if s.Reveal() != "hunter2-very-secret" {
		t.Errorf("Reveal = %q", s.Reveal())
	}
}

// clock is a settable test clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func TestCachedReuseRefreshAndExpiry(t *testing.T) {
	clk := &clock{t: time.Date(2026, 11, 16, 9, 0, 0, 0, time.UTC)}
	var n, told atomic.Int32
	src := auth.NewCached(func(context.Context) (auth.Token, error) {
		i := n.Add(1)
		return auth.Token{Value: auth.NewSecret(fmt.Sprintf("tok-%d", i)), ExpiresIn: time.Hour}, nil
	}, auth.CachedOptions{Now: clk.Now, OnFetch: func(err error) {
		if err == nil {
			told.Add(1)
		}
	}})
	ctx := context.Background()
	get := func() string {
		t.Helper()
		s, err := src.Token(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return s.Reveal()
	}
	if got := get(); got != "tok-1" {
		t.Fatalf("first token %q", got)
	}
	if want := clk.Now().Add(time.Hour); !src.Expiry().Equal(want) {
		t.Errorf("expiry %v, want %v", src.Expiry(), want)
	}
	clk.Add(58 * time.Minute)
	if got := get(); got != "tok-1" {
		t.Errorf("at 58 min got %q, want the cached tok-1", got)
	}
	clk.Add(61 * time.Second) // 59:01: within the 60 s margin
	if got := get(); got != "tok-2" {
		t.Errorf("within the margin got %q, want a new token", got)
	}
	// Invalidate of a stale token keeps the current one.
	src.Invalidate(auth.NewSecret("tok-1"))
	if got := get(); got != "tok-2" {
		t.Errorf("after stale invalidate got %q", got)
	}
	if !src.Invalidate(auth.NewSecret("tok-2")) {
		t.Error("a cached source must report it can refresh")
	}
	if got := get(); got != "tok-3" {
		t.Errorf("after invalidate got %q, want tok-3", got)
	}
	// OnFetch (the metrics' token refreshes) heard each of the three.
	if told.Load() != 3 {
		t.Errorf("OnFetch told of %d tokens, want 3", told.Load())
	}
}

func TestCachedShortLifetimeNeverKeptPastExpiry(t *testing.T) {
	clk := &clock{t: time.Unix(1_800_000_000, 0)}
	var n atomic.Int32
	src := auth.NewCached(func(context.Context) (auth.Token, error) {
		n.Add(1)
		return auth.Token{Value: auth.NewSecret("t"), ExpiresIn: 10 * time.Second}, nil
	}, auth.CachedOptions{Now: clk.Now})
	src.Token(context.Background())
	clk.Add(8 * time.Second) // margin is 10 % of 10 s: still good
	src.Token(context.Background())
	if n.Load() != 1 {
		t.Fatalf("fetches = %d, want 1", n.Load())
	}
	clk.Add(time.Second + time.Millisecond) // 9.001 s: past 90 %
	src.Token(context.Background())
	if n.Load() != 2 {
		t.Fatalf("fetches = %d, want 2", n.Load())
	}
	issued, exp := src.Held()
	if !issued.Equal(clk.Now()) || !exp.Equal(clk.Now().Add(10*time.Second)) {
		t.Errorf("held issued %v, expiring %v; want %v and 10 s on", issued, exp, clk.Now())
	}
	clk.Add(time.Hour)
	if !src.Expiry().Before(clk.Now()) {
		t.Fatal("expiry should be in the past")
	}
	// Past its expiry the token is no longer held: the header does not
	// count down to a token the next call replaces.
	if issued, exp := src.Held(); !issued.IsZero() || !exp.IsZero() {
		t.Errorf("a token past its expiry is reported held: issued %v, expiring %v", issued, exp)
	}
	src.Token(context.Background())
	if n.Load() != 3 {
		t.Fatalf("an expired token was reused: fetches = %d", n.Load())
	}
}

// TestCachedSingleflight runs in a synctest bubble: synctest.Wait returns
// once all 50 callers are blocked (one in the fetch, the rest waiting for
// it), so they are known to have piled up without a wall-clock sleep.
func TestCachedSingleflight(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		var n atomic.Int32
		src := auth.NewCached(func(context.Context) (auth.Token, error) {
			n.Add(1)
			<-release
			return auth.Token{Value: auth.NewSecret("shared"), ExpiresIn: time.Hour}, nil
		}, auth.CachedOptions{})
		var wg sync.WaitGroup
		errs := make(chan error, 50)
		for range 50 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s, err := src.Token(context.Background())
				if err == nil && s.Reveal() != "shared" {
					err = fmt.Errorf("got %q", s.Reveal())
				}
				errs <- err
			}()
		}
		synctest.Wait() // every caller is inside Token
		close(release)
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Error(err)
			}
		}
		if n.Load() != 1 {
			t.Errorf("fetches = %d, want 1", n.Load())
		}
	})
}

func TestCachedCallerCancelDoesNotFailOthers(t *testing.T) {
	release := make(chan struct{})
	src := auth.NewCached(func(ctx context.Context) (auth.Token, error) {
		select {
		case <-release:
		case <-ctx.Done():
			return auth.Token{}, ctx.Err()
		}
		return auth.Token{Value: auth.NewSecret("ok"), ExpiresIn: time.Hour}, nil
	}, auth.CachedOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { _, err := src.Token(ctx); done <- err }()
	other := make(chan error)
	go func() { _, err := src.Token(context.Background()); other <- err }()
	cancel()
	if err := <-done; err == nil {
		t.Error("cancelled caller should get its ctx error")
	}
	close(release)
	if err := <-other; err != nil {
		t.Errorf("other caller: %v", err)
	}
}

func TestPaymentsSourceAgainstSandbox(t *testing.T) {
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	c := srv.Credentials()
	src := auth.NewPayments(auth.PaymentsConfig{
		AuthURL: srv.Endpoints().Auth, ClientID: c.PaymentsClientID,
		ClientSecret: auth.NewSecret(c.PaymentsClientSecret), Audience: c.PaymentsAudience,
	})
	tok, err := src.Token(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if tok.IsZero() {
		t.Fatal("empty token")
	}
	if left := time.Until(src.Expiry()); left < 59*time.Minute || left > time.Hour {
		t.Errorf("expiry in %v, want about an hour (expires_in 3600)", left)
	}
	again, _ := src.Token(context.Background())
	if !again.Equal(tok) {
		t.Error("token not reused")
	}

	for name, cfg := range map[string]auth.PaymentsConfig{
		"wrong secret":   {ClientID: c.PaymentsClientID, ClientSecret: auth.NewSecret("nope"), Audience: c.PaymentsAudience},
		"wrong audience": {ClientID: c.PaymentsClientID, ClientSecret: auth.NewSecret(c.PaymentsClientSecret), Audience: "urn:payments-prod:other"},
	} {
		cfg.AuthURL = srv.Endpoints().Auth
		_, err := auth.NewPayments(cfg).Token(context.Background())
		e, ok := apierr.As(err)
		if !ok || e.Class != apierr.ClassCredentials {
			t.Errorf("%s: got %v, want a Credentials-class apierr", name, err)
		}
	}
}

func TestWalletSourceBadCredentialsIsCredentials(t *testing.T) {
	var calls atomic.Int32
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		var req wallet.TokenRequest
		json.NewDecoder(r.Body).Decode(&req)
		if r.URL.Path != wallet.PathToken || r.Method != http.MethodPost {
			http.NotFound(w, r)
			return
		}
		if req.ClientSecret != "right" {
			w.WriteHeader(http.StatusBadRequest)
			json.NewEncoder(w).Encode(apierr.WalletBody{Code: apierr.GRPCInvalidArgument, Message: "invalid request",
				Details: []apierr.WalletDetail{apierr.ErrorInfo("ERR000.020", "wallet"), apierr.RequestInfo("r1")}})
			return
		}
		json.NewEncoder(w).Encode(wallet.TokenResponse{AccessToken: "w", ExpiresIn: 600, TokenType: "Bearer"})
	}))
	defer ts.Close()
	_, err := auth.NewWallet(auth.WalletConfig{BaseURL: ts.URL, ClientID: "c", ClientSecret: auth.NewSecret("wrong")}).Token(context.Background())
	e, ok := apierr.As(err)
	if !ok || e.Class != apierr.ClassCredentials || e.Code != "ERR000.020" {
		t.Fatalf("got %v, want ERR000.020 classed Credentials", err)
	}
	if e.Retryable() {
		t.Error("a configuration error must not be retryable")
	}
	src := auth.NewWallet(auth.WalletConfig{BaseURL: ts.URL, ClientID: "c", ClientSecret: auth.NewSecret("right")})
	tok, err := src.Token(context.Background())
	if err != nil || tok.Reveal() != "w" {
		t.Fatalf("token %v, %v", tok, err)
	}
	if left := time.Until(src.Expiry()); left > 10*time.Minute || left < 9*time.Minute {
		t.Errorf("expiry in %v, want 10 min", left)
	}
}

// TestRefusalIsRemembered: a refusal of the credentials is answered from
// memory for RefusalWait (then twice as long), so ten topics polling with
// a wrong secret cost the issuer one request, not ten; Forget asks again.
func TestRefusalIsRemembered(t *testing.T) {
	now := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	calls := 0
	refusal := &apierr.Error{Interface: apierr.Wallet, HTTPStatus: 400, Code: "ERR000.020", Class: apierr.ClassCredentials}
	c := auth.NewCached(func(context.Context) (auth.Token, error) { calls++; return auth.Token{}, refusal },
		auth.CachedOptions{Now: func() time.Time { return now }})
	var seen []*apierr.Error
	for range 10 {
		_, err := c.Token(context.Background())
		e, ok := apierr.As(err)
		if !ok || e.Code != refusal.Code || e.Class != refusal.Class {
			t.Fatalf("err %v", err)
		}
		for _, s := range seen {
			if s == e { // the transport stamps it: each caller needs its own
				t.Fatal("two callers were given the same error value")
			}
		}
		seen = append(seen, e)
	}
	if calls != 1 {
		t.Fatalf("%d requests for 10 tokens within the wait", calls)
	}
	now = now.Add(auth.RefusalWait)
	c.Token(context.Background())
	now = now.Add(auth.RefusalWait) // the second wait is twice as long
	c.Token(context.Background())
	if calls != 2 {
		t.Fatalf("%d requests, want 2", calls)
	}
	c.Forget()
	c.Token(context.Background())
	if calls != 3 {
		t.Fatalf("%d requests after Forget, want 3", calls)
	}
}
