package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"treasury/desk/actions"
	"treasury/desk/audit"
	"treasury/desk/platform"
	"treasury/kit/fulldisk"
	"treasury/kit/parallel"
	"treasury/sandbox"
	"treasury/wire/custody"
	"treasury/wire/wallet"
)

// More fault kinds, beside the proxy's: what befalls an agent or its disk
// while its request waits on a held answer.
const (
	faultKill = "kill -9"
	faultStop = "SIGSTOP/SIGCONT"
	faultFull = "full disk"
	faultTear = "torn last line"
)

// env is what every schedule shares: the sandbox (its ground truth), the
// proxy in front of it, a platform on it (to pick records and advance
// nothing), the site's nodes when the schedules run on a site.
type env struct {
	srv     *sandbox.Server
	proxy   *proxy
	p       *platform.Platform
	seed    int64
	blind   bool
	timeout time.Duration
	site    *siteNodes
	tmp     string
	disks   bool // a tmpfs can be mounted: full-disk faults are real
	keep    bool // keep every schedule's log, not only those with contradictions
}

// report is what one schedule did and found.
type report struct {
	seed           uint64
	steps          int
	faults         map[string]int
	contradictions []string
	kept           string // where the log of a schedule with contradictions is kept
}

// step is one action of a schedule: which agent, on which record, and the
// fault it meets ("" for none).
type step struct {
	agent          int
	action, id     string
	kind           string // tx, ep, sweep
	fault          string
	together       bool // starts with the step before it, on another agent
	stopFor        time.Duration
	advanceAfterBy time.Duration
}

// host is one bastion of a schedule: its state directory (on a disk of
// its own when full-disk faults are real) and its agent.
type host struct {
	name string
	dir  string
	disk *fulldisk.Disk
}

// records are the records a schedule acts on.
type records struct{ txs, eps, sws []string }

// pick chooses the records: transactions that can be frozen or are frozen
// (a frozen one stays where it is), endpoints not archived, idle sweeps.
func (e *env) pick(r *rand.Rand) (records, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var rs records
	txs, err := e.p.WalletTransactions.Transactions(ctx, wallet.ListFilter{})
	if err != nil {
		return rs, err
	}
	r.Shuffle(len(txs), func(i, j int) { txs[i], txs[j] = txs[j], txs[i] })
	for _, tx := range txs {
		if len(rs.txs) < 3 && (wallet.FreezeRuledOut(tx, true) == "" || wallet.FreezeRuledOut(tx, false) == "") {
			rs.txs = append(rs.txs, tx.ID)
		}
	}
	eps, err := e.p.Custody.Endpoints(ctx)
	if err != nil {
		return rs, err
	}
	for _, ep := range eps {
		if len(rs.eps) < 2 && ep.Lock != custody.LockArchived {
			rs.eps = append(rs.eps, ep.ID)
		}
	}
	sws, err := e.p.Wallet.Sweeps(ctx)
	if err != nil {
		return rs, err
	}
	for _, sw := range sws {
		if len(rs.sws) < 1 {
			rs.sws = append(rs.sws, sw.ID)
		}
	}
	if len(rs.txs) == 0 || len(rs.eps) == 0 || len(rs.sws) == 0 {
		return rs, fmt.Errorf("records to act on: %d transactions, %d endpoints, %d sweeps", len(rs.txs), len(rs.eps), len(rs.sws))
	}
	return rs, nil
}

