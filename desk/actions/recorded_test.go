package actions_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"

	"treasury/config"
	"treasury/desk/actions"
	"treasury/desk/audit"
	"treasury/desk/platform"
	"treasury/process/sandboxprofile"
	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
	"treasury/wire/custody"
	"treasury/wire/wallet"
	walletclient "treasury/wire/wallet/client"
)

// wire records every request that is not a read, as the platform received
// it: method and path relative to the interface's base URL, and body.
type wire struct {
	next *httputil.ReverseProxy
	mu   sync.Mutex
	got  []sentReq
}

func (w *wire) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		path := r.URL.EscapedPath()
		for _, prefix := range []string{sandbox.PrefixWallet, sandbox.PrefixCustody, sandbox.PrefixAuth} {
			path = strings.TrimPrefix(path, prefix)
		}
		w.mu.Lock()
		w.got = append(w.got, sentReq{method: r.Method, path: path, body: body})
		w.mu.Unlock()
	}
	w.next.ServeHTTP(rw, r)
}

func (w *wire) sent() []sentReq {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]sentReq(nil), w.got...)
}

// Against the sandbox's variant face, whose wallet serves only the vault
// form of the per-wallet paths, a fresh process (nothing learnt) freezes,
// unfreezes, triggers a sweep, locks and unlocks an endpoint: every attempt
// line's request (method, path as sent, body) is the request the platform
// received, and each action reached it once, never first at the form the
// server does not serve.
func TestAttemptLinesAreTheRequestsSent(t *testing.T) {
	srv := sandboxtest.Listen(t, sandboxtest.VariantOptions())
	u, _ := url.Parse(srv.URL)
	w := &wire{next: httputil.NewSingleHostReverseProxy(u)}
	front := httptest.NewServer(w)
	t.Cleanup(front.Close)
	cfg := sandboxprofile.At(config.Builtin(), front.URL, srv.Seed(), srv.Credentials())
	p, err := platform.Open(cfg, platform.Options{Now: srv.Clock().Now})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	log, err := audit.Open(t.TempDir(), audit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	act := actions.New(actions.Clients{Transactions: p.WalletTransactions, Custody: p.Custody, CanSign: p.CustodyCanSign},
		actions.Identity{Profile: "sandbox", Environment: "test", Who: tester}, log)
	ctx := context.Background()

	// What the views hold: a transaction read with the monitoring
	// credential, a sweep, an endpoint.
	txs, err := p.Wallet.Transactions(ctx, wallet.ListFilter{})
	if err != nil {
		t.Fatal(err)
	}
	var tx wallet.Transaction
	for _, x := range txs {
		if freezable(x) {
			tx = x
			break
		}
	}
	sws, err := p.Wallet.Sweeps(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var sw wallet.SweepConfig
	for _, s := range sws {
		if !s.SweepRunning {
			sw = s
		}
	}
	eps, err := p.Custody.Endpoints(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var ep, locked custody.Endpoint
	for _, e := range eps {
		switch e.Lock {
		case custody.LockUnlocked:
			ep = e
		case custody.LockLocked:
			locked = e
		}
	}
	if tx.ID == "" || sw.ID == "" || ep.ID == "" || locked.ID == "" {
		t.Fatalf("a freezable transaction %q, an idle sweep %q, an unlocked endpoint %q, a locked one %q", tx.ID, sw.ID, ep.ID, locked.ID)
	}
	start := len(w.sent())
	steps := []struct {
		name string
		run  func() error
	}{
		{"freeze", func() error {
			_, _, err := act.FreezeTx(ctx, walletclient.Route{}, tx, true, "hold", act.Key(actions.Freeze, tx.ID))
			return err
		}},
		{"unfreeze", func() error {
			_, _, err := act.FreezeTx(ctx, walletclient.Route{}, tx, false, "release", act.Key(actions.Unfreeze, tx.ID))
			return err
		}},
		{"sweep", func() error {
			_, _, err := act.TriggerSweep(ctx, sw, act.Key(actions.Sweep, sw.ID))
			return err
		}},
		{"lock", func() error {
			_, _, err := act.LockEndpoint(ctx, ep, true, "suspected compromise", act.Key(actions.Lock, ep.ID))
			return err
		}},
		{"unlock", func() error {
			_, _, err := act.LockEndpoint(ctx, locked, false, "cleared", act.Key(actions.Unlock, locked.ID))
			return err
		}},
	}
	for _, s := range steps {
		if err := s.run(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
	}
	var sent []sentReq
	for _, r := range w.sent()[start:] {
		if !strings.HasSuffix(r.path, "/token") { // a token is not an action
			sent = append(sent, r)
		}
	}
	es, err := log.Read()
	if err != nil {
		t.Fatal(err)
	}
	var attempts []audit.Record
	for _, r := range es {
		if r.Outcome == audit.OutcomeAttempt {
			attempts = append(attempts, r)
		}
	}
	if len(attempts) != len(steps) || len(sent) != len(steps) {
		t.Fatalf("%d attempt lines and %d requests for %d actions: %+v", len(attempts), len(sent), len(steps), sent)
	}
	for i, a := range attempts {
		if got := sent[i].method + " " + sent[i].path; a.Request != got || !bytes.Equal(a.RequestBody, sent[i].body) {
			t.Errorf("%s: the attempt line says %q %s; the platform got %q %s", a.Action, a.Request, a.RequestBody, got, sent[i].body)
		}
	}
	if want := "/v2/vaults/" + tx.VaultID + "/wallets/" + tx.WalletID + "/transactions/" + tx.ID + "/freeze"; sent[0].path != want {
		t.Errorf("the freeze went to %s, want the vault form %s", sent[0].path, want)
	}
}
