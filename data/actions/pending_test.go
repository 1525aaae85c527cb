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
	"treasury/data/actions"
	"treasury/data/apierr"
	"treasury/data/audit"
	"treasury/data/custody"
	"treasury/data/platform"
	"treasury/data/wallet"
	walletclient "treasury/data/wallet/client"
	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
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
	cfg := e.srv.Profile(config.Builtin())
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
	return tx.Status != wallet.TxRejected && tx.Status != wallet.TxFailed && !tx.FreezeInfo.IsFrozen
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

// A freeze whose answers are all lost (the sandbox applied it) is unknown;
// the retry reuses its mutationId and is answered as applied, once. A new
// key would have been refused as already frozen. After the success, the
// next decision gets a new key.
func TestLostAnswerRetryReusesMutationID(t *testing.T) {
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
	again := act.Key(actions.Freeze, tx.ID)
	if again.ID != k.ID || again.Retry == nil || again.Retry.Operator != "alice" || again.Retry.Reason != "hold for review" ||
		again.Retry.Err == "" || again.Retry.InFlight != 0 {
		t.Fatalf("key after an unknown outcome %+v (retry %+v), want a retry of %s", again, again.Retry, k.ID)
	}
	if other := act.Key(actions.Unfreeze, tx.ID); other.ID == k.ID || other.Retry != nil {
		t.Fatalf("an unfreeze reuses the freeze's key: %+v", other)
	}

	e.proxy.set(false, false)
	got, sent, err := act.FreezeTx(ctx, walletclient.Route{}, tx, true, "confirmed lost answer", again)
	if err != nil || !got.FreezeInfo.IsFrozen || sent.Key != k.ID || sent.Retry == nil || sent.Retry.Reason != "hold for review" {
		t.Fatalf("retry: frozen %v, sent %+v, %v", got.FreezeInfo.IsFrozen, sent, err)
	}
	ids := mutationIDs(t, e.proxy.bodies())
	if len(ids) < 2 {
		t.Fatalf("%d freezes sent, want the lost ones and the retry", len(ids))
	}
	for i, id := range ids {
		if id != k.ID {
			t.Fatalf("freeze %d sent mutationId %s, want %s every time: %v", i, id, k.ID, ids)
		}
	}
	if n := e.applied(t, tx, k.ID); n != 1 {
		t.Fatalf("after the retry the freeze is applied %d times, want 1", n)
	}

	next := act.Key(actions.Freeze, tx.ID)
	if next.ID == k.ID || next.Retry != nil {
		t.Fatalf("after a success the next freeze reuses %s", k.ID)
	}
	// Had the retry taken a new key, the platform would have refused it:
	// the transaction is frozen already.
	_, _, err = act.FreezeTx(ctx, walletclient.Route{}, tx, true, "again", next)
	if ae, ok := apierr.As(err); !ok || ae.Code != "ERR010.008" || actions.Unknown(err) {
		t.Fatalf("a new freeze of a frozen transaction: %v, want a known ERR010.008", err)
	}
	if k := act.Key(actions.Freeze, tx.ID); k.ID == next.ID || k.Retry != nil {
		t.Fatal("a 4xx refusal kept its key")
	}
}

// A freeze with no answer before the caller's deadline is unknown; the
// retry reuses its mutationId.
func TestTimeoutRetryReusesMutationID(t *testing.T) {
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
	r := act.Key(actions.Freeze, tx.ID)
	if r.ID != k.ID || r.Retry == nil {
		t.Fatalf("after a timeout: %+v, want a retry of %s", r, k.ID)
	}
	if _, _, err := act.FreezeTx(context.Background(), walletclient.Route{}, tx, true, "hold", r); err != nil {
		t.Fatal(err)
	}
	if ids := mutationIDs(t, e.proxy.bodies()); len(ids) != 2 || ids[0] != k.ID || ids[1] != k.ID {
		t.Fatalf("mutationIds sent %v, want %s twice", ids, k.ID)
	}
	if n := e.applied(t, tx, k.ID); n != 1 {
		t.Fatalf("applied %d times", n)
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

	bk := bob.Key(actions.Sweep, sw.ID)
	if bk.ID != k.ID || bk.Retry == nil || bk.Retry.Operator != "alice" {
		t.Fatalf("bob's key %+v, want alice's %s", bk, k.ID)
	}
	got, sent, err := bob.TriggerSweep(ctx, sw, actions.Key{ID: actions.NewKey()})
	if err != nil || got.InstanceID == "" || sent.Key != k.ID || sent.Retry == nil || sent.Retry.FirstBy != "alice" {
		t.Fatalf("bob's trigger under a key of his own: %+v, sent %+v, %v; want a retry of alice's %s", got, sent, err, k.ID)
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
	// refused one sent nothing, and is one line.
	want := []string{"alice:attempt:true", "alice:unknown:true", "bob:attempt:true", "bob:done:true", "alice:refused:true"}
	if strings.Join(outcomes, " ") != strings.Join(want, " ") {
		t.Fatalf("audit %v, want %v", outcomes, want)
	}
}

// A lock intent whose answer is lost: the retry posts the same intent id,
// and the custody interface answers the same requestId; one intent exists.
func TestLockLostAnswerReusesIntentID(t *testing.T) {
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
	e.proxy.set(true, false)
	if _, _, err := act.LockEndpoint(ctx, ep, true, "suspected compromise", k); !actions.Unknown(err) {
		t.Fatalf("lost answer: %v, want unknown", err)
	}
	e.proxy.set(false, false)
	r := act.Key(actions.Lock, ep.ID)
	if r.ID != k.ID || r.Retry == nil {
		t.Fatalf("key after the lost answer %+v, want a retry of %s", r, k.ID)
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
