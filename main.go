// Command treasury is a terminal dashboard for a cross-border payments
// treasury. Run without configuration, it starts an embedded sandbox of the
// platform's five interfaces and shows it live.
//
//	treasury [global flags] [command] [flags]
//
// Commands are a small table (see commands); each lives in its own
// cmd_<name>.go file. Global flags (--config, --profile, --read-only) may
// come before the command or among its flags.
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

	"treasury/config"
	"treasury/data/logfile"
	"treasury/kit/words"
	"treasury/sandbox"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], &env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv})
	stop()
	os.Exit(code)
}

// env is what a command may touch of the process: its output and its
// environment variables. Tests give their own.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
	// sandboxObserve is told every payments exchange of an embedded
	// sandbox (tests check each against the vendor's document); nil in
	// the program.
	sandboxObserve func(sandbox.Exchange)
	// logs rotate the request and session logs: the command's globals,
	// set when it loads its configuration (zero: never rotated).
	logs logfile.Options
}

// globals are the flags every command accepts.
type globals struct {
	configFile string
	profile    string
	readOnly   bool
	// logs rotate the request and session logs.
	logs logfile.Options
}

func (g *globals) register(fs *flag.FlagSet) {
	fs.StringVar(&g.configFile, "config", g.configFile, "configuration `file` (default $XDG_CONFIG_HOME/treasury/config.yaml; env "+config.VarConfig+")")
	fs.StringVar(&g.profile, "profile", g.profile, "profile `name` to use (env "+config.VarProfile+")")
	fs.BoolVar(&g.readOnly, "read-only", g.readOnly, "disable every action (freeze, lock, sweep) (env "+config.VarReadOnly+"=1)")
	fs.Var(sizeFlag{&g.logs.MaxBytes}, "log-max-size", "rotate requests.log and sessions.log past this `size` (such as 10M; 0: never)")
	fs.IntVar(&g.logs.Keep, "log-keep", g.logs.Keep, "rotated log files kept (FILE.1 … FILE.`N`; 0: none)")
}

// defaultGlobals are the globals before any flag.
func defaultGlobals() globals {
	return globals{logs: logfile.Options{MaxBytes: logfile.DefaultMaxBytes, Keep: logfile.DefaultKeep}}
}

// sizeFlag is a flag of a size in bytes, written 10M, 512K or in bytes.
type sizeFlag struct{ n *int64 }

func (f sizeFlag) String() string {
	if f.n == nil {
		return ""
	}
	return words.Bytes(uint64(*f.n))
}

func (f sizeFlag) Set(s string) error {
	n, err := logfile.ParseSize(s)
	if err == nil {
		*f.n = n
	}
	return err
}

// loadConfig loads the configuration the globals name and prints its
// warnings on stderr.
func (g *globals) loadConfig(e *env) (*config.Config, error) {
	e.logs = g.logs
	cfg, warns, err := config.Load(config.Options{ConfigFile: g.configFile, Profile: g.profile, ReadOnly: g.readOnly, Getenv: e.getenv})
	for _, w := range warns {
		fmt.Fprintln(e.stderr, "treasury: warning:", w)
	}
	return cfg, err
}

// command is one subcommand. run gets the arguments after the command name
// and the global flags parsed so far.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, e *env, g globals, args []string) error
}

// commands is the dispatch table; the first entry runs when no command is
// given. Add a command by writing cmd_<name>.go and one line here.
func commands() []command {
	return []command{
		{"dashboard", "run the dashboard (the default)", cmdDashboard},
		{"sandbox", "serve the embedded sandbox on a TCP address", cmdSandbox},
		{"get", "print a resource for scripts and tickets", cmdGet},
		{"serve", "serve the dashboard over SSH (bastion hosts)", cmdServe},
		{"audit", "check the audit log's hash chain (audit verify)", cmdAudit},
		{"doctor", "check the profile against the services: DNS, TCP, TLS, auth, webhook port, clock", cmdDoctor},
		{"version", "print the version", cmdVersion},
		{"help", "show this help", cmdHelp},
	}
}

// errUsage marks an error already explained on stderr: exit 2, say no more.
var errUsage = errors.New("usage")

func run(ctx context.Context, args []string, e *env) int {
	g := defaultGlobals()
	fs := flag.NewFlagSet("treasury", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	g.register(fs)
	fs.Usage = func() { usage(e.stderr) }
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
		err := c.run(ctx, e, g, rest)
		switch {
		case err == nil:
			return 0
		case errors.Is(err, errUsage):
			return 2
		case errors.Is(err, flag.ErrHelp):
			return 0
		}
		fmt.Fprintln(e.stderr, "treasury:", err)
		return 1
	}
	fmt.Fprintf(e.stderr, "treasury: unknown command %q\n\n", name)
	usage(e.stderr)
	return 2
}

// parseFlags parses a command's flags together with the global ones.
func parseFlags(fs *flag.FlagSet, e *env, g *globals, args []string) error {
	fs.SetOutput(e.stderr)
	g.register(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(e.stderr, "treasury %s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		return errUsage
	}
	return nil
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
	g := defaultGlobals()
	g.register(fs)
	fs.PrintDefaults()
	b.WriteString("\nRun `treasury <command> --help` for a command's flags.\n")
	io.WriteString(w, b.String())
}

func cmdHelp(ctx context.Context, e *env, g globals, args []string) error {
	usage(e.stdout)
	return nil
}
