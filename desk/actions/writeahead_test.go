package actions_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"treasury/desk/actions"
	"treasury/desk/audit"
	"treasury/wire/wallet"
	walletclient "treasury/wire/wallet/client"
)

// disk lets *left writes through, then fails every one as a full disk
// does.
type disk struct {
	w    io.Writer
	left *atomic.Int32
}

func (d disk) Write(p []byte) (int, error) {
	if d.left.Add(-1) < 0 {
		return 0, syscall.ENOSPC
	}
	return d.w.Write(p)
}

// room is what a disk with room for every write has left.
const room = 1 << 30

// With the disk full, the attempt line cannot be written: the action is
// refused before any request (the sandbox receives nothing), says why, and
// every later action is refused at once (Can) until the log is found
// writable again; then actions go through, each with its attempt line.
func TestFullDiskRefusesBeforeAnyRequest(t *testing.T) {
	e := newEnv(t, false)
	tx := e.freezable(t)
	var left atomic.Int32
	log, err := audit.Open(t.TempDir(), audit.Options{Wrap: func(w io.Writer) io.Writer { return disk{w, &left} }})
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	act := actions.New(actions.Clients{Transactions: e.p.WalletTransactions}, e.act.Identity(), log)
	ctx := context.Background()

	sweep := firstSweep(t, e)
	left.Store(0)
	sent, wallet := len(e.requests()), e.srv.Stats().Requests["wallet"]
	_, _, err = act.FreezeTx(ctx, walletclient.Route{}, tx, true, "fraud hold", act.Key(actions.Freeze, tx.ID))
	var ua actions.ErrUnaudited
	if !errors.As(err, &ua) || !errors.Is(err, syscall.ENOSPC) || actions.Unknown(err) ||
		!strings.Contains(err.Error(), "nothing was sent") {
		t.Fatalf("freeze on a full disk: %v, want ErrUnaudited (ENOSPC), nothing sent", err)
	}
	if err := act.Can(actions.Freeze); !errors.As(err, &ua) {
		t.Fatalf("Can while the disk is full: %v", err)
	}
	if _, _, err := act.TriggerSweep(ctx, sweep, act.Key(actions.Sweep, sweep.ID)); !errors.As(err, &ua) {
		t.Fatalf("a sweep while the disk is full: %v", err)
	}
	// The transaction was read (where the freeze would go); nothing that
	// changes anything was sent.
	for _, r := range e.requests()[sent:] {
		if r.method != http.MethodGet {
			t.Fatalf("%s %s sent while the audit log could not be written", r.method, r.path)
		}
	}
	if n := e.srv.Stats().Requests["wallet"] - wallet; n > 1 {
		t.Fatalf("the sandbox received %d wallet requests, want the one read", n)
	}
	if es, _ := log.Read(); len(es) != 0 {
		t.Fatalf("lines written on a full disk: %+v", es)
	}

	left.Store(room)
	if err := act.Can(actions.Freeze); err != nil {
		t.Fatalf("Can once there is room: %v", err)
	}
	if _, _, err := act.FreezeTx(ctx, walletclient.Route{}, tx, true, "fraud hold", act.Key(actions.Freeze, tx.ID)); err != nil {
		t.Fatal(err)
	}
	es, err := log.Read()
	if err != nil || len(es) != 2 || es[0].Outcome != audit.OutcomeAttempt || es[1].Outcome != audit.OutcomeDone {
		t.Fatalf("audit once there is room: %+v %v", es, err)
	}
}

func firstSweep(t *testing.T, e *env) wallet.SweepConfig {
	t.Helper()
	sws, err := e.p.Wallet.Sweeps(context.Background())
	if err != nil || len(sws) == 0 {
		t.Fatalf("sweeps: %v %v", sws, err)
	}
	return sws[0]
}

