package actions_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
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
	"treasury/wire/apierr"
	"treasury/wire/custody"
	"treasury/wire/wallet"
	walletclient "treasury/wire/wallet/client"
)

// lossy is a proxy in front of the sandbox that loses answers: while drop
// is set, a request whose path ends in one of suffixes reaches the
// sandbox (which applies it), and then the connection is closed before
// any answer; while hold is set, the answer is held until the client gives
// up. It records the body of every such request. A request whose path
// holds one of lost (an id) is never forwarded, and one whose path holds
// one of late reaches the sandbox but its answer never comes back: the
// client, or its process, ends first.
type lossy struct {
	next     *httputil.ReverseProxy
	suffixes []string

	mu   sync.Mutex
	drop bool
	hold bool
	lost []string
	late []string
	sent []string // bodies of the matching requests
	// seen names each matching request by its method and last path
	// segment: "PUT freeze", "POST trigger".
	seen []string
}

func newLossy(t *testing.T, sandboxURL string, suffixes ...string) (*lossy, string) {
	t.Helper()
	u, err := url.Parse(sandboxURL)
	if err != nil {
		t.Fatal(err)
	}
	l := &lossy{next: httputil.NewSingleHostReverseProxy(u), suffixes: suffixes}
	srv := httptest.NewServer(l)
	t.Cleanup(srv.Close)
	return l, srv.URL
}

func (l *lossy) set(drop, hold bool) {
	l.mu.Lock()
	l.drop, l.hold = drop, hold
	l.mu.Unlock()
}

func (l *lossy) lines() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.seen...)
}

func (l *lossy) bodies() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.sent...)
}

func (l *lossy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	match := false
	for _, s := range l.suffixes {
		match = match || strings.HasSuffix(r.URL.Path, s)
	}
	if !match {
		l.next.ServeHTTP(w, r)
		return
	}
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	l.mu.Lock()
	l.sent = append(l.sent, string(body))
	l.seen = append(l.seen, r.Method+" "+r.URL.Path[strings.LastIndexByte(r.URL.Path, '/')+1:])
	drop, hold := l.drop, l.hold
	for _, id := range l.lost {
		if strings.Contains(r.URL.Path, id) {
			l.mu.Unlock()
			<-r.Context().Done()
			return
		}
	}
	for _, id := range l.late {
		hold = hold || strings.Contains(r.URL.Path, id)
	}
	l.mu.Unlock()
	if !drop && !hold {
		l.next.ServeHTTP(w, r)
		return
	}
	// The sandbox gets the request and answers; the client never sees it.
	rec := httptest.NewRecorder()
	l.next.ServeHTTP(rec, r.Clone(context.Background()))
	if hold {
		<-r.Context().Done()
		return
	}
	conn, _, err := w.(http.Hijacker).Hijack()
	if err == nil {
		conn.Close()
	}
}

// lossyEnv is a frozen sandbox whose wallet and custody interfaces are
// reached through a lossy proxy, with retry waits that do not wait.
type lossyEnv struct {
	srv   *sandbox.Server
	proxy *lossy
	p     *platform.Platform
	log   *audit.Log
	// pending is shared by every actor of the env, as in one process.
	pending *actions.Pending
}