// plan draws a schedule of n steps over agents, about half of them meeting
// a fault.
func (e *env) plan(r *rand.Rand, rs records, agents, n int) []step {
	faults := []string{faultHold, faultLoseAnswer, faultLoseRequest, faultKill, faultStop, faultTear}
	if e.disks {
		faults = append(faults, faultFull)
	}
	out := make([]step, n)
	next := r.IntN(len(faults)) // the kinds in turn: a few schedules meet every one
	group := map[int]bool{}     // the agents of the steps running together
	for i := range out {
		s := &out[i]
		s.agent = r.IntN(agents)
		switch x := r.IntN(10); {
		case x < 5:
			s.kind, s.id = "tx", rs.txs[r.IntN(len(rs.txs))]
			s.action = []string{actions.Freeze, actions.Unfreeze}[r.IntN(2)]
		case x < 8:
			s.kind, s.id = "ep", rs.eps[r.IntN(len(rs.eps))]
			s.action = []string{actions.Lock, actions.Unlock}[r.IntN(2)]
		default:
			s.kind, s.id, s.action = "sweep", rs.sws[0], actions.Sweep
		}
		if r.IntN(2) == 0 {
			s.fault = faults[next%len(faults)]
			next++
		}
		s.stopFor = time.Duration(300+r.IntN(2500)) * time.Millisecond
		if e.site != nil && r.IntN(4) == 0 {
			s.stopFor = 11 * time.Second // past the site's word that it runs: others may take its key
		}
		// Steps run together on distinct agents: one agent acts once at
		// a time, as a person does.
		s.together = i > 0 && r.IntN(3) == 0 && !group[s.agent]
		if !s.together {
			clear(group)
		}
		group[s.agent] = true
		s.advanceAfterBy = time.Duration(10+r.IntN(30)) * time.Second
	}
	return out
}

// scenario is the schedule the issue found wrong: agent 0 freezes a
// transaction, the platform applies it, and the agent is killed before
// the answer; agent 1 unfreezes it, then freezes it again.
func scenario(rs records) []step {
	tx := rs.txs[0]
	return []step{
		{agent: 0, kind: "tx", id: tx, action: actions.Freeze, fault: faultKill, advanceAfterBy: time.Second},
		{agent: 1, kind: "tx", id: tx, action: actions.Unfreeze, advanceAfterBy: time.Second},
		{agent: 1, kind: "tx", id: tx, action: actions.Freeze, advanceAfterBy: time.Second},
	}
}

// run runs one schedule: its hosts and agents, its steps with their
// faults, then every record reconciled by a fresh agent, and the audit
// log compared with the platform's ground truth.
func (e *env) run(seed uint64, scripted bool) (report, error) {
	r := rand.New(rand.NewPCG(seed, uint64(e.seed)))
	rep := report{seed: seed, faults: map[string]int{}}
	rs, err := e.pick(r)
	for tries := 0; err != nil && tries < 20; tries++ {
		// Transactions end as the clock goes on; new ones come every few
		// minutes of sandbox time.
		e.srv.AdvanceClock(3 * time.Minute)
		rs, err = e.pick(r)
	}
	if err != nil {
		return rep, err
	}
	// A transaction for the scenario that can be frozen.
	if scripted {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		for i, id := range rs.txs {
			if tx, err := e.p.WalletTransactions.Transaction(ctx, id); err == nil && wallet.FreezeRuledOut(tx, true) == "" {
				rs.txs[0], rs.txs[i] = rs.txs[i], rs.txs[0]
				break
			}
		}
		cancel()
	}
	hosts, err := e.hosts(r)
	if err != nil {
		return rep, err
	}
	defer func() {
		for _, h := range hosts {
			if h.disk != nil {
				h.disk.Free()
				h.disk.Unmount()
			}
		}
	}()
	nAgents := 3
	if e.site == nil {
		nAgents = 2 + r.IntN(2)
	}
	agents := make([]*proc, nAgents)
	spec := func(i int) agentSpec {
		h := hosts[i%len(hosts)]
		s := agentSpec{URL: e.proxy.URL(), Seed: e.seed, StateDir: h.dir, User: fmt.Sprintf("op%d", i), Host: h.name,
			Blind: e.blind, Timeout: e.timeout}
		if e.site != nil {
			s.Site = e.site.spec()
		}
		return s
	}
	for i := range agents {
		if agents[i], err = start(spec(i)); err != nil {
			return rep, err
		}
	}
	defer func() {
		for _, a := range agents {
			if a != nil {
				a.kill()
			}
		}
	}()
	before := truth(e.srv.Keys())

	steps := scenario(rs)
	if !scripted {
		steps = e.plan(r, rs, nAgents, 6+r.IntN(8))
	}
	var mu sync.Mutex // agents (restarted by a kill)
	for i := 0; i < len(steps); {
		j := i
		for ; j < len(steps) && (j == i || steps[j].together); j++ {
			if f := steps[j].fault; f != "" {
				rep.faults[f]++
			}
		}
		parallel.Each(j-i, 0, func(k int) { // the steps taken together, at once
			s := steps[i+k]
			e.step(s, hosts[s.agent%len(hosts)], &mu, agents, spec)
		})
		e.srv.AdvanceClock(steps[j-1].advanceAfterBy)
		i = j
	}
	rep.steps = len(steps)
	for i, a := range agents {
		a.quit()
		agents[i] = nil
	}
	for _, h := range hosts {
		if h.disk != nil {
			h.disk.Free()
		}
	}
	return rep, e.judge(&rep, hosts, rs, spec(0), before)
}

