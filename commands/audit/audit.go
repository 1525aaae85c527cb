// Package audit is the `treasury audit` command: `audit verify` checks the
// audit log's hash chain and lists the attempts without an outcome.
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
	"time"

	"treasury/commands/cli"
	"treasury/config"
	"treasury/data/audit"
	"treasury/kit/words"
	"treasury/process"
	"treasury/ui/sanitize"
)

// auditUsage lists the audit subcommands.
const auditUsage = `usage: treasury audit verify [--file FILE]

  verify   check the audit log's hash chain line by line and name the first
           broken line (bad JSON, hash mismatch, sequence gap, chain broken);
           list the attempts without an outcome (in flight or interrupted:
           the platform may have applied them)

exit status: 0 intact, 1 broken or unreadable, 2 usage
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
	case "help", "-h", "-help", "--help":
		fmt.Fprint(e.Stdout, auditUsage)
		return nil
	}
	fmt.Fprintf(e.Stderr, "treasury audit: unknown subcommand %q\n\n%s", args[0], auditUsage)
	return cli.ErrUsage
}

// cmdAuditVerify checks a log's chain: exit 0 and a summary when intact,
// exit 1 naming the first broken line otherwise.
func cmdAuditVerify(e *process.Env, g cli.Globals, args []string) error {
	fs := flag.NewFlagSet("audit verify", flag.ContinueOnError)
	file := fs.String("file", "", "the audit log `file` to check (default "+filepath.Join("$XDG_STATE_HOME", "treasury", audit.FileName)+")")
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
	switch {
	case errors.As(err, &br):
		intact := "it is the first line"
		if br.Line > 1 {
			intact = fmt.Sprintf("lines 1-%d are intact", br.Line-1)
		}
		return fmt.Errorf("audit log %s is BROKEN at line %d: %s: %s (%s)", path, br.Line, br.Kind, br.Detail, intact)
	case err != nil:
		return fmt.Errorf("audit log: %w", err)
	}
	if s.Lines == 0 {
		fmt.Fprintf(e.Stdout, "%s: intact: empty (no action attempted yet)\n", path)
		return nil
	}
	fmt.Fprintf(e.Stdout, "%s: intact: %s, seq 1-%d, last hash %s\n", path, words.Count(s.Lines, "line"), s.LastSeq, s.Head)
	writeOpenAttempts(e.Stdout, s.Open)
	return nil
}

// writeOpenAttempts lists the attempts no outcome line names: each was
// sent, or about to be, when its process ended or while the log was read.
// One that a later attempt under the same key settled says so.
func writeOpenAttempts(w io.Writer, open []audit.OpenAttempt) {
	if len(open) == 0 {
		return
	}
	fmt.Fprintf(w, "%s without an outcome (in flight or interrupted: check the platform; the dashboard's next attempt of the same action on the same record reuses the key):\n",
		words.Count(len(open), "attempt"))
	for _, a := range open {
		key := "mutationId " + a.MutationID
		if a.IntentID != "" {
			key = "intentId " + a.IntentID
		}
		fmt.Fprintf(w, "  seq %d  %s  %s of %s  %s  by %s on %s (%s)\n    %s\n", a.Seq, a.Time.UTC().Format(time.RFC3339),
			sanitize.Line(a.Action), sanitize.Line(targetName(a.Target)), sanitize.Line(key),
			sanitize.Line(a.Who.String()), sanitize.Line(a.Host), sanitize.Line(a.Environment), sanitize.Line(a.Request))
		if r := a.Retry; r != nil {
			note := "a retry under the same key ended " + r.Outcome
			if a.Settled() {
				note += ": the platform applied the key at most once, and says so"
			}
			fmt.Fprintf(w, "    %s (seq %d, %s)\n", sanitize.Line(note), r.Seq, r.Time.UTC().Format(time.RFC3339))
		}
	}
}

// targetName names a record: its kind, its name or alias when it has one,
// and its id.
func targetName(t audit.Target) string {
	if n := cmp.Or(t.Detail["name"], t.Detail["alias"]); n != "" {
		return t.Kind + " " + strconv.Quote(n) + " " + t.ID
	}
	return t.Kind + " " + t.ID
}
