package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"path/filepath"

	"treasury/config"
	"treasury/data/audit"
)

// auditUsage lists the audit subcommands.
const auditUsage = `usage: treasury audit verify [--file FILE]

  verify   check the audit log's hash chain line by line and name the first
           broken line (bad JSON, hash mismatch, sequence gap, chain broken)

exit status: 0 intact, 1 broken or unreadable, 2 usage
`

// cmdAudit runs an audit subcommand.
func cmdAudit(ctx context.Context, e *env, g globals, args []string) error {
	if len(args) == 0 {
		fmt.Fprint(e.stderr, auditUsage)
		return errUsage
	}
	switch args[0] {
	case "verify":
		return cmdAuditVerify(e, g, args[1:])
	case "help", "-h", "-help", "--help":
		fmt.Fprint(e.stdout, auditUsage)
		return nil
	}
	fmt.Fprintf(e.stderr, "treasury audit: unknown subcommand %q\n\n%s", args[0], auditUsage)
	return errUsage
}

// cmdAuditVerify checks a log's chain: exit 0 and a summary when intact,
// exit 1 naming the first broken line otherwise.
func cmdAuditVerify(e *env, g globals, args []string) error {
	fs := flag.NewFlagSet("audit verify", flag.ContinueOnError)
	file := fs.String("file", "", "the audit log `file` to check (default "+filepath.Join("$XDG_STATE_HOME", "treasury", audit.FileName)+")")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), auditUsage+"\nflags:\n")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, e, &g, args); err != nil {
		return err
	}
	path := *file
	if path == "" {
		path = filepath.Join(config.StateDir(e.getenv), audit.FileName)
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
		fmt.Fprintf(e.stdout, "%s: intact: empty (no action attempted yet)\n", path)
		return nil
	}
	fmt.Fprintf(e.stdout, "%s: intact: %d lines, seq 1-%d, last hash %s\n", path, s.Lines, s.LastSeq, s.Head)
	return nil
}
