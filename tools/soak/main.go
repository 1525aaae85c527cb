// Command soak runs randomized schedules of operators' actions (freezes,
// unfreezes, locks, unlocks, sweeps) from two or three processes on one
// state directory, and from three processes on a site of three NATS
// nodes, against the sandbox, with faults injected while requests wait:
// kill -9, SIGSTOP/SIGCONT, answers held and lost, requests lost, a full
// disk, a torn last line. After each schedule every record is reconciled
// by a fresh process and the audit log is compared with the sandbox's
// ground truth (the keys it applied, GET /_sandbox/keys): an outcome the
// platform contradicts, a key applied twice or on two intents, an intent
// lost without a line saying so, is a contradiction, printed with the
// seed that replays it.
//
//	go run ./tools/soak                       # 200 schedules on one host, 50 on a site
//	go run ./tools/soak -schedules 20 -site-schedules 0
//	go run ./tools/soak -only 1234567 -site   # replay one schedule
//	go run ./tools/soak -break                # the control: reconciliation off
//
// Full-disk faults are real (a tmpfs per host) when run as root; else they
// are left out, and the report says so.
package main

import (
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"time"

	"treasury/config"
	"treasury/desk/platform"
	"treasury/kit/fulldisk"
	"treasury/process/sandboxprofile"
	"treasury/sandbox"
)

func main() {
	if spec := os.Getenv(agentEnv); spec != "" {
		os.Exit(runAgent(spec, os.Stdin, os.Stdout))
	}
	var c config_
	flag.IntVar(&c.schedules, "schedules", 200, "randomized schedules on one host (the scripted one first)")
	flag.IntVar(&c.siteSchedules, "site-schedules", 50, "randomized schedules on a site of three")
	flag.Int64Var(&c.seed, "seed", time.Now().UnixNano()%1e9, "the soak's seed: the sandbox's and every schedule's")
	flag.Uint64Var(&c.only, "only", 0, "replay the schedule of this seed only (with -site on the site)")
	flag.BoolVar(&c.onSite, "site", false, "with -only: the schedule ran on the site")
	flag.BoolVar(&c.blind, "break", false, "the control run: reconciliation off, answers never read back")
	flag.DurationVar(&c.timeout, "timeout", 2*time.Second, "how long an action waits for its answer")
	flag.BoolVar(&c.keep, "keep", false, "keep every schedule's log in the temporary directory (those with contradictions are kept anyway)")
	flag.Parse()
	res, err := soak(c, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "soak:", err)
		os.Exit(2)
	}
	if res.contradictions > 0 {
		os.Exit(1)
	}
}

// config_ is a soak's settings.
type config_ struct {
	schedules, siteSchedules int
	seed                     int64
	only                     uint64
	onSite, blind, keep      bool
	timeout                  time.Duration
}

// result sums a soak up.
type result struct {
	schedules, siteSchedules, steps, contradictions int
	faults                                          map[string]int
}

// soak runs the schedules c asks for and writes what it ran, injected and
// found to w.
func soak(c config_, w io.Writer) (result, error) {
	res := result{faults: map[string]int{}}
	startedAt := time.Now()
	tmp, err := os.MkdirTemp("", "treasury-soak-")
	if err != nil {
		return res, err
	}
	defer os.RemoveAll(tmp)
	srv, err := sandbox.Listen("127.0.0.1:0", sandbox.Options{Seed: c.seed, Frozen: true, HistoryPayments: 50})
	if err != nil {
		return res, err
	}
	defer srv.Close()
	px, err := newProxy(srv.URL)
	if err != nil {
		return res, err
	}
	defer px.Close()
	p, err := platform.Open(sandboxprofile.Of(srv, config.Builtin()), platform.Options{Now: srv.Clock().Now})
	if err != nil {
		return res, err
	}
	defer p.Close()
	e := &env{srv: srv, proxy: px, p: p, seed: c.seed, blind: c.blind, timeout: c.timeout, tmp: tmp, keep: c.keep}
	if d, err := fulldisk.Mount(tmp, 1<<20); err == nil {
		e.disks = true
		d.Unmount()
	} else {
		fmt.Fprintf(w, "soak: full-disk faults left out (%v): run as root for a real full disk\n", err)
	}
	r := rand.New(rand.NewPCG(uint64(c.seed), 45))
	one := func(seed uint64, scripted, onSite bool) error {
		rep, err := e.run(seed, scripted)
		if err != nil {
			return fmt.Errorf("schedule %d: %w", seed, err)
		}
		res.steps += rep.steps
		for k, n := range rep.faults {
			res.faults[k] += n
		}
		where := "one host"
		if onSite {
			where, res.siteSchedules = "site", res.siteSchedules+1
		} else {
			res.schedules++
		}
		for _, x := range rep.contradictions {
			res.contradictions++
			replay := fmt.Sprintf("go run ./tools/soak -seed %d -only %d", c.seed, seed)
			if onSite {
				replay += " -site"
			}
			if c.blind {
				replay += " -break"
			}
			fmt.Fprintf(w, "CONTRADICTION (%s, schedule %d; replay: %s): %s\n", where, seed, replay, x)
		}
		if rep.kept != "" {
			fmt.Fprintf(w, "  (its log is kept at %s)\n", rep.kept)
		}
		return nil
	}
	if c.only != 0 {
		if c.onSite {
			if e.site, err = startSite(tmp); err != nil {
				return res, err
			}
			defer e.site.close()
		}
		err := one(c.only, c.only == scriptedSeed, c.onSite)
		summary(w, c, res, time.Since(startedAt))
		return res, err
	}
	for i := range c.schedules {
		seed := r.Uint64()
		if i == 0 {
			seed = scriptedSeed
		}
		if err := one(seed, i == 0, false); err != nil {
			return res, err
		}
	}
	if c.siteSchedules > 0 {
		if e.site, err = startSite(tmp); err != nil {
			return res, err
		}
		defer e.site.close()
		for range c.siteSchedules {
			if err := one(r.Uint64(), false, true); err != nil {
				return res, err
			}
		}
	}
	summary(w, c, res, time.Since(startedAt))
	return res, nil
}

// scriptedSeed names the scripted schedule (the scenario) for a
// replay.
const scriptedSeed = 1

// summary writes the figures of a soak.
func summary(w io.Writer, c config_, res result, took time.Duration) {
	mode := ""
	if c.blind {
		mode = " (control: reconciliation off)"
	}
	fmt.Fprintf(w, "soak%s: seed %d: %d schedules on one host, %d on a site of three, %d actions\n", mode, c.seed, res.schedules, res.siteSchedules, res.steps)
	kinds := make([]string, 0, len(res.faults))
	for k := range res.faults {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	var parts []string
	for _, k := range kinds {
		parts = append(parts, fmt.Sprintf("%s %d", k, res.faults[k]))
	}
	fmt.Fprintf(w, "faults injected: %s\n", strings.Join(parts, ", "))
	fmt.Fprintf(w, "contradictions: %d; wall time %s\n", res.contradictions, took.Round(time.Second))
}
