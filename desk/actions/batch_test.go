package actions_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"testing"

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

// batchChildEnv marks the test binary started again as the process that
// freezes a batch and is killed part-way (TestABatchKilledPartWay...).
const batchChildEnv = "TREASURY_BATCH_CHILD"

// A batch of nine freezes across two wallets, confirmed once, is killed
// (SIGKILL) part-way: six were answered, two were applied by the platform
// but their answers never came, one never reached it. Its process gone,
// another on the same state directory confirms the same nine again: the
// plan reconciles the three the crash left open with the platform first.
// The two applied are recorded done, their evidence the freeze history
// that names their keys (and their state rules them out); the one never
// applied goes again under the key its attempt line recorded, and none of
// the six done. The platform holds one freeze per transaction, each under
// its recorded key; the log is intact, and nothing is left open.
func TestABatchKilledPartWayRetriesExactlyTheOpenOnes(t *testing.T) {
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	proxy, base := newLossy(t, srv.URL, "/freeze")
	direct, err := platform.Open(sandboxprofile.Of(srv, config.Builtin()), platform.Options{Now: srv.Clock().Now})
	if err != nil {
		t.Fatal(err)
	}
	defer direct.Close()
	txs := nineAcrossTwoWallets(t, direct)
	ids := make([]string, len(txs))
	for i, tx := range txs {
		ids[i] = tx.ID
	}
	open, applied := []int{7}, []int{2, 5}
	proxy.mu.Lock()
	proxy.late, proxy.lost = []string{ids[2], ids[5]}, []string{ids[7]}
	proxy.mu.Unlock()

	dir := t.TempDir()
	k := startChild(t, batchChildEnv, base+"|"+dir+"|"+strings.Join(ids, ","))
	k.expect(t, "up")
	k.say(t, "go")
	// Every attempt line is written, six answered, and the two late
	// ones applied: then the process dies.
	waitFor(t, func() bool {
		rs := readLog(t, dir)
		return count(rs, audit.OutcomeAttempt) == 9 && count(rs, audit.OutcomeDone) == 6 && len(proxy.lines()) == 9
	})
	for _, i := range []int{2, 5} {
		waitFor(t, func() bool { return frozen(t, direct, txs[i]) })
	}
	if err := k.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = k.cmd.Wait()
	recorded := map[string]string{} // the key each attempt line recorded, by transaction
	for _, r := range readLog(t, dir) {
		if r.Outcome == audit.OutcomeAttempt {
			recorded[r.Target.ID] = r.MutationID
		}
	}

	proxy.mu.Lock()
	proxy.late, proxy.lost = nil, nil
	proxy.mu.Unlock()
	before := len(proxy.bodies())
	p, err := platform.Open(sandboxprofile.At(config.Builtin(), base, sandboxtest.Options().Seed, sandbox.DefaultCredentials()), platform.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	log, err := audit.Open(dir, audit.Options{Cmd: "test-retry"})
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	act := actions.New(actions.Clients{Transactions: p.WalletTransactions},
		actions.Identity{Profile: "sandbox", Environment: "test", Who: tester}, log)
	items, plan := planFreeze(t, p, act, ids)
	var goes []int
	for i, pl := range plan {
		if pl.Out == "" {
			goes = append(goes, i)
			if pl.Key.ID != recorded[ids[i]] || pl.Key.Retry == nil {
				t.Errorf("transaction %d goes under %s (retry %v), its attempt recorded %s", i, pl.Key.ID, pl.Key.Retry != nil, recorded[ids[i]])
			}
		} else if !strings.Contains(pl.Out, "frozen already") {
			t.Errorf("transaction %d left out: %q, want its state (frozen already)", i, pl.Out)
		}
	}
	if !slices.Equal(goes, open) {
		t.Fatalf("the retry would send %v, want exactly the open one not applied %v", goes, open)
	}
	for _, i := range applied {
		st := plan[i].Key.Settled
		if len(st) != 1 || st[0].Outcome != audit.OutcomeDone || st[0].Attempt.ID != recorded[ids[i]] ||
			!strings.Contains(st[0].Evidence, "the freeze history names "+recorded[ids[i]]) {
			t.Errorf("transaction %d, applied before the crash: settled %+v, want done with the freeze history as evidence", i, st)
		}
	}
	for _, r := range act.FreezeTxs(context.Background(), items, true, "fraud ring, again") {
		if r.Err != nil || r.Sent.Retry == nil {
			t.Errorf("retry: %v (a retry: %v)", r.Err, r.Sent.Retry != nil)
		}
	}
	sent := mutationIDs(t, proxy.bodies()[before:])
	var want []string
	for _, i := range open {
		want = append(want, recorded[ids[i]])
	}
	slices.Sort(sent)
	slices.Sort(want)
	if !slices.Equal(sent, want) {
		t.Fatalf("the retry sent %v, want the open ones' keys %v", sent, want)
	}
	for i, tx := range txs {
		h, err := direct.Wallet.FreezeHistory(context.Background(), walletclient.RefOf(tx))
		if err != nil {
			t.Fatal(err)
		}
		if len(h) != 1 || !strings.EqualFold(h[0].MutationID, recorded[tx.ID]) {
			t.Errorf("transaction %d: the platform holds %+v, want one freeze under %s", i, h, recorded[tx.ID])
		}
	}
	if _, err := audit.VerifyFile(dir + "/" + audit.FileName); err != nil {
		t.Fatal(err)
	}
	for i, pl := range act.Plan(context.Background(), len(ids), func(ctx context.Context, i int) (actions.Key, error) {
		return act.TxKey(ctx, txs[i], true)
	}, func(int) string { return "" }) {
		if pl.Key.Retry != nil || len(pl.Key.Settled) > 0 {
			t.Errorf("transaction %d is still open: %+v", i, pl.Key)
		}
	}
}

// One batch: every attempt line is written before the first request
// leaves, each record has its own key, and each ends on its own: one
// frozen from another dialog since the batch was asked is refused (it was
// settled since: nothing sent) while the others are done.
func TestABatchWritesEveryAttemptFirst(t *testing.T) {
	e := newEnv(t, false)
	txs := nineAcrossTwoWallets(t, e.p)
	ids := make([]string, len(txs))
	for i, tx := range txs {
		ids[i] = tx.ID
	}
	items, plan := planFreeze(t, e.p, e.act, ids)
	if len(items) != 9 {
		t.Fatalf("plan %+v", plan)
	}
	// Frozen behind the batch's back, after it was planned.
	if _, _, err := e.act.FreezeTx(context.Background(), walletclient.Route{}, txs[4], true, "elsewhere", e.act.Key(actions.Freeze, txs[4].ID)); err != nil {
		t.Fatal(err)
	}
	lines := len(e.audit(t))
	rs := e.act.FreezeTxs(context.Background(), items, true, "fraud ring 7")
	keys := map[string]bool{}
	for i, r := range rs {
		keys[r.Sent.Key] = true
		switch {
		case i == 4 && !errors.As(r.Err, new(actions.ErrSettled)):
			t.Errorf("the one frozen since: %v, want it refused as settled since", r.Err)
		case i != 4 && (r.Err != nil || !r.Tx.FreezeInfo.IsFrozen):
			t.Errorf("transaction %d: %v, answered %+v", i, r.Err, r.Tx.FreezeInfo)
		}
	}
	if len(keys) != 9 {
		t.Errorf("%d keys for nine records", len(keys))
	}
	es := e.audit(t)[lines:]
	for i, r := range es {
		first := r.Outcome == audit.OutcomeAttempt || r.Outcome == audit.OutcomeRefused
		if (i < 9) != first || r.Reason != "fraud ring 7" {
			t.Fatalf("line %d of the batch: %s %s (%q); every attempt comes first", i, r.Outcome, r.Target.ID, r.Reason)
		}
	}
	if count(es, audit.OutcomeAttempt) != 8 || count(es, audit.OutcomeDone) != 8 || count(es, audit.OutcomeRefused) != 1 {
		t.Errorf("outcomes: %d attempts, %d done, %d refused", count(es, audit.OutcomeAttempt), count(es, audit.OutcomeDone), count(es, audit.OutcomeRefused))
	}
}

// planFreeze reads the transactions of ids as they are now and plans
// their freeze: a frozen one is ruled out by its state.
func planFreeze(t *testing.T, p *platform.Platform, act *actions.Actor, ids []string) ([]actions.TxItem, []actions.Planned) {
	t.Helper()
	now := make([]wallet.Transaction, len(ids))
	for i, id := range ids {
		tx, err := p.WalletTransactions.Transaction(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		now[i] = tx
	}
	plan := act.Plan(context.Background(), len(ids), func(ctx context.Context, i int) (actions.Key, error) {
		return act.TxKey(ctx, now[i], true)
	}, func(i int) string {
		if now[i].FreezeInfo.IsFrozen {
			return "frozen already"
		}
		return ""
	})
	var items []actions.TxItem
	for i, pl := range plan {
		if pl.Out == "" {
			items = append(items, actions.TxItem{Tx: now[i], Key: pl.Key})
		}
	}
	return items, plan
}

// nineAcrossTwoWallets are nine freezable transactions, of two wallets
// at least.
func nineAcrossTwoWallets(t *testing.T, p *platform.Platform) []wallet.Transaction {
	t.Helper()
	all, err := p.WalletTransactions.Transactions(context.Background(), wallet.ListFilter{})
	if err != nil {
		t.Fatal(err)
	}
	var out []wallet.Transaction
	wallets := map[string]int{}
	for _, tx := range all {
		if freezable(tx) && len(out) < 9 && (wallets[tx.WalletID] < 5) {
			out = append(out, tx)
			wallets[tx.WalletID]++
		}
	}
	if len(out) < 9 || len(wallets) < 2 {
		t.Fatalf("nine freezable transactions of two wallets: %d of %d", len(out), len(wallets))
	}
	return out
}

func frozen(t *testing.T, p *platform.Platform, tx wallet.Transaction) bool {
	t.Helper()
	now, err := p.WalletTransactions.Transaction(context.Background(), tx.ID)
	return err == nil && now.FreezeInfo.IsFrozen
}

// readLog is the state directory's audit log as written so far.
func readLog(t *testing.T, dir string) []audit.Record {
	t.Helper()
	f, err := os.Open(dir + "/" + audit.FileName)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []audit.Record
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r audit.Record
		if json.Unmarshal(sc.Bytes(), &r) == nil {
			out = append(out, r)
		}
	}
	return out
}

func count(rs []audit.Record, outcome string) int {
	n := 0
	for _, r := range rs {
		if r.Outcome == outcome {
			n++
		}
	}
	return n
}

// batchChild is the process of a batch: a platform on the proxy, the
// state directory's audit log, an operator's actor; "go" plans the
// freeze of the transactions and sends it, and then says "done".
func batchChild(spec string, in io.Reader, out io.Writer) int {
	f := strings.Split(spec, "|")
	base, dir, ids := f[0], f[1], strings.Split(f[2], ",")
	fail := func(err error) int { fmt.Fprintln(os.Stderr, "batch child:", err); return 1 }
	p, err := platform.Open(sandboxprofile.At(config.Builtin(), base, sandboxtest.Options().Seed, sandbox.DefaultCredentials()), platform.Options{})
	if err != nil {
		return fail(err)
	}
	defer p.Close()
	log, err := audit.Open(dir, audit.Options{Cmd: "test-batch"})
	if err != nil {
		return fail(err)
	}
	defer log.Close()
	act := actions.New(actions.Clients{Transactions: p.WalletTransactions}, actions.Identity{Profile: "sandbox", Environment: "test", Who: tester}, log)
	ctx := context.Background()
	items := make([]actions.TxItem, len(ids))
	for i, id := range ids {
		if items[i].Tx, err = p.WalletTransactions.Transaction(ctx, id); err != nil {
			return fail(err)
		}
		items[i].Key = act.Key(actions.Freeze, id)
	}
	fmt.Fprintln(out, "up")
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		if sc.Text() == "go" {
			rs := act.FreezeTxs(ctx, items, true, "fraud ring 7")
			fmt.Fprintf(out, "done %d\n", len(rs))
		}
	}
	return 0
}
