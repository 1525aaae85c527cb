package wallets_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"treasury/config"
	"treasury/desk/actions"
	"treasury/desk/audit"
	"treasury/desk/platform"
	"treasury/process/sandboxprofile"
	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
	"treasury/ui/uitest"
	"treasury/views/viewtest"
	"treasury/views/wallets"
	walletclient "treasury/wire/wallet/client"
)

// crashChildEnv marks the test binary started again as operator A's
// process: it holds the sandbox's URL, the state directory and the
// transaction to freeze.
const crashChildEnv = "TREASURY_WALLETS_CRASH_CHILD"

func TestMain(m *testing.M) {
	if spec := os.Getenv(crashChildEnv); spec != "" {
		os.Exit(crashChild(spec))
	}
	os.Exit(m.Run())
}

// crashChild is operator A: it freezes the transaction and waits for an
// answer that will not come before it is killed.
func crashChild(spec string) int {
	parts := strings.Split(spec, "|")
	url, dir, txID := parts[0], parts[1], parts[2]
	fail := func(err error) int { fmt.Println("error", err); return 1 }
	p, err := platform.Open(sandboxprofile.At(config.Builtin(), url, sandboxtest.Options().Seed, sandbox.DefaultCredentials()), platform.Options{})
	if err != nil {
		return fail(err)
	}
	defer p.Close()
	alice := audit.Who{Via: audit.ViaLocal, User: "alice"}
	log, err := audit.Open(dir, audit.Options{Cmd: "dashboard", Who: alice})
	if err != nil {
		return fail(err)
	}
	act := actions.New(actions.Clients{Transactions: p.WalletTransactions}, actions.Identity{Profile: "sandbox", Environment: "test", Who: alice}, log)
	ctx := context.Background()
	tx, err := p.WalletTransactions.Transaction(ctx, txID)
	if err != nil {
		return fail(err)
	}
	k, err := act.TxKey(ctx, tx, true)
	if err != nil {
		return fail(err)
	}
	fmt.Println("sending", k.ID)
	_, _, err = act.FreezeTx(ctx, walletclient.Route{}, tx, true, "fraud hold", k)
	fmt.Println("answered", err)
	return 0
}

// Operator A freezes a transaction; the platform applies it, and A's
// process is killed (SIGKILL) before the answer: its attempt stays open.
// Operator B, on the same state directory, unfreezes it through the
// dashboard, then freezes it again. Before the unfreeze, B's dashboard
// reconciles A's open key with the freeze history, which names it: A's
// freeze is recorded as done (the dialog says so), the unfreeze goes
// under a key of its own, and the freeze after it under another: the
// platform holds the transaction frozen, its history A's freeze, B's
// unfreeze and B's freeze, each under the key its attempt recorded; B's
// result says "now frozen" because the platform's answer does.
func TestAnActionAppliedByAKilledProcessIsReconciledNotReplayed(t *testing.T) {
	t.Parallel()
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory()})
	tx := pickTx(t, e, "freezable", freezable)
	dir := filepath.Dir(e.Audit.Path())
	if err := e.Sandbox.SetFaults(sandbox.FaultSettings{Path: "/freeze", AnswerLatency: sandbox.Duration(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), crashChildEnv+"="+strings.Join([]string{e.Sandbox.URL, dir, tx.ID}, "|"))
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := bufio.NewScanner(out)
	if !lines.Scan() || !strings.HasPrefix(lines.Text(), "sending ") {
		t.Fatalf("operator A's process said %q", lines.Text())
	}
	keyA := strings.TrimPrefix(lines.Text(), "sending ")
	applied := func(key string) bool {
		for _, k := range e.Sandbox.Keys().Wallet {
			if k.Key == key {
				return true
			}
		}
		return false
	}
	for deadline := time.Now().Add(10 * time.Second); !applied(keyA); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the platform never applied A's freeze") // a hang guard, not a wait
		}
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if err := e.Sandbox.SetFaults(sandbox.FaultSettings{}); err != nil {
		t.Fatal(err)
	}
	e.Fetch() // B's dashboard polls: the transaction reads frozen

	tm := onTx(t, e, wallets.New(e.Ctx, e.P, e.Actor), tx.ID, "FROZEN")
	viewtest.Keys(tm, "U")
	viewtest.WaitAll(t, tm, "Unfreeze wallet transaction", "Reconciled: the freeze under mutationId", "recorded as done")
	if frame := uitest.ScreenOf(tm, viewtest.Width, viewtest.Height).String(); strings.Contains(frame, "retry of") ||
		!strings.Contains(strings.ReplaceAll(frame, "\n", " "), keyA[:8]) {
		t.Fatalf("the unfreeze dialog after A's freeze was applied:\n%s", frame)
	}
	viewtest.Keys(tm, "shift+tab", "cleared by review", "enter", "enter")
	viewtest.WaitFor(t, tm, "now not frozen")
	viewtest.Keys(tm, "esc", "f")
	viewtest.WaitFor(t, tm, "Freeze wallet transaction")
	if frame := uitest.ScreenOf(tm, viewtest.Width, viewtest.Height).String(); strings.Contains(frame, "retry of") || strings.Contains(frame, keyA) {
		t.Fatalf("the freeze after the unfreeze reuses A's key:\n%s", frame)
	}
	viewtest.Keys(tm, "shift+tab", "fraud hold again", "enter", "enter")
	viewtest.WaitFor(t, tm, "now frozen")
	tm.Quit()

	now := sandboxTx(t, e, tx.ID)
	h := now.FreezeInfo.History
	if !now.FreezeInfo.IsFrozen || len(h) != 3 || !strings.EqualFold(h[0].MutationID, keyA) || h[1].Action != "UNFREEZE" || h[2].Action != "FREEZE" {
		t.Fatalf("the platform holds frozen %v, history %+v; want A's freeze, B's unfreeze, B's freeze", now.FreezeInfo.IsFrozen, h)
	}
	rs, err := e.Audit.Read()
	if err != nil {
		t.Fatal(err)
	}
	var attemptA uint64
	byKey := map[string][]audit.Record{}
	for _, r := range rs {
		byKey[r.MutationID] = append(byKey[r.MutationID], r)
		if r.MutationID == keyA && r.Outcome == audit.OutcomeAttempt {
			attemptA = r.Seq
		}
	}
	a := byKey[keyA]
	if len(a) != 2 || a[1].Outcome != audit.OutcomeDone || a[1].Attempt != attemptA || a[1].Who.User != "tester" ||
		!strings.Contains(a[1].Evidence, "the freeze history names "+keyA) {
		t.Fatalf("A's key on the record: %+v; want its attempt and the done B's dashboard found", a)
	}
	for i, ev := range h[1:] {
		got := byKey[strings.ToLower(ev.MutationID)]
		if len(got) != 2 || got[0].Outcome != audit.OutcomeAttempt || got[1].Outcome != audit.OutcomeDone || got[1].Attempt != got[0].Seq ||
			got[0].Who.User != "tester" {
			t.Fatalf("B's %d action, %s under %s: the record holds %+v", i+1, ev.Action, ev.MutationID, got)
		}
	}
	if last := rs[len(rs)-1]; last.Action != actions.Freeze || last.Holds != "frozen" || last.MutationID == keyA {
		t.Fatalf("B's freeze ended %+v, want done under its own key, frozen", last)
	}
	if s, err := audit.VerifyFile(e.Audit.Path()); err != nil || len(s.Open) != 0 || len(s.Settled) != 0 {
		t.Fatalf("verify: %+v %v", s, err)
	}
}

