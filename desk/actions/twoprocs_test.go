package actions_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
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

// childEnv marks the test binary started again as one of the two
// processes of TestTwoProcessesActOnce; it holds the proxy's URL, the
// state directory, the transaction and the sweep.
const childEnv = "TREASURY_ACTIONS_CHILD"

func TestMain(m *testing.M) {
	if spec := os.Getenv(childEnv); spec != "" {
		os.Exit(child(spec, os.Stdin, os.Stdout))
	}
	if spec := os.Getenv(batchChildEnv); spec != "" {
		os.Exit(batchChild(spec, os.Stdin, os.Stdout))
	}
	if spec := os.Getenv(siteChildEnv); spec != "" {
		os.Exit(siteChild(spec, os.Stdin, os.Stdout))
	}
	os.Exit(m.Run())
}

// rounds is how many times the two processes act at once.
const rounds = 50

// Two processes on one state directory (a local dashboard beside treasury
// serve), each an operator who opened the same two dialogs at the same
// moment and confirms at once, 50 times: a freeze or an unfreeze of one
// transaction, and a trigger of one sweep, on a sandbox that answers every
// request late. The platform gets one request per action per round: the
// other process is refused (in flight, or settled since its dialog
// opened), never a second request under a second key. The log is one
// intact chain, every attempt with its outcome.
func TestTwoProcessesActOnce(t *testing.T) {
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	if err := srv.SetFaults(sandbox.FaultSettings{AnswerLatency: sandbox.Duration(40 * time.Millisecond)}); err != nil {
		t.Fatal(err)
	}
	proxy, base := newLossy(t, srv.URL, "/freeze", "/unfreeze", "/trigger")
	p, err := platform.Open(sandboxprofile.Of(srv, config.Builtin()), platform.Options{Now: srv.Clock().Now})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ctx := context.Background()
	var tx wallet.Transaction
	txs, err := p.WalletTransactions.Transactions(ctx, wallet.ListFilter{})
	for _, x := range txs {
		if freezable(x) {
			tx = x
			break
		}
	}
	sws, serr := p.Wallet.Sweeps(ctx)
	if err != nil || serr != nil || tx.ID == "" || len(sws) == 0 {
		t.Fatalf("a transaction and a sweep: %v %v", err, serr)
	}
	sw := sws[0]
	dir := t.TempDir()

	var kids []*kid
	for _, who := range []string{"ana", "ben"} {
		kids = append(kids, startKid(t, fmt.Sprintf("%s|%s|%s|%s|%s", base, dir, tx.ID, sw.ID, who)))
	}
	for round := range rounds {
		action := actions.Freeze
		if round%2 == 1 {
			action = actions.Unfreeze
		}
		before := len(proxy.lines())
		// Both open their dialogs (take their keys), then confirm at once.
		for _, k := range kids {
			k.say(t, "key "+action)
		}
		for _, k := range kids {
			k.expect(t, "ready")
		}
		for _, k := range kids {
			k.say(t, "go")
		}
		var results []string
		for _, k := range kids {
			results = append(results, k.expect(t, "done"))
		}
		sent := proxy.lines()[before:]
		count := map[string]int{}
		for _, l := range sent {
			count[l]++
		}
		freezes := count["PUT "+action] // the proxy names a freeze by its verb
		triggers := count["POST trigger"]
		if freezes != 1 || triggers != 1 {
			t.Fatalf("round %d (%s): the platform got %v, want one %s and one trigger; the processes said %q",
				round, action, sent, action, results)
		}
	}
	for _, k := range kids {
		k.say(t, "quit")
		k.wait(t)
	}
	s, err := audit.VerifyFile(dir + "/" + audit.FileName)
	if err != nil || len(s.Open) != 0 || len(s.Breaks) != 0 {
		t.Fatalf("verify: %d lines, %d open, %v", s.Lines, len(s.Open), err)
	}
	if s.Lines < rounds*4 { // each round: two attempts, two outcomes, two refusals
		t.Fatalf("%d lines for %d rounds", s.Lines, rounds)
	}
}

// childSilence is how long a child may take to answer.
const childSilence = 2 * time.Minute

// kid is a child process, spoken to line by line.
type kid struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Scanner
}

