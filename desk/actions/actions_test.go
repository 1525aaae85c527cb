package actions_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"treasury/config"
	"treasury/desk/actions"
	"treasury/desk/audit"
	"treasury/desk/platform"
	"treasury/process/sandboxprofile"
	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
	"treasury/wire/wallet"
	walletclient "treasury/wire/wallet/client"
)

// env is a frozen sandbox, a platform on it whose requests are recorded
// and whose retry waits run afterWait instead of sleeping, an audit log
// and an actor.
type env struct {
	srv       *sandbox.Server
	p         *platform.Platform
	log       *audit.Log
	act       *actions.Actor
	mu        sync.Mutex
	sent      []sentReq
	waits     int
	afterWait func(n int)
}

type sentReq struct {
	method, path string
	body         []byte
}

func (e *env) RoundTrip(r *http.Request) (*http.Response, error) {
	var body []byte
	if r.Body != nil {
		body, _ = io.ReadAll(r.Body)
		r.Body.Close()
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	e.mu.Lock()
	e.sent = append(e.sent, sentReq{r.Method, r.URL.Path, body})
	e.mu.Unlock()
	return http.DefaultTransport.RoundTrip(r)
}

func (e *env) requests() []sentReq {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]sentReq(nil), e.sent...)
}

func newEnv(t *testing.T, readOnly bool) *env {
	t.Helper()
	e := &env{srv: sandboxtest.Listen(t, sandboxtest.Options())}
	cfg := sandboxprofile.Of(e.srv, config.Builtin())
	cfg.ReadOnly = readOnly
	sleep := func(ctx context.Context, d time.Duration) error {
		e.mu.Lock()
		e.waits++
		n, then := e.waits, e.afterWait
		e.mu.Unlock()
		if then != nil {
			then(n)
		}
		return ctx.Err()
	}
	p, err := platform.Open(cfg, platform.Options{Now: e.srv.Clock().Now, Sleep: sleep, HTTP: &http.Client{Transport: e}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	e.p = p
	if e.log, err = audit.Open(t.TempDir(), audit.Options{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.log.Close() })
	e.act = actions.New(actions.Clients{Transactions: p.WalletTransactions, Custody: p.Custody, CanSign: p.CustodyCanSign},
		actions.Identity{Profile: cfg.Profile, Environment: cfg.Environment, Who: tester, ReadOnly: readOnly}, e.log)
	return e
}

func (e *env) faults(t *testing.T, f sandbox.FaultSettings) {
	t.Helper()
	if err := e.srv.SetFaults(f); err != nil {
		t.Fatal(err)
	}
}

// tester is the local operator of the tests.
var tester = audit.Who{Via: audit.ViaLocal, User: "tester"}

func (e *env) audit(t *testing.T) []audit.Record {
	t.Helper()
	es, err := e.log.Read()
	if err != nil {
		t.Fatal(err)
	}
	return es
}

// freezable reads the transactions with the acting client (which also
// gets its token and learns each transaction's wallet) and returns one
// that can be frozen.
func (e *env) freezable(t *testing.T) wallet.Transaction {
	t.Helper()
	all, err := e.p.WalletTransactions.Transactions(context.Background(), wallet.ListFilter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tx := range all {
		if wallet.FreezeRuledOut(tx, true) == "" {
			return tx
		}
	}
	t.Fatal("no freezable transaction")
	return wallet.Transaction{}
}

// A freeze meets a SYS_ 500 (wallet code 13), then code 14, then goes
// through: every attempt carries the one mutationId of the confirmed
// action, the freeze is applied once and audited once, ok.
func TestFreezeRetriedAfterFaultsAppliesOnce(t *testing.T) {
	e := newEnv(t, false)
	ctx := context.Background()
	tx := e.freezable(t)
	e.afterWait = func(n int) {
		if n == 1 {
			e.faults(t, sandbox.FaultSettings{UnavailableRate: 1})
		} else {
			e.faults(t, sandbox.FaultSettings{})
		}
	}
	rt, _, err := e.act.FreezeRoute(ctx, tx, true)
	if err != nil {
		t.Fatal(err)
	}
	start := len(e.requests())
	e.faults(t, sandbox.FaultSettings{ErrorRate: 1})
	k := e.act.Key(actions.Freeze, tx.ID)
	mid := k.ID
	got, sent, err := e.act.FreezeTx(ctx, rt, tx, true, "hold for review", k)
	if err != nil {
		t.Fatal(err)
	}
	if !got.FreezeInfo.IsFrozen || sent.Key != mid || sent.Retry != nil {
		t.Fatalf("answer frozen %v, sent %+v", got.FreezeInfo.IsFrozen, sent)
	}
	var ids []string
	for _, r := range e.requests()[start:] {
		if r.method == http.MethodPut && strings.HasSuffix(r.path, "/freeze") {
			var body wallet.FreezeRequest
			if err := json.Unmarshal(r.body, &body); err != nil {
				t.Fatal(err)
			}
			ids = append(ids, body.MutationID)
		}
	}
	if len(ids) != 3 || ids[0] != mid || ids[1] != mid || ids[2] != mid {
		t.Fatalf("mutationIds sent %v, want %s three times", ids, mid)
	}
	if e.waits != 2 {
		t.Errorf("%d waits, want 2", e.waits)
	}
	h, err := e.p.Wallet.FreezeHistory(ctx, walletclient.RefOf(tx))
	if err != nil {
		t.Fatal(err)
	}
	applied := 0
	for _, ev := range h {
		if strings.EqualFold(ev.MutationID, mid) {
			applied++
		}
	}
	if applied != 1 || len(h) != len(tx.FreezeInfo.History)+1 {
		t.Fatalf("applied %d times; history %d, was %d", applied, len(h), len(tx.FreezeInfo.History))
	}
	// One attempt line, written before the first request, and its
	// outcome, which names it.
	es := e.audit(t)
	if len(es) != 2 || es[0].Outcome != audit.OutcomeAttempt || es[1].Outcome != audit.OutcomeDone || es[1].Attempt != es[0].Seq {
		t.Fatalf("audit %+v", es)
	}
	for _, r := range es {
		if r.MutationID != mid || r.Action != actions.Freeze || r.Target.ID != tx.ID || r.Target.Kind != "transaction" ||
			r.Target.Detail["wallet"] != tx.WalletID || r.Reason != "hold for review" || r.Who != tester {
			t.Fatalf("audit %+v", r)
		}
	}
	if want := "PUT /v2/wallets/" + tx.WalletID + "/transactions/" + tx.ID + "/freeze"; es[0].Request != want || es[0].Request != sent.Request ||
		string(es[0].RequestBody) != string(e.requests()[start].body) {
		t.Fatalf("attempt's request %q %s, want %q %s", es[0].Request, es[0].RequestBody, want, e.requests()[start].body)
	}
}

// Read-only refuses every action before anything is sent, and audits each
// attempt as refused.
func TestReadOnlyRefusesEverything(t *testing.T) {
	e := newEnv(t, true)
	ctx := context.Background()
	tx := e.freezable(t)
	sws, err := e.p.Wallet.Sweeps(ctx)
	if err != nil || len(sws) == 0 {
		t.Fatalf("sweeps: %v, %v", sws, err)
	}
	eps, err := e.p.Custody.Endpoints(ctx)
	if err != nil || len(eps) == 0 {
		t.Fatalf("endpoints: %v, %v", eps, err)
	}
	start := len(e.requests())
	attempts := map[string]error{}
	_, _, attempts[actions.Freeze] = e.act.FreezeTx(ctx, walletclient.Route{}, tx, true, "hold", e.act.Key(actions.Freeze, tx.ID))
	_, _, attempts[actions.Unfreeze] = e.act.FreezeTx(ctx, walletclient.Route{}, tx, false, "release", e.act.Key(actions.Unfreeze, tx.ID))
	_, _, attempts[actions.Sweep] = e.act.TriggerSweep(ctx, sws[0], e.act.Key(actions.Sweep, sws[0].ID))
	_, _, attempts[actions.Lock] = e.act.LockEndpoint(ctx, eps[0], true, "hold", e.act.Key(actions.Lock, eps[0].ID))
	_, _, attempts[actions.Unlock] = e.act.LockEndpoint(ctx, eps[0], false, "release", e.act.Key(actions.Unlock, eps[0].ID))
	for a, err := range attempts {
		if !errors.Is(err, actions.ErrReadOnly) {
			t.Errorf("%s: %v, want ErrReadOnly", a, err)
		}
		if e.act.Can(a) == nil {
			t.Errorf("Can(%s) allows it", a)
		}
	}
	if n := len(e.requests()) - start; n != 0 {
		t.Fatalf("%d requests sent in read-only", n)
	}
	es := e.audit(t)
	if len(es) != len(attempts) {
		t.Fatalf("%d audit entries for %d attempts", len(es), len(attempts))
	}
	for _, a := range es {
		if a.Outcome != audit.OutcomeRefused || !strings.Contains(a.Error, "read-only") || a.Who != tester {
			t.Errorf("audit %+v, want refused (read-only)", a)
		}
		if _, ok := attempts[a.Action]; !ok {
			t.Errorf("audit of unknown action %q", a.Action)
		}
	}
	if got, err := e.p.Wallet.Transaction(ctx, tx.ID); err != nil || got.FreezeInfo.IsFrozen {
		t.Fatalf("transaction after refusals: frozen %v, %v", got.FreezeInfo.IsFrozen, err)
	}
}

// A freeze without a reason, or without a TRANSACTIONS credential, is
// refused and audited; nothing is sent.
func TestRefusedWithoutReasonOrCredential(t *testing.T) {
	e := newEnv(t, false)
	ctx := context.Background()
	tx := e.freezable(t)
	start := len(e.requests())
	if _, _, err := e.act.FreezeTx(ctx, walletclient.Route{}, tx, true, "  ", e.act.Key(actions.Freeze, tx.ID)); !errors.Is(err, actions.ErrNoReason) {
		t.Fatalf("no reason: %v", err)
	}
	bare := actions.New(actions.Clients{}, actions.Identity{Profile: "p", Environment: "test", Who: tester}, e.log)
	_, _, err := bare.FreezeTx(ctx, walletclient.Route{}, tx, true, "hold", bare.Key(actions.Freeze, tx.ID))
	if !errors.As(err, new(actions.ErrNotConfigured)) || !strings.Contains(err.Error(), "TRANSACTIONS") {
		t.Fatalf("no credential: %v", err)
	}
	if n := len(e.requests()) - start; n != 0 {
		t.Fatalf("%d requests sent", n)
	}
	es := e.audit(t)
	if len(es) != 2 || es[0].Outcome != audit.OutcomeRefused || es[1].Outcome != audit.OutcomeRefused {
		t.Fatalf("audit %+v", es)
	}
}