// A process killed while its freeze was on its way (the platform applied
// it; the answer never came) leaves an attempt line and no outcome. The
// next process reads it back, and before any new decision on the
// transaction reconciles the key with the platform's record: the freeze
// history names it, so its outcome is written as done (by the operator
// who reconciled it, the history as evidence), the key is spent, and the
// transaction reads frozen. Nothing is sent again; the platform holds one
// freeze, and the log no attempt without an outcome.
func TestRestartReconcilesAnInterruptedAttemptTheRecordNames(t *testing.T) {
	e := newLossyEnv(t, "/freeze")
	dir := t.TempDir()
	first, err := audit.Open(dir, audit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	act := actions.New(actions.Clients{Transactions: e.p.WalletTransactions},
		actions.Identity{Profile: "sandbox", Environment: "sandbox", Who: audit.Who{Via: audit.ViaLocal, User: "alice"}}, first)
	tx := e.tx(t, freezable)
	k := act.Key(actions.Freeze, tx.ID)
	// The answer is held; the process "dies" while it waits: its log is
	// closed under it, so no outcome line can follow.
	e.proxy.set(false, true)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { _, _, err := act.FreezeTx(ctx, walletclient.Route{}, tx, true, "fraud hold", k); done <- err }()
	waitFor(t, func() bool { return len(e.proxy.bodies()) == 1 })
	first.Close()
	cancel()
	<-done
	if s, err := audit.VerifyFile(first.Path()); err != nil || s.Lines != 1 || len(s.Open) != 1 || s.Open[0].MutationID != k.ID {
		t.Fatalf("after the kill: %+v %v, want one attempt without an outcome", s, err)
	}

	// The next process.
	e.proxy.set(false, false)
	log, err := audit.Open(dir, audit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	pending := actions.NewPending()
	if n, err := pending.Follow(log); err != nil || n != 1 {
		t.Fatalf("follow: %d keys, %v", n, err)
	}
	bob := actions.New(actions.Clients{Transactions: e.p.WalletTransactions, Pending: pending},
		actions.Identity{Profile: "sandbox", Environment: "sandbox", Who: audit.Who{Via: audit.ViaLocal, User: "bob"}}, log)
	if r := bob.Key(actions.Freeze, tx.ID); r.ID != k.ID || r.Retry == nil || r.Retry.FirstBy != "alice" || r.Retry.Err != actions.Interrupted {
		t.Fatalf("the log's key after the restart: %+v (retry %+v), want alice's %s, interrupted", r, r.Retry, k.ID)
	}
	// Sent blind, the open key would be refused: it was not reconciled.
	if _, _, err := bob.FreezeTx(context.Background(), walletclient.Route{}, tx, true, "blind", bob.Key(actions.Freeze, tx.ID)); !errors.As(err, new(actions.ErrUnreconciled)) {
		t.Fatalf("an open key sent without reconciling: %v, want ErrUnreconciled", err)
	}
	r, err := bob.TxKey(context.Background(), tx, true)
	if err != nil {
		t.Fatal(err)
	}
	if r.ID == k.ID || r.Retry != nil || len(r.Settled) != 1 {
		t.Fatalf("key after reconciling: %+v, want a new key and alice's attempt settled", r)
	}
	st := r.Settled[0]
	if st.Outcome != audit.OutcomeDone || st.Applied == nil || !*st.Applied || st.Attempt.ID != k.ID ||
		!strings.Contains(st.Evidence, "the freeze history names "+k.ID) || !strings.Contains(st.Note(), "recorded as done") {
		t.Fatalf("settled %+v (%s), want done with the freeze history as evidence", st, st.Note())
	}
	if n := len(e.proxy.bodies()); n != 1 {
		t.Fatalf("%d freezes sent, want alice's alone", n)
	}
	if n := e.applied(t, tx, k.ID); n != 1 {
		t.Fatalf("the platform holds %d freezes of the key, want 1", n)
	}
	s, err := audit.VerifyFile(log.Path())
	if err != nil || len(s.Open) != 0 || len(s.Settled) != 0 {
		t.Fatalf("verify after reconciling: %+v %v, want every attempt with its outcome", s, err)
	}
	rs, _ := log.Read()
	last := rs[len(rs)-1]
	if last.Outcome != audit.OutcomeDone || last.Attempt != rs[0].Seq || last.Who.User != "bob" || last.MutationID != k.ID ||
		last.Holds != "frozen" || !strings.Contains(last.Evidence, k.ID) {
		t.Fatalf("the reconciling line %+v", last)
	}
}

func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second) // a hang guard, not a wait
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Follow replays the log: attempts without an outcome and unknown
// outcomes keep their keys, known outcomes spend their target's keys,
// refused ones after an attempt line leave nothing, and lines of a log
// written before attempt lines existed are read too.
func TestFollowReplaysTheLog(t *testing.T) {
	log, err := audit.Open(t.TempDir(), audit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	who := audit.Who{Via: audit.ViaLocal, User: "ana"}
	line := func(action, target, key, outcome string, attempt uint64) uint64 {
		r, err := log.Append(audit.Record{Who: who, Action: action, Target: audit.Target{Kind: "transaction", ID: target},
			MutationID: key, Outcome: outcome, Attempt: attempt, Reason: "r-" + key, Error: "HTTP 500"})
		if err != nil {
			t.Fatal(err)
		}
		return r.Seq
	}
	line(actions.Freeze, "t1", "k1", audit.OutcomeAttempt, 0) // killed in flight
	a := line(actions.Freeze, "t2", "k2", audit.OutcomeAttempt, 0)
	line(actions.Freeze, "t2", "k2", audit.OutcomeUnknown, a) // unknown
	a = line(actions.Freeze, "t3", "k3", audit.OutcomeAttempt, 0)
	line(actions.Freeze, "t3", "k3", audit.OutcomeDone, a) // spent
	a = line(actions.Sweep, "t4", "k4", audit.OutcomeAttempt, 0)
	line(actions.Sweep, "t4", "k4", audit.OutcomeRefused, a)  // never sent
	line(actions.Freeze, "t5", "k5", audit.OutcomeUnknown, 0) // an old log's unknown
	line(actions.Freeze, "t6", "k6", audit.OutcomeUnknown, 0)
	line(actions.Unfreeze, "t6", "k7", audit.OutcomeDone, 0) // an old log's success spends t6
	log.Close()                                              // the process that wrote it has ended
	log, err = audit.Open(filepath.Dir(log.Path()), audit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	p := actions.NewPending()
	n, err := p.Follow(log)
	if err != nil || n != 3 {
		t.Fatalf("restored %d keys, %v; want 3", n, err)
	}
	act := actions.New(actions.Clients{Pending: p}, actions.Identity{Who: who}, nil)
	for target, want := range map[string]string{"t1": "k1", "t2": "k2", "t5": "k5"} {
		k := act.Key(actions.Freeze, target)
		if k.ID != want || k.Retry == nil || k.Retry.Reason != "r-"+want || k.Retry.FirstBy != "ana" {
			t.Errorf("%s: %+v (retry %+v), want a retry of %s", target, k, k.Retry, want)
		}
	}
	if k := act.Key(actions.Freeze, "t1"); k.Retry == nil || k.Retry.Err != actions.Interrupted {
		t.Errorf("t1 is not interrupted: %+v", k.Retry)
	}
	if k := act.Key(actions.Freeze, "t2"); k.Retry == nil || k.Retry.Err != "HTTP 500" {
		t.Errorf("t2's unknown outcome: %+v", k.Retry)
	}
	for _, c := range []struct{ action, target string }{{actions.Freeze, "t3"}, {actions.Sweep, "t4"}, {actions.Freeze, "t6"}} {
		if k := act.Key(c.action, c.target); k.Retry != nil {
			t.Errorf("%s %s: a retry of %+v, want a new key", c.action, c.target, k.Retry)
		}
	}
}

// The disk fills between the attempt line and the outcome: the freeze is
// done and said to be (Applied, not unknown), with why its outcome is not
// in the log; the attempt line is, and verify lists it.
func TestOutcomeLineUnwritableAfterADoneAction(t *testing.T) {
	e := newEnv(t, false)
	tx := e.freezable(t)
	var left atomic.Int32
	left.Store(2) // the directory's probe at open, then the attempt line
	log, err := audit.Open(t.TempDir(), audit.Options{Wrap: func(w io.Writer) io.Writer { return disk{w, &left} }})
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	act := actions.New(actions.Clients{Transactions: e.p.WalletTransactions}, e.act.Identity(), log)
	got, _, err := act.FreezeTx(context.Background(), walletclient.Route{}, tx, true, "fraud hold", act.Key(actions.Freeze, tx.ID))
	var ou actions.ErrOutcomeUnaudited
	if !errors.As(err, &ou) || ou.Outcome != audit.OutcomeDone || !actions.Applied(err) || actions.Unknown(err) || !got.FreezeInfo.IsFrozen {
		t.Fatalf("freeze with its outcome unwritable: %+v, %v", got.FreezeInfo, err)
	}
	if s, err := audit.VerifyFile(log.Path()); err != nil || s.Lines != 1 || len(s.Open) != 1 {
		t.Fatalf("verify: %+v %v", s, err)
	}
}
