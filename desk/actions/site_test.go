package actions_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"treasury/config"
	"treasury/desk/actions"
	"treasury/desk/audit"
	"treasury/desk/platform"
	"treasury/desk/site"
	"treasury/desk/site/sitetest"
	"treasury/process/sandboxprofile"
	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
)

// siteChildEnv marks the test binary started again as one bastion of
// TestARetryFromAnotherBastionReusesTheKey.
const siteChildEnv = "TREASURY_SITE_CHILD"

// A site of three bastions, each a process with its own embedded NATS
// node and its own state directory. An operator triggers a sweep through
// bastion A; the platform applies it and its answer is held; A dies
// (kill -9). The operator retries from bastion B: B's key is A's ("retry
// of"), the platform holds one run, and the local copies of B and C are
// one intact chain, the same line for line.
func TestARetryFromAnotherBastionReusesTheKey(t *testing.T) {
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	proxy, base := newLossy(t, srv.URL, "/trigger")
	p, err := platform.Open(sandboxprofile.Of(srv, config.Builtin()), platform.Options{Now: srv.Clock().Now})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	ctx := context.Background()
	sws, err := p.Wallet.Sweeps(ctx)
	if err != nil || len(sws) == 0 {
		t.Fatalf("a sweep: %v", err)
	}
	sw := sws[0]
	ports := sitetest.FreeAddrs(t, 6)
	dirs := make([]string, 3)
	var bastions []*kid
	for i := range 3 {
		dirs[i] = t.TempDir()
		var routes []string
		for j := range 3 {
			if j != i {
				routes = append(routes, ports[3+j])
			}
		}
		bastions = append(bastions, startChild(t, siteChildEnv, strings.Join([]string{base, dirs[i], sw.ID, fmt.Sprint("bastion-", "abc"[i:i+1]),
			ports[i], ports[3+i], strings.Join(routes, ",")}, "|")))
	}
	for _, b := range bastions {
		b.expect(t, "up")
	}
	a, b, c := bastions[0], bastions[1], bastions[2]
	proxy.set(false, true)
	a.say(t, "key")
	keyA := strings.Fields(a.expect(t, "key"))
	if keyA[2] != "new" {
		t.Fatalf("bastion a's first key: %v", keyA)
	}
	a.say(t, "go")
	deadline := time.Now().Add(20 * time.Second)
	for len(proxy.lines()) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("bastion a never sent the trigger")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err := a.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	a.cmd.Wait()
	proxy.set(false, false)
	b.say(t, "key")
	keyB := strings.Fields(b.expect(t, "key"))
	if keyB[1] != keyA[1] || keyB[2] != "retry" {
		t.Fatalf("bastion b's key %v after bastion a's %v: want a retry of a's key", keyB, keyA)
	}
	b.say(t, "go")
	done := b.expect(t, "done")
	if !strings.HasPrefix(done, "done ok ") {
		t.Fatalf("bastion b's retry: %s", done)
	}
	// Refused in flight while bastion a's process still said it ran
	// (TTL 10 s), unless electing a new leader took longer than that.
	t.Log("bastion b:", done)
	got, err := p.Wallet.Sweep(ctx, sw.ID)
	if err != nil {
		t.Fatal(err)
	}
	bodies := proxy.bodies()
	if len(bodies) != 2 || bodies[0] != bodies[1] || got.LastInstanceID != strings.Fields(done)[2] {
		t.Fatalf("the platform got %q; its last run is %s, bastion b was answered %s: want one run under one key",
			bodies, got.LastInstanceID, done)
	}
	c.say(t, "sync")
	c.expect(t, "synced")
	for _, x := range []*kid{b, c} {
		x.say(t, "quit")
		x.wait(t)
	}
	lb, _ := os.ReadFile(filepath.Join(dirs[1], audit.FileName))
	lc, _ := os.ReadFile(filepath.Join(dirs[2], audit.FileName))
	if string(lb) != string(lc) {
		t.Fatalf("bastions b and c hold different records:\n%s\n---\n%s", lb, lc)
	}
	s, err := audit.VerifyFile(filepath.Join(dirs[2], audit.FileName))
	if err != nil || len(s.Breaks) != 0 || s.Lines < 3 || len(s.Open) != 0 || len(s.Settled) != 1 || s.Settled[0].Host != "bastion-a" {
		t.Fatalf("bastion c's copy: %d lines, open %+v, settled %+v, %v; want a's attempt, settled by b's retry and its outcome", s.Lines, s.Open, s.Settled, err)
	}
}

