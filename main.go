// Command treasury is a terminal dashboard for a cross-border payments
// treasury. Run without configuration, it starts an embedded sandbox of the
// platform's five interfaces and shows it live.
//
//	treasury [global flags] [command] [flags]
//
// Package main parses the command line and dispatches: commands are a
// small table (see commands), each in its own package under commands/.
// Global flags (--config, --profile, --read-only) may come before the
// command or among its flags.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	// The funding planner's business day is in a profile's time zone: the
	// zones are in the binary, a bastion without tzdata reads them too.
	_ "time/tzdata"

	"treasury/commands/audit"
	"treasury/commands/cli"
	"treasury/commands/completion"
	"treasury/commands/dashboard"
	"treasury/commands/doctor"
	"treasury/commands/get"
	"treasury/commands/sandbox"
	"treasury/commands/serve"
	"treasury/commands/version"
	"treasury/process"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], &process.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv})
	stop()
	os.Exit(code)
}

// command is one subcommand. run gets the arguments after the command name
// and the global flags parsed so far.
type command struct {
	name    string
	summary string
	run     cli.Command
}

// commands is the dispatch table; the first entry runs when no command is
// given. Add a command by writing its package under commands/ and one
// line here.
func commands() []command {
	return []command{
		{"dashboard", "run the dashboard (the default)", dashboard.Command},
		{"sandbox", "serve the embedded sandbox on a TCP address", sandbox.Command},
		{"get", "print a resource for scripts and tickets", get.Command},
		{"serve", "serve the dashboard over SSH (bastion hosts)", serve.Command},
		{"audit", "check the audit log's hash chain (audit verify)", audit.Command},
		{"doctor", "check the profile against the services: DNS, TCP, TLS, auth, webhook port, clock", doctor.Command},
		{"version", "print the version: module version, commit, modified", version.Command},
		{"completion", "print the shell completion script: bash, zsh or fish", completion.New(completionTable)},
		{"help", "show this help", cmdHelp},
	}
}

// completionTable is the command table as completion knows it: each
// command, audit's subcommands, get's resources, completion's shells.
func completionTable() []completion.Command {
	var out []completion.Command
	for _, c := range commands() {
		cc := completion.Command{Name: c.name, Run: c.run}
		switch c.name {
		case "audit":
			cc.Subcommands = []string{"verify", "ack"}
		case "get":
			cc.Args = get.Resources()
		case "completion":
			cc.Args = completion.Shells()
		}
		out = append(out, cc)
	}
	return out
}

func run(ctx context.Context, args []string, e *process.Env) int {
	g := cli.DefaultGlobals()
	fs := flag.NewFlagSet("treasury", flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	g.Register(fs)
	fs.Usage = func() { usage(e.Stderr) }
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	cmds := commands()
	name, rest := cmds[0].name, fs.Args()
	if len(rest) > 0 {
		name, rest = rest[0], rest[1:]
	}
	for _, c := range cmds {
		if c.name != name {
			continue
		}
		e.Command = c.name
		return cli.Exit(c.run(ctx, e, g, rest), e.Stderr)
	}
	fmt.Fprintf(e.Stderr, "treasury: unknown command %q\n\n", name)
	usage(e.Stderr)
	return 2
}

func usage(w io.Writer) {
	var b strings.Builder
	b.WriteString("usage: treasury [--config FILE] [--profile NAME] [--read-only] [--log-max-size SIZE] [--log-keep N] [command] [flags]\n\ncommands:\n")
	for _, c := range commands() {
		fmt.Fprintf(&b, "  %-10s %s\n", c.name, c.summary)
	}
	b.WriteString("\nglobal flags:\n")
	fs := flag.NewFlagSet("treasury", flag.ContinueOnError)
	fs.SetOutput(&b)
	g := cli.DefaultGlobals()
	g.Register(fs)
	fs.PrintDefaults()
	b.WriteString("\nRun `treasury <command> --help` for a command's flags.\n")
	io.WriteString(w, b.String())
}

func cmdHelp(ctx context.Context, e *process.Env, g cli.Globals, args []string) error {
	usage(e.Stdout)
	return nil
}
