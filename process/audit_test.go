package process_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"treasury/commands/cli/clitest"
	"treasury/config"
	"treasury/desk/actions"
	"treasury/desk/audit"
	"treasury/desk/live"
	"treasury/kit/nonroot"
	"treasury/process"
	"treasury/process/sandboxprofile"
	"treasury/sandbox/sandboxtest"
	"treasury/ui"
	"treasury/wire/wallet"
)

func TestMain(m *testing.M) { os.Exit(nonroot.Main(m)) }

// stateOf is the environment of a process and its state directory, where
// an earlier process left an audit log: a freeze attempt of t1 on its way
// when that process died (no outcome), and a done freeze of t2.
func stateOf(t *testing.T) (*process.Env, string) {
	t.Helper()
	e, _ := clitest.Env(t, io.Discard)
	e.Command = "dashboard"
	dir := config.StateDir(e.Getenv)
	l, err := audit.Open(dir, audit.Options{Cmd: "serve"})
	if err != nil {
		t.Fatal(err)
	}
	who := audit.Who{Via: audit.ViaSSH, User: "ben", Role: "operator"}
	for _, r := range []audit.Record{
		{Who: who, Action: actions.Freeze, Target: audit.Target{Kind: "transaction", ID: "t1"}, Outcome: audit.OutcomeAttempt,
			MutationID: "k1", Reason: "fraud ring", Request: "PUT /v2/wallets/w/transactions/t1/freeze"},
		{Who: who, Action: actions.Freeze, Target: audit.Target{Kind: "transaction", ID: "t2"}, Outcome: audit.OutcomeAttempt,
			MutationID: "k2", Request: "PUT /v2/wallets/w/transactions/t2/freeze"},
		{Who: who, Action: actions.Freeze, Target: audit.Target{Kind: "transaction", ID: "t2"}, Outcome: audit.OutcomeDone,
			MutationID: "k2", Attempt: 2},
		{Who: who, Action: actions.Unfreeze, Target: audit.Target{Kind: "transaction", ID: "t2"}, Outcome: audit.OutcomeCancelled, MutationID: "k3"},
	} {
		if _, err := l.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	l.Close() // that process has ended
	return e, dir
}

// open starts the dashboard's runtime on the state directory, against a
// sandbox, and returns it with an operator's actor.
func open(t *testing.T, e *process.Env) (*process.Runtime, *actions.Actor) {
	t.Helper()
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	rt, err := process.Open(ctx, e, sandboxprofile.Of(srv, config.Builtin()))
	if err != nil {
		t.Fatalf("the dashboard does not start: %v", err)
	}
	t.Cleanup(rt.Close)
	act := actions.New(actions.Clients{Transactions: rt.Platform.WalletTransactions, Pending: rt.Pending},
		actions.Identity{Profile: "sandbox", Environment: "test", Who: audit.Who{Via: audit.ViaLocal, User: "ana"}}, rt.Audit)
	return rt, act
}

// keptKey checks that the interrupted freeze of t1 keeps its key: the
// next freeze of t1 is its retry.
func keptKey(t *testing.T, act *actions.Actor) {
	t.Helper()
	k := act.Key(actions.Freeze, "t1")
	if k.ID != "k1" || k.Retry == nil || k.Retry.Err != actions.Interrupted || k.Retry.FirstBy != "ssh:ben (operator)" {
		t.Fatalf("the interrupted freeze's key: %+v (retry %+v), want a retry of k1", k, k.Retry)
	}
}

// alert is the open alert of code whose banner is banner, if any.
func alert(rt *process.Runtime, banner string) (live.Alert, bool) {
	for _, a := range rt.Platform.Store.Alerts() {
		if a.Banner == banner {
			return a, true
		}
	}
	return live.Alert{}, false
}

func logged(t *testing.T, rt *process.Runtime, want string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(rt.StateDir, "requests.log"))
	if err != nil || !bytes.Contains(b, []byte(want)) {
		t.Fatalf("requests.log does not say %q (%v):\n%s", want, err, b)
	}
}