func newLossyEnv(t *testing.T, suffixes ...string) *lossyEnv {
	t.Helper()
	e := &lossyEnv{srv: sandboxtest.Listen(t, sandboxtest.Options()), pending: actions.NewPending()}
	var base string
	e.proxy, base = newLossy(t, e.srv.URL, suffixes...)
	cfg := sandboxprofile.Of(e.srv, config.Builtin())
	cfg.Wallet.BaseURL = base + sandbox.PrefixWallet
	cfg.Custody.BaseURL = base + sandbox.PrefixCustody
	p, err := platform.Open(cfg, platform.Options{Now: e.srv.Clock().Now,
		Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	e.p = p
	if e.log, err = audit.Open(t.TempDir(), audit.Options{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.log.Close() })
	if _, err := e.pending.Follow(e.log); err != nil {
		t.Fatal(err)
	}
	return e
}

// actor is an operator's actor; all share the env's pending keys.
func (e *lossyEnv) actor(operator string) *actions.Actor {
	return actions.New(actions.Clients{Transactions: e.p.WalletTransactions, Custody: e.p.Custody,
		CanSign: e.p.CustodyCanSign, Pending: e.pending},
		actions.Identity{Profile: "sandbox", Environment: "sandbox", Who: audit.Who{Via: audit.ViaLocal, User: operator}}, e.log)
}

func (e *lossyEnv) tx(t *testing.T, ok func(wallet.Transaction) bool) wallet.Transaction {
	t.Helper()
	all, err := e.p.WalletTransactions.Transactions(context.Background(), wallet.ListFilter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tx := range all {
		if ok(tx) {
			return tx
		}
	}
	t.Fatal("no such transaction")
	return wallet.Transaction{}
}

func freezable(tx wallet.Transaction) bool {
	return wallet.FreezeRuledOut(tx, true) == ""
}

// mutationIDs are the mutationIds of the bodies the proxy saw.
func mutationIDs(t *testing.T, bodies []string) []string {
	t.Helper()
	var ids []string
	for _, b := range bodies {
		var r struct {
			MutationID string `json:"mutationId"`
		}
		if err := json.Unmarshal([]byte(b), &r); err != nil {
			t.Fatalf("body %q: %v", b, err)
		}
		ids = append(ids, r.MutationID)
	}
	return ids
}

// applied counts the freezes of tx under mid in the sandbox's history.
func (e *lossyEnv) applied(t *testing.T, tx wallet.Transaction, mid string) int {
	t.Helper()
	h, err := e.p.Wallet.FreezeHistory(context.Background(), walletclient.RefOf(tx))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, ev := range h {
		if strings.EqualFold(ev.MutationID, mid) {
			n++
		}
	}
	return n
}

// A freeze whose answer is lost after the platform applied it is unknown
// to the dashboard. The next decision on the transaction reconciles the
// key with the freeze history, which names it: its outcome is done, the
// key is spent, and the transaction reads frozen; nothing is sent again.
func TestLostAnswerIsReconciledAsApplied(t *testing.T) {
	e := newLossyEnv(t, "/freeze", "/unfreeze")
	ctx := context.Background()
	act := e.actor("alice")
	tx := e.tx(t, freezable)

	k := act.Key(actions.Freeze, tx.ID)
	if k.Retry != nil {
		t.Fatalf("a first freeze is a retry of %+v", k.Retry)
	}
	e.proxy.set(true, false)
	_, _, err := act.FreezeTx(ctx, walletclient.Route{}, tx, true, "hold for review", k)
	if err == nil || !actions.Unknown(err) {
		t.Fatalf("lost answers: %v, want an unknown outcome", err)
	}
	if n := e.applied(t, tx, k.ID); n != 1 {
		t.Fatalf("the sandbox applied the freeze %d times, want 1 (the answer was lost, not the request)", n)
	}
	e.proxy.set(false, false)
	sent := len(e.proxy.bodies())
	again, err := act.TxKey(ctx, tx, true)
	if err != nil || again.ID == k.ID || again.Retry != nil || len(again.Settled) != 1 ||
		again.Settled[0].Outcome != audit.OutcomeDone || again.Settled[0].Holds != "frozen" {
		t.Fatalf("key after the lost answer: %+v %v, want alice's freeze reconciled as done and a new key", again, err)
	}
	if other, err := act.TxKey(ctx, tx, false); err != nil || other.ID == k.ID || other.Retry != nil {
		t.Fatalf("an unfreeze reuses the freeze's key: %+v %v", other, err)
	}
	if n := len(e.proxy.bodies()); n != sent {
		t.Fatalf("reconciling sent %d actions", n-sent)
	}
	// A new freeze of the frozen transaction is refused by the platform,
	// a known outcome: it is never the retry of the applied one.
	_, _, err = act.FreezeTx(ctx, walletclient.Route{}, tx, true, "again", again)
	if ae, ok := apierr.As(err); !ok || ae.Code != "ERR010.008" || actions.Unknown(err) {
		t.Fatalf("a new freeze of a frozen transaction: %v, want a known ERR010.008", err)
	}
	if n := e.applied(t, tx, k.ID); n != 1 {
		t.Fatalf("after all, the freeze is applied %d times, want 1", n)
	}
}

// A freeze whose request never reached the platform (lost on the way,
// the caller's deadline passed) is unknown. Reconciled, the freeze history
// names no freeze under its key and nothing changed on the transaction
// since: the same intent goes again under the same mutationId, the dialog
// told why, and the platform applies it once; the answer, the key sent
// again, is read back.
func TestLostRequestRetryReusesMutationID(t *testing.T) {
	e := newLossyEnv(t, "/freeze")
	act := e.actor("alice")
	tx := e.tx(t, freezable)
	k := act.Key(actions.Freeze, tx.ID)
	e.proxy.mu.Lock()
	e.proxy.lost = []string{tx.ID}
	e.proxy.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	_, _, err := act.FreezeTx(ctx, walletclient.Route{}, tx, true, "hold", k)
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) || !actions.Unknown(err) {
		t.Fatalf("lost request: %v, want the deadline, unknown", err)
	}
	e.proxy.mu.Lock()
	e.proxy.lost = nil
	e.proxy.mu.Unlock()
	r, err := act.TxKey(context.Background(), tx, true)
	if err != nil || r.ID != k.ID || r.Retry == nil || r.Retry.Reason != "hold" || r.Retry.Err == "" || len(r.Settled) != 0 ||
		!strings.Contains(r.Why, "no event since "+k.ID+" was sent") {
		t.Fatalf("after a lost request: %+v %v, want a retry of %s and why", r, err, k.ID)
	}
	got, sent, err := act.FreezeTx(context.Background(), walletclient.Route{}, tx, true, "hold", r)
	if err != nil || !got.FreezeInfo.IsFrozen || sent.Key != k.ID || sent.Retry == nil || sent.Holds != "frozen" ||
		!strings.Contains(sent.Evidence, "read back") {
		t.Fatalf("retry: %+v %+v %v", got.FreezeInfo, sent, err)
	}
	if ids := mutationIDs(t, e.proxy.bodies()); len(ids) != 2 || ids[0] != k.ID || ids[1] != k.ID {
		t.Fatalf("mutationIds sent %v, want %s twice", ids, k.ID)
	}
	if n := e.applied(t, tx, k.ID); n != 1 {
		t.Fatalf("applied %d times", n)
	}
	if next, err := act.TxKey(context.Background(), tx, true); err != nil || next.ID == k.ID || next.Retry != nil {
		t.Fatalf("after a success the next freeze reuses %s: %+v %v", k.ID, next, err)
	}
}

// A freeze answered only after the caller gave up (the platform applied
// it) is unknown; reconciled, it is done.
func TestTimeoutIsReconciledAsApplied(t *testing.T) {
	e := newLossyEnv(t, "/freeze")
	act := e.actor("alice")
	tx := e.tx(t, freezable)
	k := act.Key(actions.Freeze, tx.ID)
	e.proxy.set(false, true)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	_, _, err := act.FreezeTx(ctx, walletclient.Route{}, tx, true, "hold", k)
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) || !actions.Unknown(err) {
		t.Fatalf("held answer: %v, want the deadline, unknown", err)
	}
	e.proxy.set(false, false)
	r, err := act.TxKey(context.Background(), tx, true)
	if err != nil || r.ID == k.ID || len(r.Settled) != 1 || r.Settled[0].Outcome != audit.OutcomeDone {
		t.Fatalf("after a timeout: %+v %v, want the freeze reconciled as done", r, err)
	}
	if ids := mutationIDs(t, e.proxy.bodies()); len(ids) != 1 {
		t.Fatalf("mutationIds sent %v, want %s once", ids, k.ID)
	}
}

// A sweep trigger answered 500 on every attempt (not applied) is unknown to
// the dashboard; the retry sends the same mutationId and starts one run.
// Another operator retrying the same sweep reuses it too, even one whose
// dialog had taken a key of its own: the key is decided when the attempt
// is written, and the open one makes this one its retry.
func TestSweep5xxRetryReusesMutationIDAcrossSessions(t *testing.T) {
	e := newLossyEnv(t, "/trigger")
	ctx := context.Background()
	alice, bob := e.actor("alice"), e.actor("bob")
	sws, err := e.p.Wallet.Sweeps(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var sw wallet.SweepConfig
	for _, s := range sws {
		if !s.SweepRunning {
			sw = s
			break
		}
	}
	if sw.ID == "" {
		t.Fatal("no idle sweep")
	}
	if err := e.srv.SetFaults(sandbox.FaultSettings{ErrorRate: 1}); err != nil {
		t.Fatal(err)
	}
	k := alice.Key(actions.Sweep, sw.ID)
	_, _, err = alice.TriggerSweep(ctx, sw, k)
	if ae, ok := apierr.As(err); !ok || ae.HTTPStatus != http.StatusInternalServerError || !actions.Unknown(err) {
		t.Fatalf("500s: %v, want an unknown 500", err)
	}
	if err := e.srv.SetFaults(sandbox.FaultSettings{}); err != nil {
		t.Fatal(err)
	}

	// A key of bob's own, with alice's open and not reconciled, is
	// refused unsent.
	if _, _, err := bob.TriggerSweep(ctx, sw, actions.Key{ID: actions.NewKey()}); !errors.As(err, new(actions.ErrUnreconciled)) &&
		!errors.As(err, new(actions.ErrSettled)) {
		t.Fatalf("bob's trigger under a key of his own: %v, want it refused unsent", err)
	}
	bk, err := bob.SweepKey(ctx, sw)
	if err != nil || bk.ID != k.ID || bk.Retry == nil || bk.Retry.Operator != "alice" || !strings.Contains(bk.Why, "it started no run") {
		t.Fatalf("bob's key %+v %v, want alice's %s, reconciled: the sweep started no run", bk, err, k.ID)
	}
	got, sent, err := bob.TriggerSweep(ctx, sw, bk)
	if err != nil || got.InstanceID == "" || sent.Key != k.ID || sent.Retry == nil || sent.Retry.FirstBy != "alice" ||
		!strings.Contains(sent.Evidence, "it is the sweep's last run") {
		t.Fatalf("bob's retry: %+v, sent %+v, %v; want a retry of alice's %s, read back", got, sent, err, k.ID)
	}
	ids := mutationIDs(t, e.proxy.bodies())
	for i, id := range ids {
		if id != k.ID {
			t.Fatalf("trigger %d sent %s, want %s: %v", i, id, k.ID, ids)
		}
	}
	// The platform recognises the key: asked again, it answers the same
	// instance instead of "already running".
	if again, err := e.p.WalletTransactions.TriggerSweep(ctx, sw.ID, k.ID); err != nil || again.InstanceID != got.InstanceID {
		t.Fatalf("the same key again: %+v, %v, want instance %s", again, err, got.InstanceID)
	}
	// An attempt decided on a reading of the log taken before the run was
	// recorded (bob's dialog was open meanwhile) is refused unsent.
	before := len(e.proxy.bodies())
	if _, _, err := alice.TriggerSweep(ctx, sw, bk); !errors.As(err, new(actions.ErrSettled)) || actions.Unknown(err) {
		t.Fatalf("a trigger decided before the run: %v, want ErrSettled", err)
	}
	if n := len(e.proxy.bodies()) - before; n != 0 {
		t.Fatalf("the refused trigger sent %d requests", n)
	}
	if n := alice.Key(actions.Sweep, sw.ID); n.ID == k.ID || n.Retry != nil {
		t.Fatal("after a success the next trigger reuses the key")
	}
	es, err := e.log.Read()
	if err != nil {
		t.Fatal(err)
	}
	var outcomes []string
	for _, a := range es {
		outcomes = append(outcomes, fmt.Sprintf("%s:%s:%v", a.Who.User, a.Outcome, a.MutationID == k.ID))
	}
	// Each trigger sent is an attempt line first, then its outcome; the
	// refused ones sent nothing, and are one line each.
	want := []string{"alice:attempt:true", "alice:unknown:true", "bob:refused:false", "bob:attempt:true", "bob:done:true", "alice:refused:true"}
	if strings.Join(outcomes, " ") != strings.Join(want, " ") {
		t.Fatalf("audit %v, want %v", outcomes, want)
	}
}

// A lock intent whose request is lost on its way: reconciled, the platform
// has no intent of that id and the endpoint has not moved, so the retry
// posts the same intent id; one intent exists. A lock whose answer is lost
// after the platform took it is reconciled by its intent id: done.
func TestLockLostRequestReusesIntentID(t *testing.T) {
	e := newLossyEnv(t, "/v1/intents")
	ctx := context.Background()
	act := e.actor("alice")
	eps, err := e.p.Custody.Endpoints(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var ep custody.Endpoint
	for _, x := range eps {
		if x.Lock == custody.LockUnlocked {
			ep = x
			break
		}
	}
	if ep.ID == "" {
		t.Fatal("no unlocked endpoint")
	}
	k := act.Key(actions.Lock, ep.ID)
	e.proxy.mu.Lock()
	e.proxy.lost = []string{"/v1/intents"}
	e.proxy.mu.Unlock()
	lctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	if _, _, err := act.LockEndpoint(lctx, ep, true, "suspected compromise", k); !actions.Unknown(err) {
		t.Fatalf("lost request: %v, want unknown", err)
	}
	cancel()
	e.proxy.mu.Lock()
	e.proxy.lost = nil
	e.proxy.mu.Unlock()
	r, err := act.EndpointKey(ctx, ep, true)
	if err != nil || r.ID != k.ID || r.Retry == nil || !strings.Contains(r.Why, "no intent "+k.ID) {
		t.Fatalf("key after the lost request %+v %v, want a retry of %s", r, err, k.ID)
	}
	acc, _, err := act.LockEndpoint(ctx, ep, true, "suspected compromise", r)
	if err != nil || acc.RequestID == "" {
		t.Fatalf("retry: %+v, %v", acc, err)
	}
	for i, b := range e.proxy.bodies() {
		var body struct {
			Request struct {
				ID string `json:"id"`
			} `json:"request"`
		}
		if err := json.Unmarshal([]byte(b), &body); err != nil || body.Request.ID != k.ID {
			t.Fatalf("intent %d: id %q (%v), want %s", i, body.Request.ID, err, k.ID)
		}
	}
	it, err := act.Intent(ctx, k.ID)
	if err != nil || it.ID != k.ID {
		t.Fatalf("intent %s: %+v, %v", k.ID, it, err)
	}
	if n := act.Key(actions.Lock, ep.ID); n.ID == k.ID {
		t.Fatal("after an accepted intent the next lock reuses its id")
	}

	// Another endpoint's lock, its answer lost after the platform took it.
	var other custody.Endpoint
	for _, x := range eps {
		if x.Lock == custody.LockUnlocked && x.ID != ep.ID {
			other = x
			break
		}
	}
	lk := act.Key(actions.Lock, other.ID)
	e.proxy.set(true, false)
	if _, _, err := act.LockEndpoint(ctx, other, true, "cleared", lk); !actions.Unknown(err) {
		t.Fatalf("lost answer: %v, want unknown", err)
	}
	e.proxy.set(false, false)
	again, err := act.EndpointKey(ctx, other, true)
	if err != nil || again.ID == lk.ID || len(again.Settled) != 1 || again.Settled[0].Outcome != audit.OutcomeDone ||
		!strings.Contains(again.Settled[0].Evidence, "intent "+lk.ID+" read by its id") {
		t.Fatalf("after the lost answer: %+v %v, want the lock reconciled as done by its intent id", again, err)
	}
}

// Which outcomes are unknown.
func TestUnknown(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{nil, false},
		{&apierr.Error{HTTPStatus: 500, Class: apierr.ClassRetry}, true},
		{&apierr.Error{HTTPStatus: 503, Class: apierr.ClassRetry}, true},
		{&apierr.Error{Class: apierr.ClassTimeout}, true},
		{&apierr.Error{Class: apierr.ClassRetry, Message: "connection lost: EOF"}, true},
		{&apierr.Error{HTTPStatus: 200, Class: apierr.ClassMalformed}, true},
		{fmt.Errorf("wallet PUT x: %w", context.DeadlineExceeded), true},
		{errors.New("something unforeseen"), true},
		{&apierr.Error{HTTPStatus: 400, Code: "ERR010.008", Class: apierr.ClassState}, false},
		{&apierr.Error{HTTPStatus: 403, Class: apierr.ClassForbidden}, false},
		{&apierr.Error{HTTPStatus: 409, Class: apierr.ClassConflict}, false},
		{&apierr.Error{HTTPStatus: 501, Class: apierr.ClassFixRequest}, false},
		{actions.ErrReadOnly, false},
		{actions.ErrNoReason, false},
		{actions.ErrNotConfigured{What: "x"}, false},
		{walletclient.ErrMutationID, false},
		{custody.ErrNoSigner, false},
	} {
		if got := actions.Unknown(c.err); got != c.want {
			t.Errorf("Unknown(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}