// step runs one step on its agent, with its fault.
func (e *env) step(s step, h host, mu *sync.Mutex, agents []*proc, spec func(int) agentSpec) {
	mu.Lock()
	a := agents[s.agent]
	mu.Unlock()
	var ru *rule
	switch s.fault {
	case faultHold, faultLoseAnswer, faultLoseRequest:
		ru = e.proxy.arm(s.id, s.fault)
	case faultKill, faultStop, faultFull, faultTear:
		ru = e.proxy.arm(s.id, faultHold)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = a.ask("act "+s.action+" "+s.id, 4*e.timeout+15*time.Second)
	}()
	struck := false
	if ru != nil {
		select {
		case <-ru.hit: // the attempt line is written, the request at the platform
			e.strike(s, h, a)
			struck = true
		case <-done: // nothing sent (ruled out, in flight): no fault met
		case <-time.After(4*e.timeout + 15*time.Second):
		}
		e.proxy.disarm(s.id)
	}
	<-done
	if s.fault == faultKill && struck {
		// The operator starts the dashboard again.
		if na, err := start(spec(s.agent)); err == nil {
			mu.Lock()
			agents[s.agent] = na
			mu.Unlock()
		} else {
			fmt.Fprintln(os.Stderr, "soak: restarting an agent:", err)
		}
	}
}

// strike injects the step's fault while its request waits at the
// platform (the proxy holds the answer).
func (e *env) strike(s step, h host, a *proc) {
	switch s.fault {
	case faultKill:
		a.kill()
	case faultStop:
		a.signal(syscall.SIGSTOP)
		time.Sleep(s.stopFor)
		a.signal(syscall.SIGCONT)
	case faultFull:
		if h.disk != nil {
			_ = h.disk.Fill()
			go func() { // room comes back a moment after the answer
				time.Sleep(s.stopFor)
				_ = h.disk.Free()
			}()
		}
	case faultTear:
		tear(filepath.Join(h.dir, audit.FileName))
	}
}

// tear truncates a log in the middle of its last line.
func tear(path string) {
	b, err := os.ReadFile(path)
	if err != nil || len(b) < 2 {
		return
	}
	start := bytes.LastIndexByte(b[:len(b)-1], '\n') + 1
	_ = os.Truncate(path, int64(start+(len(b)-start)/2))
}

// hosts are the schedule's bastions: one state directory shared by every
// agent, or one per agent on a site; each on a disk of its own when
// full-disk faults are real.
func (e *env) hosts(r *rand.Rand) ([]host, error) {
	n := 1
	if e.site != nil {
		n = 3
	}
	out := make([]host, n)
	for i := range out {
		out[i].name = fmt.Sprintf("b%d", i+1)
		if e.disks {
			d, err := fulldisk.Mount(e.tmp, 4<<20)
			if err != nil {
				return nil, err
			}
			out[i].disk, out[i].dir = d, d.Dir
			continue
		}
		dir, err := os.MkdirTemp(e.tmp, "host-")
		if err != nil {
			return nil, err
		}
		out[i].dir = dir
	}
	return out, nil
}

