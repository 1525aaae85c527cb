// Package audit is the `treasury audit` command: `audit verify` checks the
// audit log's hash chain and lists the attempts without an outcome; `audit
// ack` acknowledges its breaks, as a line of the log.
package audit

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"treasury/commands/cli"
	"treasury/config"
	"treasury/desk/audit"
	"treasury/kit/words"
	"treasury/process"
	"treasury/ui/sanitize"
)

// auditUsage lists the audit subcommands.
const auditUsage = `usage: treasury audit verify [--file FILE] [--cluster]
       treasury audit ack --reason TEXT

  verify   check the audit log's hash chain line by line and name every
           broken line (bad JSON, hash mismatch, sequence gap, chain broken,
           a torn last line) and whether an operator acknowledged it; list
           the attempts without an outcome (in flight or interrupted: the
           platform may have applied them), before a break or after it;
           with --cluster, also compare the local copy line by line with
           the site's record (the profile's cluster:)
  ack      acknowledge, after checking them, the breaks of the state
           directory's log no one has acknowledged: one line each, with who
           and the reason, appended to the same chain; the dashboard and
           treasury serve stop raising them

exit status: 0 intact (or every break acknowledged), 1 broken or
unreadable, 2 usage
`

// Command runs an audit subcommand.
func Command(ctx context.Context, e *process.Env, g cli.Globals, args []string) error {
	if len(args) == 0 {
		fmt.Fprint(e.Stderr, auditUsage)
		return cli.ErrUsage
	}
	switch args[0] {
	case "verify":
		return cmdAuditVerify(e, g, args[1:])
	case "ack":
		return cmdAuditAck(e, g, args[1:])
	case "help", "-h", "-help", "--help":
		fmt.Fprint(e.Stdout, auditUsage)
		return nil
	}
	fmt.Fprintf(e.Stderr, "treasury audit: unknown subcommand %q\n\n%s", args[0], auditUsage)
	return cli.ErrUsage
}

// cmdAuditVerify checks a log's chain: exit 0 and a summary when intact
// (or every break acknowledged), exit 1 naming the broken lines
// otherwise; the attempts without an outcome are listed either way.
func cmdAuditVerify(e *process.Env, g cli.Globals, args []string) error {
	fs := flag.NewFlagSet("audit verify", flag.ContinueOnError)
	file := fs.String("file", "", "the audit log `file` to check (default "+filepath.Join("$XDG_STATE_HOME", "treasury", audit.FileName)+")")
	cluster := fs.Bool("cluster", false, "compare the local copy with the site's record (the profile's cluster: section)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), auditUsage+"\nflags:\n")
		fs.PrintDefaults()
	}
	if err := cli.ParseFlags(fs, e, &g, args); err != nil {
		return err
	}
	path := *file
	if path == "" {
		path = filepath.Join(config.StateDir(e.Getenv), audit.FileName)
	}
	s, err := audit.VerifyFile(path)
	var br *audit.Break
	if err != nil && !errors.As(err, &br) {
		return fmt.Errorf("audit log: %w", err)
	}
	switch {
	case s.Lines == 0:
		fmt.Fprintf(e.Stdout, "%s: intact: empty (no action attempted yet)\n", path)
	case len(s.Breaks) == 0:
		fmt.Fprintf(e.Stdout, "%s: intact: %s, seq 1-%d, last hash %s\n", path, words.Count(s.Lines, "line"), s.LastSeq, s.Head)
	default:
		writeBreaks(e.Stdout, path, s)
	}
	writeOpenAttempts(e.Stdout, s.Open)
	writeSettled(e.Stdout, s.Settled)
	writeUnknown(e.Stdout, s.Unknown)
	writeTorn(e.Stdout, s.Torn)
	if *cluster {
		if err := compareWithSite(e, g, path); err != nil {
			return err
		}
	}
	if br != nil {
		intact := "it is the first line"
		if br.Line > 1 {
			intact = fmt.Sprintf("lines 1-%d are intact", br.Line-1)
		}
		return fmt.Errorf("audit log %s is BROKEN at line %d: %s: %s (%s; %s not acknowledged)", path, br.Line, br.Kind, br.Detail, intact,
			words.Count(len(s.Unacknowledged()), "break"))
	}
	return nil
}