// While the record is busy (another process holds the audit log's lock,
// as a site's append waiting on the site does), a freeze pressed says
// "waiting for the record…" and the session stays responsive: another key
// is answered at once. The dialog opens once the log is free.
func TestABusyRecordKeepsTheSessionResponsive(t *testing.T) {
	t.Parallel()
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory()})
	tx := pickTx(t, e, "freezable", freezable)
	tm := onTx(t, e, wallets.New(e.Ctx, e.P, e.Actor), tx.ID, "not frozen")
	f, err := os.Open(e.Audit.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	viewtest.Keys(tm, "f")
	viewtest.WaitFor(t, tm, "waiting for the record…")
	viewtest.Keys(tm, "f") // pressed again: one read at a time
	viewtest.WaitFor(t, tm, "one read at a time")
	viewtest.Keys(tm, "?") // the help, drawn while the freeze waits on the log
	viewtest.WaitFor(t, tm, "Keys")
	if screen := uitest.ScreenOf(tm, viewtest.Width, viewtest.Height).String(); strings.Contains(screen, "Freeze wallet transaction") {
		t.Fatalf("the dialog opened while the record was held:\n%s", screen)
	}
	viewtest.Keys(tm, "esc")
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_UN); err != nil {
		t.Fatal(err)
	}
	viewtest.WaitFor(t, tm, "Freeze wallet transaction")
	tm.Quit()
}

// A key left open that cannot be reconciled (the platform's freeze
// history cannot be read): nothing is sent, the footer says why, and the
// refusal is a line of the log.
func TestAnOpenKeyThatCannotBeReconciledIsRefusedAndRecorded(t *testing.T) {
	t.Parallel()
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory()})
	tx := pickTx(t, e, "freezable", freezable)
	// Another process's attempt, whose process ended before its answer.
	other, err := audit.Open(filepath.Dir(e.Audit.Path()), audit.Options{Host: "test-host", Who: audit.Who{Via: audit.ViaLocal, User: "alice"}})
	if err != nil {
		t.Fatal(err)
	}
	at := actions.TxAttempt(tx, true, "fraud hold", "0b0e1c1e-5d0f-4b8e-9a51-0000000000aa")
	if _, err := other.Append(audit.Record{Who: audit.Who{Via: audit.ViaLocal, User: "alice"}, Action: at.Action, Target: at.Target,
		Outcome: audit.OutcomeAttempt, MutationID: at.MutationID, Request: "PUT …/freeze"}); err != nil {
		t.Fatal(err)
	}
	other.Close()
	if err := e.Sandbox.SetFaults(sandbox.FaultSettings{Path: "/freeze-history", ErrorRate: 1}); err != nil {
		t.Fatal(err)
	}
	tm := onTx(t, e, wallets.New(e.Ctx, e.P, e.Actor), tx.ID, "not frozen")
	viewtest.Keys(tm, "f")
	viewtest.WaitFor(t, tm, "nothing was sent")
	tm.Quit()
	rs, err := e.Audit.Read()
	if err != nil {
		t.Fatal(err)
	}
	last := rs[len(rs)-1]
	if len(rs) != 2 || last.Outcome != audit.OutcomeRefused || !strings.Contains(last.Error, "could not be reconciled") || last.MutationID != "" {
		t.Fatalf("the log: %+v; want the refusal after alice's attempt", rs)
	}
}