// judge reconciles every record with a fresh agent on the first host (it
// sends nothing), then compares its copy of the log with the platform's
// keys.
func (e *env) judge(rep *report, hosts []host, rs records, spec agentSpec, before map[string]applied) error {
	h := hosts[0]
	spec.User = "settler"
	a, err := start(spec)
	if err != nil {
		return err
	}
	var errs []error
	for kind, ids := range map[string][]string{"tx": rs.txs, "ep": rs.eps, "sweep": rs.sws} {
		for _, id := range ids {
			// An attempt of a process that was killed is on its way until
			// its word that it runs lapses (on a site: seconds): wait for
			// it, as an operator told "in flight" does.
			var line string
			var err error
			for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(time.Second) {
				line, err = a.ask("settle "+kind+" "+id, 4*e.timeout+15*time.Second)
				if err != nil || line == "settled" || !strings.Contains(line, "in flight") || time.Now().After(deadline) {
					break
				}
			}
			if err != nil || line != "settled" {
				errs = append(errs, fmt.Errorf("settling %s %s: %q %v%s", kind, id, line, err, stillRunning(line)))
			}
		}
	}
	a.quit()
	path := filepath.Join(h.dir, audit.FileName)
	s, verr := audit.VerifyFile(path)
	var br *audit.Break
	if verr != nil && !errors.As(verr, &br) {
		return verr
	}
	lines, err := readLines(path)
	if err != nil {
		return err
	}
	var siteNote []string
	if e.site != nil {
		// The site's record is the record: every host's copy must be it.
		var raw [][]byte
		for deadline := time.Now().Add(time.Minute); ; time.Sleep(time.Second) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			raw, err = e.site.nodes[0].Record().Lines(ctx, 1)
			cancel()
			if err == nil || time.Now().After(deadline) {
				break
			}
		}
		if err != nil {
			return fmt.Errorf("the site's record: %w", err)
		}
		lines = lines[:0]
		for _, b := range raw {
			var r audit.Record
			if json.Unmarshal(b, &r) == nil {
				lines = append(lines, r)
			}
		}
		for _, h := range hosts {
			local, err := os.ReadFile(filepath.Join(h.dir, audit.FileName))
			if err != nil {
				continue
			}
			// A host's copy may lag (it pulls at its next watch or
			// action); it may never hold a line the record has otherwise.
			var got [][]byte
			if len(local) > 0 {
				got = bytes.Split(bytes.TrimSuffix(local, []byte("\n")), []byte("\n"))
			}
			for i, b := range got {
				if i >= len(raw) || !bytes.Equal(b, raw[i]) {
					theirs := []byte("(none)")
					if i < len(raw) {
						theirs = raw[i]
					}
					siteNote = append(siteNote, fmt.Sprintf("host %s's copy differs from the site's record at its line %d (of %d; the record has %d): %.160s ≠ %.160s",
						h.name, i+1, len(got), len(raw), b, theirs))
					break
				}
			}
		}
	}
	all := truth(e.srv.Keys())
	fresh := map[string]applied{}
	for k, v := range all {
		if _, ok := before[k]; !ok {
			fresh[k] = v
		}
	}
	rep.contradictions = append(contradictions(lines, s, all, fresh), siteNote...)
	for _, err := range errs {
		rep.contradictions = append(rep.contradictions, "not reconciled at the end: "+err.Error())
	}
	if len(rep.contradictions) > 0 || e.keep {
		// The log, for whoever reads the contradiction.
		if b, err := os.ReadFile(path); err == nil {
			keep := filepath.Join(os.TempDir(), fmt.Sprintf("soak-%d.jsonl", rep.seed))
			if e.site != nil { // the site's record, as judged
				b = nil
				for _, r := range lines {
					x, _ := json.Marshal(r)
					b = append(append(b, x...), '\n')
				}
			}
			if os.WriteFile(keep, b, 0o600) == nil {
				rep.kept = keep
			}
		}
	}
	return nil
}

// readLines reads every record of a log, skipping lines that are not
// records (Verify names them).
func readLines(path string) ([]audit.Record, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []audit.Record
	for _, line := range bytes.Split(b, []byte("\n")) {
		var r audit.Record
		if json.Unmarshal(line, &r) == nil && r.Seq != 0 {
			out = append(out, r)
		}
	}
	return out, nil
}

// stillRunning says, of a refusal naming a process in flight ("… soak pid
// N …"), whether that process still runs here: a harness fault, not the
// record's.
func stillRunning(line string) string {
	i := strings.Index(line, "soak pid ")
	if i < 0 {
		return ""
	}
	var pid int
	fmt.Sscanf(line[i+len("soak pid "):], "%d", &pid)
	if pid > 0 && syscall.Kill(pid, 0) == nil {
		return fmt.Sprintf(" (pid %d still runs)", pid)
	}
	return fmt.Sprintf(" (pid %d has ended)", pid)
}