func startKid(t *testing.T, spec string) *kid {
	t.Helper()
	k := startChild(t, childEnv, spec)
	k.expect(t, "up")
	return k
}

// startChild starts the test binary again as the child env names, with
// spec, without waiting for it to be up.
func startChild(t *testing.T, env, spec string) *kid {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), env+"="+spec)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return &kid{cmd: cmd, in: in, out: bufio.NewScanner(out)}
}

func (k *kid) say(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(k.in, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

// expect reads the child's next line, which must start with word. A
// child silent for childSilence is killed: a hang fails the test, it does
// not hold it until its timeout.
func (k *kid) expect(t *testing.T, word string) string {
	t.Helper()
	stuck := time.AfterFunc(childSilence, func() { k.cmd.Process.Kill() })
	defer stuck.Stop()
	if !k.out.Scan() {
		t.Fatalf("the child ended before %q: %v", word, k.out.Err())
	}
	line := k.out.Text()
	if !strings.HasPrefix(line, word) {
		t.Fatalf("the child said %q, want %q", line, word)
	}
	return line
}

func (k *kid) wait(t *testing.T) {
	t.Helper()
	k.in.Close()
	if err := k.cmd.Wait(); err != nil {
		t.Fatalf("child: %v", err)
	}
}

// child is one process: a platform on the proxy, the state directory's
// audit log, an operator's actor. "key <action>" takes the keys of the
// action on the transaction and of the sweep's trigger (the dialogs
// open); "go" runs both at once; "quit" ends.
func child(spec string, in io.Reader, out io.Writer) int {
	f := strings.Split(spec, "|")
	base, dir, txID, sweepID, who := f[0], f[1], f[2], f[3], f[4]
	fail := func(err error) int { fmt.Fprintln(os.Stderr, "child:", err); return 1 }
	p, err := platform.Open(sandboxprofile.At(config.Builtin(), base, sandboxtest.Options().Seed, sandbox.DefaultCredentials()), platform.Options{})
	if err != nil {
		return fail(err)
	}
	defer p.Close()
	log, err := audit.Open(dir, audit.Options{Cmd: "test-" + who})
	if err != nil {
		return fail(err)
	}
	defer log.Close()
	act := actions.New(actions.Clients{Transactions: p.WalletTransactions}, actions.Identity{Profile: "sandbox", Environment: "test",
		Who: audit.Who{Via: audit.ViaLocal, User: who}}, log)
	ctx := context.Background()
	tx, err := p.WalletTransactions.Transaction(ctx, txID)
	if err != nil {
		return fail(err)
	}
	sw, err := p.WalletTransactions.Sweep(ctx, sweepID)
	if err != nil {
		return fail(err)
	}
	fmt.Fprintln(out, "up")
	sc := bufio.NewScanner(in)
	var action string
	var kf, ks actions.Key
	var rt walletclient.Route
	for sc.Scan() {
		cmd := strings.Fields(sc.Text())
		switch cmd[0] {
		case "key":
			action = cmd[1]
			freeze := action == actions.Freeze
			if rt, tx, err = act.FreezeRoute(ctx, tx, freeze); err != nil {
				return fail(err)
			}
			kf, ks = act.Key(action, tx.ID), act.Key(actions.Sweep, sw.ID)
			fmt.Fprintln(out, "ready")
		case "go":
			var wg sync.WaitGroup
			var ferr, serr error
			wg.Add(2)
			go func() {
				defer wg.Done()
				_, _, ferr = act.FreezeTx(ctx, rt, tx, action == actions.Freeze, "round "+strconv.Itoa(len(action)), kf)
			}()
			go func() { defer wg.Done(); _, _, serr = act.TriggerSweep(ctx, sw, ks) }()
			wg.Wait()
			fmt.Fprintf(out, "done %s: %s; sweep: %s\n", who, says(ferr), says(serr))
		case "quit":
			return 0
		}
	}
	return 0
}

// says names how an action ended, in a word and why.
func says(err error) string {
	switch {
	case err == nil:
		return "done"
	case errors.As(err, new(actions.ErrInFlight)):
		return "refused in flight"
	case errors.As(err, new(actions.ErrSettled)):
		return "refused settled"
	}
	return "failed (" + strings.ReplaceAll(err.Error(), "\n", " ") + ")"
}