// A torn last line (the process died mid-write): the dashboard starts,
// says in its log what it repaired and where the torn bytes are, raises
// nothing (the log is whole again) and keeps the interrupted attempt's
// key.
func TestStartRepairsATornLastLine(t *testing.T) {
	e, dir := stateOf(t)
	f, _ := os.OpenFile(filepath.Join(dir, audit.FileName), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"seq":5,"prev":"abc","who":{"via":"ssh","us`)
	f.Close()
	rt, act := open(t, e)
	logged(t, rt, "was torn")
	if torn, _ := filepath.Glob(filepath.Join(dir, audit.FileName+audit.TornSuffix+"*")); len(torn) != 1 {
		t.Fatalf("torn bytes kept in %v", torn)
	}
	if a, ok := alert(rt, "AUDIT BROKEN"); ok {
		t.Fatalf("an alert after a repair: %+v", a)
	}
	keptKey(t, act)
	if s, err := audit.VerifyFile(rt.Audit.Path()); err != nil || len(s.Open) != 1 {
		t.Fatalf("verify after the repair: %+v %v", s, err)
	}
	// Another process dies mid-write while this one runs: the next
	// append repairs it first, and the log says so.
	f, _ = os.OpenFile(rt.Audit.Path(), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"seq":6,"prev":"def","who":`)
	f.Close()
	if err := act.Cancelled(actions.TxAttempt(wallet.Transaction{ID: "t3"}, true, "", "k9"), false); err != nil {
		t.Fatal(err)
	}
	if torn, _ := filepath.Glob(filepath.Join(dir, audit.FileName+audit.TornSuffix+"*")); len(torn) != 2 {
		t.Fatalf("torn bytes kept in %v", torn)
	}
	b, _ := os.ReadFile(filepath.Join(rt.StateDir, "requests.log"))
	if n := bytes.Count(b, []byte("was torn")); n != 2 {
		t.Fatalf("requests.log says %d repairs, want 2:\n%s", n, b)
	}
	if s, err := audit.VerifyFile(rt.Audit.Path()); err != nil || len(s.Open) != 1 {
		t.Fatalf("verify after the second repair: %+v %v", s, err)
	}
}

// A line edited in the middle, or deleted: the dashboard starts and goes on
// appending, raises a HIGH alert whose banner every header shows, logs it,
// keeps the interrupted attempt's key; `treasury audit ack` (Ack) clears it
// in the running process.
func TestStartRaisesABrokenChainUntilAcknowledged(t *testing.T) {
	for name, damage := range map[string]func([][]byte) [][]byte{
		"edited":  func(ls [][]byte) [][]byte { ls[1] = bytes.Replace(ls[1], []byte(`"t2"`), []byte(`"t9"`), 1); return ls },
		"deleted": func(ls [][]byte) [][]byte { return append(ls[:1:1], ls[2:]...) },
	} {
		t.Run(name, func(t *testing.T) {
			e, dir := stateOf(t)
			path := filepath.Join(dir, audit.FileName)
			b, _ := os.ReadFile(path)
			if err := os.WriteFile(path, bytes.Join(damage(bytes.SplitAfter(b, []byte("\n"))), nil), 0o600); err != nil {
				t.Fatal(err)
			}
			rt, act := open(t, e)
			a, ok := alert(rt, "AUDIT BROKEN")
			if !ok || a.Severity != live.High || !strings.Contains(a.Title, "line 2") || !strings.Contains(a.Guidance, "treasury audit ack") {
				t.Fatalf("alerts %+v, want AUDIT BROKEN at line 2", rt.Platform.Store.Alerts())
			}
			logged(t, rt, "Audit log broken at line 2")
			keptKey(t, act)
			if err := act.Can(actions.Freeze); err != nil {
				t.Fatalf("actions refused on a log broken in the middle: %v", err)
			}
			// An operator acknowledges it from another process.
			other, err := audit.Open(dir, audit.Options{Cmd: "audit"})
			if err != nil {
				t.Fatal(err)
			}
			if acks, err := other.Ack(audit.Who{Via: audit.ViaLocal, User: "ana"}, "checked with the platform"); err != nil || len(acks) != 2 {
				t.Fatalf("ack: %v %v", acks, err)
			}
			other.Close()
			if err := rt.Audit.Refresh(); err != nil {
				t.Fatal(err)
			}
			if a, ok := alert(rt, "AUDIT BROKEN"); ok {
				t.Fatalf("still raised after the acknowledgement: %+v", a)
			}
		})
	}
}

// A state directory, or an audit log, that cannot be written: the
// dashboard starts, every action is refused with the reason (a HIGH alert,
// ACTIONS REFUSED in every header), and the keys in the log are kept.
func TestReadOnlyStateStartsWithActionsRefused(t *testing.T) {
	if nonroot.Run(t) {
		return
	}
	for name, lock := range map[string]func(dir string){
		"directory": func(dir string) { os.Chmod(dir, 0o500) },
		"file":      func(dir string) { os.Chmod(filepath.Join(dir, audit.FileName), 0o400) },
	} {
		t.Run(name, func(t *testing.T) {
			e, dir := stateOf(t)
			lock(dir)
			t.Cleanup(func() { os.Chmod(dir, 0o700) })
			rt, act := open(t, e)
			a, ok := alert(rt, "ACTIONS REFUSED")
			if !ok || a.Severity != live.High || !strings.Contains(a.Title, "cannot be written") {
				t.Fatalf("alerts %+v, want ACTIONS REFUSED", rt.Platform.Store.Alerts())
			}
			var ua actions.ErrUnaudited
			if err := act.Can(actions.Freeze); !errors.As(err, &ua) || !strings.Contains(err.Error(), "cannot be written") {
				t.Fatalf("Can: %v", err)
			}
			keptKey(t, act)
		})
	}
}

// --read-only starts whatever the state directory's permissions, reads
// the log, raises nothing about writing it (the header says READ-ONLY).
func TestReadOnlyFlagStartsOnAnyState(t *testing.T) {
	if nonroot.Run(t) {
		return
	}
	e, dir := stateOf(t)
	os.Chmod(filepath.Join(dir, audit.FileName), 0o400)
	os.Chmod(dir, 0o500)
	t.Cleanup(func() { os.Chmod(dir, 0o700) })
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	cfg := sandboxprofile.Of(srv, config.Builtin())
	cfg.ReadOnly = true
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rt, err := process.Open(ctx, e, cfg)
	if err != nil {
		t.Fatalf("--read-only does not start: %v", err)
	}
	defer rt.Close()
	if _, ok := alert(rt, "ACTIONS REFUSED"); ok {
		t.Fatal("an alert for a log the operator asked not to write")
	}
	if got, err := rt.Audit.Recent(); err != nil || len(got) != 4 {
		t.Fatalf("the log read: %d lines, %v", len(got), err)
	}
	// A key pressed anyway cannot be recorded here: the refusal and why
	// not read as one line, never with an escaped newline.
	act := actions.New(actions.Clients{Pending: rt.Pending}, actions.Identity{Profile: "sandbox", Environment: "test",
		Who: audit.Who{Via: audit.ViaLocal, User: "ana"}, ReadOnly: true}, rt.Audit)
	err = act.Refused(actions.Attempt{Action: actions.Freeze, Target: audit.Target{Kind: "transaction", ID: "t9"}}, actions.ErrReadOnly)
	if txt := ui.ErrorText(err); err == nil || strings.Contains(txt, `\x0a`) || !strings.Contains(txt, "viewer key); audit: ") {
		t.Fatalf("the refusal, unrecorded: %q", txt)
	}
}

// --read-only on a state directory that can be written: no action is
// offered, and a key pressed anyway is refused and recorded, as the README
// says.
func TestReadOnlyFlagRecordsRefusals(t *testing.T) {
	e, _ := stateOf(t)
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	cfg := sandboxprofile.Of(srv, config.Builtin())
	cfg.ReadOnly = true
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rt, err := process.Open(ctx, e, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	act := actions.New(actions.Clients{Pending: rt.Pending}, actions.Identity{Profile: "sandbox", Environment: "test",
		Who: audit.Who{Via: audit.ViaLocal, User: "ana"}, ReadOnly: true}, rt.Audit)
	if err := act.Refused(actions.Attempt{Action: actions.Freeze, Target: audit.Target{Kind: "transaction", ID: "t9"}}, actions.ErrReadOnly); !errors.Is(err, actions.ErrReadOnly) {
		t.Fatalf("refused: %v", err)
	}
	got, err := rt.Audit.Recent()
	if err != nil || len(got) != 5 || got[0].Outcome != audit.OutcomeRefused || got[0].Target.ID != "t9" || !strings.Contains(got[0].Error, "read-only") {
		t.Fatalf("the log: %+v %v, want the refusal as its last line", got, err)
	}
	if _, ok := alert(rt, "ACTIONS REFUSED"); ok {
		t.Fatal("an alert in a read-only session")
	}
}