// siteChild is one bastion: its node of the site, its audit log on the
// site's record, an operator's actor. "key" takes the sweep's key (the
// dialog opens) and says it with "new" or "retry"; "go" triggers the
// sweep under it and says "done ok <instance>" or why not; "sync" reads
// the site's record; "quit" ends.
func siteChild(spec string, in io.Reader, out io.Writer) int {
	f := strings.Split(spec, "|")
	base, dir, sweepID, node, listen, clusterListen, routes := f[0], f[1], f[2], f[3], f[4], f[5], strings.Split(f[6], ",")
	fail := func(err error) int { fmt.Fprintln(os.Stderr, node+":", err); return 1 }
	p, err := platform.Open(sandboxprofile.At(config.Builtin(), base, sandboxtest.Options().Seed, sandbox.DefaultCredentials()), platform.Options{})
	if err != nil {
		return fail(err)
	}
	defer p.Close()
	s, err := site.Start(site.Options{Name: "test-site", Node: node, Listen: listen, ClusterListen: clusterListen, Routes: routes,
		User: "treasury", Password: sitetest.Password, Replicas: 3, StoreDir: filepath.Join(dir, "nats")})
	if err != nil {
		return fail(err)
	}
	defer s.Close()
	log, err := audit.Open(dir, audit.Options{Cmd: "test", Host: node, Replica: s.Record()})
	if err != nil {
		return fail(err)
	}
	defer log.Close()
	stop, err := s.Record().Watch(func() { _ = log.Pull() })
	if err != nil {
		return fail(err)
	}
	defer stop()
	for deadline := time.Now().Add(60 * time.Second); log.Pull() != nil; time.Sleep(200 * time.Millisecond) {
		if time.Now().After(deadline) {
			return fail(fmt.Errorf("the site's record never answered: %v", log.Pull()))
		}
	}
	act := actions.New(actions.Clients{Transactions: p.WalletTransactions}, actions.Identity{Profile: "site", Environment: "test",
		Who: audit.Who{Via: audit.ViaLocal, User: "ana"}}, log)
	ctx := context.Background()
	sw, err := p.WalletTransactions.Sweep(ctx, sweepID)
	if err != nil {
		return fail(err)
	}
	fmt.Fprintln(out, "up")
	sc := bufio.NewScanner(in)
	var k actions.Key
	for sc.Scan() {
		switch sc.Text() {
		case "key":
			// An operator whose dialog says the site cannot be reached
			// (a leader elected after a node died) opens it again.
			for deadline := time.Now().Add(30 * time.Second); log.Pull() != nil && time.Now().Before(deadline); {
				time.Sleep(200 * time.Millisecond)
			}
			// The dialog reconciles the key with the platform first: while
			// the bastion that sent it still says it runs, it is on its way.
			var err error
			for deadline := time.Now().Add(40 * time.Second); time.Now().Before(deadline); time.Sleep(500 * time.Millisecond) {
				if k, err = act.SweepKey(ctx, sw); !errors.As(err, new(actions.ErrInFlight)) &&
					(err == nil || !strings.Contains(err.Error(), "cannot be reached")) {
					break
				}
			}
			if err != nil {
				return fail(err)
			}
			kind := "new"
			if k.Retry != nil {
				kind = "retry"
			}
			fmt.Fprintln(out, "key", k.ID, kind, "at seq", log.State().LastSeq)
		case "go":
			go func() {
				got, _, err := act.TriggerSweep(ctx, sw, k)
				inFlight := 0
				for deadline := time.Now().Add(40 * time.Second); err != nil && time.Now().Before(deadline); {
					switch {
					case errors.As(err, new(actions.ErrInFlight)):
						inFlight++ // the bastion that sent it still said it ran: wait, as the dialog says
					case !strings.Contains(err.Error(), "cannot be reached"):
						deadline = time.Time{}
						continue
					}
					time.Sleep(500 * time.Millisecond) // refused, nothing sent: the operator tries again
					if k, err = act.SweepKey(ctx, sw); err == nil {
						got, _, err = act.TriggerSweep(ctx, sw, k)
					}
				}
				if err != nil {
					fmt.Fprintln(out, "done failed", strings.ReplaceAll(err.Error(), "\n", " "))
					return
				}
				fmt.Fprintln(out, "done ok", got.InstanceID, "in-flight-refusals", inFlight)
			}()
		case "sync":
			err := log.Pull()
			for deadline := time.Now().Add(30 * time.Second); err != nil && time.Now().Before(deadline); err = log.Pull() {
				time.Sleep(200 * time.Millisecond) // a new leader being elected
			}
			if err != nil {
				return fail(err)
			}
			fmt.Fprintln(out, "synced")
		case "quit":
			return 0
		}
	}
	return 0
}