// writeBreaks lists every break of the chain, each with its
// acknowledgement or the lack of one.
func writeBreaks(w io.Writer, path string, s audit.Summary) {
	fmt.Fprintf(w, "%s: %s, seq to %d, last hash %s; %s:\n", path, words.Count(s.Lines, "line"), s.LastSeq, s.Head,
		words.Count(len(s.Breaks), "break"))
	for _, b := range s.Breaks {
		fmt.Fprintf(w, "  line %d  %s: %s\n", b.Line, b.Kind, sanitize.Line(b.Detail))
		if b.Kind == audit.Torn {
			continue // repaired, not acknowledged: the detail says how
		}
		if a := b.Ack; a != nil {
			fmt.Fprintf(w, "    acknowledged by %s at %s (seq %d): %s\n", sanitize.Line(a.Who.String()), a.Time.UTC().Format(time.RFC3339),
				a.Seq, sanitize.Line(a.Reason))
		} else {
			fmt.Fprintln(w, "    not acknowledged (treasury audit ack, once checked)")
		}
	}
}

// cmdAuditAck acknowledges the breaks of the state directory's log, as
// the local user, with the reason given.
func cmdAuditAck(e *process.Env, g cli.Globals, args []string) error {
	fs := flag.NewFlagSet("audit ack", flag.ContinueOnError)
	reason := fs.String("reason", "", "why the breaks are acknowledged: what was checked (required)")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), auditUsage+"\nflags:\n")
		fs.PrintDefaults()
	}
	if err := cli.ParseFlags(fs, e, &g, args); err != nil {
		return err
	}
	if strings.TrimSpace(*reason) == "" {
		fmt.Fprintln(e.Stderr, "treasury audit ack: --reason is required: say what was checked")
		return cli.ErrUsage
	}
	// With a site, the acknowledgement is a line of the site's record,
	// never of this host's copy alone.
	cfg, err := g.LoadConfig(e)
	if err != nil {
		return fmt.Errorf("audit ack reads the profile to know whether the record is a site's: %w", err)
	}
	stateDir := config.StateDir(e.Getenv)
	s, err := process.OpenSite(stateDir, cfg, false, nil)
	if err != nil {
		return err
	}
	opts := audit.Options{Cmd: "audit"}
	if s != nil {
		defer s.Close()
		opts.Replica = s.Record()
	}
	l, err := audit.Open(stateDir, opts)
	if err != nil {
		return err
	}
	defer l.Close()
	for _, n := range l.Notices() {
		fmt.Fprintln(e.Stderr, "treasury audit:", n)
	}
	st := l.State()
	acks, err := l.Ack(audit.Who{}, strings.TrimSpace(*reason))
	if err != nil {
		return fmt.Errorf("audit ack: %w", err)
	}
	for _, a := range acks {
		if a.Target.Detail["break"] == audit.ReportedBreaks {
			fmt.Fprintf(e.Stdout, "acknowledged what running processes reported (the file found shrunk or replaced) as seq %d by %s\n",
				a.Seq, sanitize.Line(a.Who.String()))
			continue
		}
		fmt.Fprintf(e.Stdout, "acknowledged %s (%s) as seq %d by %s\n", sanitize.Line(a.Target.ID), sanitize.Line(a.Target.Detail["kind"]),
			a.Seq, sanitize.Line(a.Who.String()))
	}
	if len(acks) == 1 {
		fmt.Fprintf(e.Stdout, "%s: no break of the file to acknowledge (%s, %s acknowledged before)\n", l.Path(),
			words.Count(st.Lines, "line"), words.Count(st.Acknowledged, "break"))
	}
	return nil
}

// writeOpenAttempts lists the attempts no outcome line names: each was
// sent, or about to be, when its process ended or while the log was read.
// One that a later attempt under the same key settled says so.
func writeOpenAttempts(w io.Writer, open []audit.OpenAttempt) {
	if len(open) == 0 {
		return
	}
	fmt.Fprintf(w, "%s without an outcome (in flight or interrupted: the dashboard's next decision on the same record reconciles the key with the platform's record first):\n",
		words.Count(len(open), "attempt"))
	for _, a := range open {
		key := keyText(a.Record)
		where := a.Host
		if a.Proc != nil {
			where = a.Proc.String() + " on " + a.Host
		}
		fmt.Fprintf(w, "  seq %d  %s  %s of %s  %s  by %s from %s (%s)\n    %s\n", a.Seq, a.Time.UTC().Format(time.RFC3339),
			sanitize.Line(a.Action), sanitize.Line(targetName(a.Target)), sanitize.Line(key),
			sanitize.Line(a.Who.String()), sanitize.Line(where), sanitize.Line(a.Environment), sanitize.Line(a.Request))
		if a.AfterBreak {
			fmt.Fprintln(w, "    (after a break of the chain: read, but not vouched for by it)")
		}
		if r := a.Retry; r != nil {
			fmt.Fprintf(w, "    %s (seq %d, %s)\n", sanitize.Line("a retry under the same key ended "+r.Outcome), r.Seq, r.Time.UTC().Format(time.RFC3339))
		}
	}
}

