package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"treasury/config"
	"treasury/desk/actions"
	"treasury/desk/audit"
	"treasury/desk/platform"
	"treasury/desk/site"
	"treasury/process/sandboxprofile"
	"treasury/sandbox"
	"treasury/wire/apierr"
	"treasury/wire/custody"
	"treasury/wire/wallet"
	walletclient "treasury/wire/wallet/client"
)

// agentEnv carries an agent's spec (JSON) to the soak binary started
// again as one operator's process.
const agentEnv = "TREASURY_SOAK_AGENT"

// agentSpec is one operator's process: where the platform is (the fault
// proxy in front of the sandbox), its state directory, who it is, and
// the site it joins (nil: the state directory is the record).
type agentSpec struct {
	URL      string
	Seed     int64
	StateDir string
	User     string
	Host     string
	Site     *siteSpec
	// Blind is the control run: reconciliation off (actions.Clients.Blind).
	Blind bool
	// Timeout bounds one action, as a dialog's call does.
	Timeout time.Duration
}

// siteSpec is the site an agent joins as a client of its nodes.
type siteSpec struct {
	Name     string
	URLs     []string
	Password string
	Replicas int
}

// agent is the process of one operator: it reads lines from the soak
// ("act <action> <id>", "settle <kind> <id>", "quit") and answers one
// line for each ("result <outcome> <key> <detail>", "settled", "error
// <what>"), acting as the dashboard's dialogs do: the record read, its
// key taken (each open key reconciled first), the state checked, the
// action sent.
type agent struct {
	spec agentSpec
	p    *platform.Platform
	act  *actions.Actor
}

// runAgent is main for an agent; it returns the process's exit code.
func runAgent(raw string, in io.Reader, out io.Writer) int {
	var spec agentSpec
	fail := func(err error) int { fmt.Fprintln(os.Stderr, "soak agent:", err); return 1 }
	if err := json.Unmarshal([]byte(raw), &spec); err != nil {
		return fail(err)
	}
	// The sandbox's clock, which the soak moves on (an intent's expiry is
	// on it), as the embedded sandbox gives its own to the dashboard.
	p, err := platform.Open(sandboxprofile.At(config.Builtin(), spec.URL, spec.Seed, sandbox.DefaultCredentials()),
		platform.Options{Now: sandboxClock(spec.URL)})
	if err != nil {
		return fail(err)
	}
	defer p.Close()
	who := audit.Who{Via: audit.ViaLocal, User: spec.User}
	opts := audit.Options{Cmd: "soak", Host: spec.Host, Who: who}
	var s *site.Site
	if spec.Site != nil {
		if s, err = site.Start(site.Options{Name: spec.Site.Name, Node: spec.Host, URLs: spec.Site.URLs, User: config.DefaultClusterUser,
			Password: spec.Site.Password, Replicas: spec.Site.Replicas}); err != nil {
			return fail(err)
		}
		defer s.Close()
		opts.Replica = s.Record()
	}
	log, err := audit.Open(spec.StateDir, opts)
	if err != nil {
		return fail(err)
	}
	defer log.Close()
	if s != nil {
		stop, err := s.Record().Watch(func() { _ = log.Pull() })
		if err != nil {
			return fail(err)
		}
		defer stop()
	}
	g := &agent{spec: spec, p: p, act: actions.New(actions.Clients{Transactions: p.WalletTransactions, Custody: p.Custody,
		CanSign: p.CustodyCanSign, Blind: spec.Blind}, actions.Identity{Profile: "soak", Environment: "test", Who: who}, log)}
	fmt.Fprintln(out, "up")
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) == 3 && f[0] == "act":
			fmt.Fprintln(out, "result", g.do(f[1], f[2]))
		case len(f) == 3 && f[0] == "settle":
			if err := g.settle(f[1], f[2]); err != nil {
				fmt.Fprintln(out, "error", oneLine(err))
			} else {
				fmt.Fprintln(out, "settled")
			}
		case len(f) == 1 && f[0] == "quit":
			return 0
		default:
			fmt.Fprintln(out, "error unknown command", sc.Text())
		}
	}
	return 0
}