// writeSettled lists the attempts without an outcome of their own that a
// later attempt under the same key settled: the platform answered that
// key.
func writeSettled(w io.Writer, settled []audit.OpenAttempt) {
	if len(settled) == 0 {
		return
	}
	fmt.Fprintf(w, "%s settled by a retry under the same key (the platform answered the key; each attempt's own process ended first):\n",
		words.Count(len(settled), "attempt"))
	for _, a := range settled {
		fmt.Fprintf(w, "  seq %d  %s  %s of %s  %s  by %s: the retry at seq %d ended %s (%s)\n", a.Seq, a.Time.UTC().Format(time.RFC3339),
			sanitize.Line(a.Action), sanitize.Line(targetName(a.Target)), sanitize.Line(keyText(a.Record)),
			sanitize.Line(a.Who.String()), a.Retry.Seq, sanitize.Line(a.Retry.Outcome), a.Retry.Time.UTC().Format(time.RFC3339))
	}
}

// writeUnknown lists the keys an outcome left unknown that nothing since
// settled.
func writeUnknown(w io.Writer, unknown []audit.Record) {
	if len(unknown) == 0 {
		return
	}
	fmt.Fprintf(w, "%s left unknown (no answer said whether the platform applied it; the dashboard's next decision on the record reconciles it with the platform's record first):\n",
		words.Count(len(unknown), "key"))
	for _, r := range unknown {
		fmt.Fprintf(w, "  seq %d  %s  %s of %s  %s  by %s: %s\n", r.Seq, r.Time.UTC().Format(time.RFC3339), sanitize.Line(r.Action),
			sanitize.Line(targetName(r.Target)), sanitize.Line(keyText(r)), sanitize.Line(r.Who.String()), sanitize.Line(r.Error))
	}
}

// writeTorn lists the torn attempt lines no copy replaced: a write cut
// short by a crash sent nothing; an attempt cut after it was whole may
// have been sent with its key off the chain.
func writeTorn(w io.Writer, torn []audit.Record) {
	if len(torn) == 0 {
		return
	}
	fmt.Fprintf(w, "%s torn and not written again (a crash while writing it sent nothing; if it was whole once, check the platform for its key):\n",
		words.Count(len(torn), "attempt line"))
	for _, r := range torn {
		key := "its key was cut off"
		if k := cmp.Or(r.Target.Detail["mutationId"], r.Target.Detail["intentId"]); k != "" {
			key = "key " + k
		}
		fmt.Fprintf(w, "  seq %s (%s, %s): moved to %s by the repair at seq %d\n", sanitize.Line(r.Target.Detail["attempt"]),
			sanitize.Line(cmp.Or(r.Target.Detail["action"], "an action")), sanitize.Line(key), sanitize.Line(r.Target.Detail["file"]), r.Seq)
	}
}

// keyText names a record's idempotency key.
func keyText(r audit.Record) string {
	if r.IntentID != "" {
		return "intentId " + r.IntentID
	}
	return "mutationId " + r.MutationID
}

// targetName names a record: its kind, its name or alias when it has one,
// and its id.
func targetName(t audit.Target) string {
	if n := cmp.Or(t.Detail["name"], t.Detail["alias"]); n != "" {
		return t.Kind + " " + strconv.Quote(n) + " " + t.ID
	}
	return t.Kind + " " + t.ID
}

// compareWithSite compares the local copy at path with the site's record
// line by line: an error when they differ or the site cannot be read.
func compareWithSite(e *process.Env, g cli.Globals, path string) error {
	cfg, err := g.LoadConfig(e)
	if err != nil {
		return err
	}
	if cfg.Cluster == nil {
		return fmt.Errorf("audit verify --cluster: profile %q configures no site (cluster:)", cfg.Profile)
	}
	s, err := process.OpenSite(config.StateDir(e.Getenv), cfg, false, nil)
	if err != nil {
		return err
	}
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	rec := s.Record()
	c, err := audit.Compare(ctx, path, rec)
	if err != nil {
		return err
	}
	switch {
	case c.Same():
		fmt.Fprintf(e.Stdout, "%s: identical to %s (%s)\n", path, rec.Name(), words.Count(int(c.Site), "line"))
		return nil
	case c.Differ != 0:
		return fmt.Errorf("audit log %s DIFFERS from %s at seq %d (%d lines here, %d there)", path, rec.Name(), c.Differ, c.Local, c.Site)
	case c.Local < c.Site:
		fmt.Fprintf(e.Stdout, "%s: the first %s of %s, which holds %d: this host copies the rest at its next read\n", path,
			words.Count(int(c.Local), "line"), rec.Name(), c.Site)
		return nil
	}
	return fmt.Errorf("audit log %s holds %d lines %s lacks (seq %d to %d): kept on this host alone", path, c.Local-c.Site, rec.Name(), c.Site+1, c.Local)
}