// do runs one action as its dialog would, and says how it ended: an
// outcome word (done, failed, superseded, unknown, refused), or "ruled"
// (the record's state rules it out: nothing to confirm), "inflight" (an
// attempt on the record is on its way), "error" (nothing decided); then
// the key it went under ("-" when none) and what was said.
func (g *agent) do(action, id string) string {
	ctx, cancel := context.WithTimeout(context.Background(), g.spec.Timeout)
	defer cancel()
	var (
		sent actions.Sent
		err  error
	)
	switch action {
	case actions.Freeze, actions.Unfreeze:
		freeze := action == actions.Freeze
		tx, rerr := g.p.WalletTransactions.Transaction(ctx, id)
		if rerr != nil {
			return "error - " + oneLine(rerr)
		}
		rt, now, rerr := g.act.FreezeRoute(ctx, tx, freeze)
		if rerr != nil {
			return "error - " + oneLine(rerr)
		}
		k, kerr := g.act.TxKey(ctx, now, freeze)
		if word := keyWord(kerr); word != "" {
			return word
		}
		if why := wallet.FreezeRuledOut(now, freeze); why != "" && k.Retry == nil {
			return "ruled - " + why
		}
		_, sent, err = g.act.FreezeTx(ctx, rt, now, freeze, "soak", k)
	case actions.Lock, actions.Unlock:
		lock := action == actions.Lock
		ep, rerr := g.p.Custody.Endpoint(ctx, id)
		if rerr != nil {
			return "error - " + oneLine(rerr)
		}
		k, kerr := g.act.EndpointKey(ctx, ep, lock)
		if word := keyWord(kerr); word != "" {
			return word
		}
		if (ep.Lock == custody.LockLocked) == lock && k.Retry == nil {
			return "ruled - " + ep.Lock
		}
		_, sent, err = g.act.LockEndpoint(ctx, ep, lock, "soak", k)
	case actions.Sweep:
		sw, rerr := g.p.WalletTransactions.Sweep(ctx, id)
		if rerr != nil {
			return "error - " + oneLine(rerr)
		}
		k, kerr := g.act.SweepKey(ctx, sw)
		if word := keyWord(kerr); word != "" {
			return word
		}
		if sw.SweepRunning && k.Retry == nil {
			return "ruled - running"
		}
		_, sent, err = g.act.TriggerSweep(ctx, sw, k)
	default:
		return "error - unknown action " + action
	}
	key := sent.Key
	if key == "" {
		key = "-"
	}
	return outcomeWord(err) + " " + key + " " + oneLine(err)
}

// settle reconciles every key left open on a record (kind "tx", "ep",
// "sweep"), as the next dialog on it would, sending nothing.
func (g *agent) settle(kind, id string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 4*g.spec.Timeout)
	defer cancel()
	switch kind {
	case "tx":
		tx, err := g.p.WalletTransactions.TransactionAt(ctx, walletclient.Ref{TxID: id})
		if err != nil {
			return err
		}
		if _, err := g.act.TxKey(ctx, tx, true); err != nil {
			return err
		}
		_, err = g.act.TxKey(ctx, tx, false)
		return err
	case "ep":
		ep, err := g.p.Custody.Endpoint(ctx, id)
		if err != nil {
			return err
		}
		_, err = g.act.EndpointKey(ctx, ep, true)
		return err
	case "sweep":
		sw, err := g.p.WalletTransactions.Sweep(ctx, id)
		if err != nil {
			return err
		}
		_, err = g.act.SweepKey(ctx, sw)
		return err
	}
	return fmt.Errorf("unknown kind %q", kind)
}

// keyWord says why no action follows a key that could not be taken.
func keyWord(err error) string {
	switch {
	case err == nil:
		return ""
	case errors.As(err, new(actions.ErrInFlight)):
		return "inflight - " + oneLine(err)
	}
	return "error - " + oneLine(err)
}

// outcomeWord is the audit outcome an action's error records.
func outcomeWord(err error) string {
	switch {
	case actions.Applied(err):
		return audit.OutcomeDone
	case errors.As(err, new(actions.ErrSuperseded)):
		return audit.OutcomeSuperseded
	case actions.Unknown(err):
		return audit.OutcomeUnknown
	}
	if _, ok := apierr.As(err); ok {
		return audit.OutcomeFailed
	}
	return audit.OutcomeRefused
}

func oneLine(err error) string {
	if err == nil {
		return ""
	}
	return strings.ReplaceAll(err.Error(), "\n", "; ")
}

// sandboxClock reads the sandbox's clock (GET /_sandbox/clock), at most
// every 50 ms; the host's when it cannot be read.
func sandboxClock(url string) func() time.Time {
	var (
		mu   sync.Mutex
		at   time.Time
		read time.Time
	)
	hc := &http.Client{Timeout: 2 * time.Second}
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		if time.Since(read) < 50*time.Millisecond {
			return at.Add(time.Since(read))
		}
		res, err := hc.Get(url + sandbox.PrefixControl + "/clock")
		if err != nil {
			return time.Now()
		}
		defer res.Body.Close()
		var c struct {
			Now time.Time `json:"now"`
		}
		if json.NewDecoder(res.Body).Decode(&c) != nil {
			return time.Now()
		}
		at, read = c.Now, time.Now()
		return at
	}
}
