// Package cli is what every command of treasury shares on its command
// line: the global flags (--config, --profile, --read-only, the log
// rotation), loading the configuration they name, parsing a command's
// flags with them, and the usage error (exit 2).
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/charmbracelet/x/term"

	"treasury/config"
	"treasury/kit/logfile"
	"treasury/kit/words"
	"treasury/process"
	"treasury/views/saved"
)

// Globals are the flags every command accepts.
type Globals struct {
	ConfigFile string
	Profile    string
	ReadOnly   bool
	// Logs rotate the request and session logs.
	Logs logfile.Options
	// describe, when set, is handed a command's flag set instead of the
	// command running (FlagsOf).
	describe func(*flag.FlagSet)
}

// Register adds the global flags to fs.
func (g *Globals) Register(fs *flag.FlagSet) {
	fs.StringVar(&g.ConfigFile, "config", g.ConfigFile, "configuration `file` (default $XDG_CONFIG_HOME/treasury/config.yaml; env "+config.VarConfig+")")
	fs.StringVar(&g.Profile, "profile", g.Profile, "profile `name` to use (env "+config.VarProfile+")")
	fs.BoolVar(&g.ReadOnly, "read-only", g.ReadOnly, "disable every action (freeze, lock, sweep) (env "+config.VarReadOnly+"=1)")
	fs.Var(sizeFlag{&g.Logs.MaxBytes}, "log-max-size", "rotate requests.log and sessions.log past this `size` (such as 10M; 0: never)")
	fs.IntVar(&g.Logs.Keep, "log-keep", g.Logs.Keep, "rotated log files kept (FILE.1 … FILE.`N`; 0: none)")
}

// DefaultGlobals are the globals before any flag.
func DefaultGlobals() Globals {
	return Globals{Logs: logfile.Options{MaxBytes: logfile.DefaultMaxBytes, Keep: logfile.DefaultKeep}}
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

// LoadConfig loads the configuration the globals name and prints its
// warnings on stderr.
func (g *Globals) LoadConfig(e *process.Env) (*config.Config, error) { return g.load(e, false) }

// LoadConfigNoScreen is LoadConfig for a command that draws no screen
// (treasury get): what is wrong with a display setting (keys:, theme:,
// commands:, searches:) is a warning on stderr, not an error.
func (g *Globals) LoadConfigNoScreen(e *process.Env) (*config.Config, error) { return g.load(e, true) }

func (g *Globals) load(e *process.Env, noScreen bool) (*config.Config, error) {
	e.Logs = g.Logs
	cfg, warns, err := config.Load(config.Options{ConfigFile: g.ConfigFile, Profile: g.Profile, ReadOnly: g.ReadOnly, Getenv: e.Getenv,
		CheckSearch: saved.Check, NoScreen: noScreen})
	for _, w := range warns {
		fmt.Fprintln(e.Stderr, "treasury: warning:", w)
	}
	return cfg, err
}

// ErrUsage marks an error already explained on stderr: exit 2, say no more.
var ErrUsage = errors.New("usage")

// AsksHelp reports whether args ask for help (-h, -help, --help) before
// any "--".
func AsksHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help", "--h":
			return true
		}
	}
	return false
}

// ParseFlags parses a command's flags together with the global ones.
func ParseFlags(fs *flag.FlagSet, e *process.Env, g *Globals, args []string) error {
	// Help asked for is the output (stdout, to page or grep); a usage error
	// is an error (stderr).
	fs.SetOutput(e.Stderr)
	if AsksHelp(args) {
		fs.SetOutput(e.Stdout)
	}
	g.Register(fs)
	if g.Described(fs) {
		return flag.ErrHelp
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return ErrUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(e.Stderr, "treasury %s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		return ErrUsage
	}
	return nil
}

// Described reports whether the command runs only to describe its flags
// (FlagsOf): fs, its own flags and the global ones registered, is handed
// over, and the command returns flag.ErrHelp at once, having done
// nothing. A command that parses its flags otherwise than with
// ParseFlags calls it before it parses.
func (g *Globals) Described(fs *flag.FlagSet) bool {
	if g.describe == nil {
		return false
	}
	g.describe(fs)
	return true
}

// FlagsOf is the flag set command parses with args (a subcommand's name
// for a command that has them: audit verify), its flags and the global
// ones, without running it: nil for a command that parses none.
func FlagsOf(command Command, args []string) *flag.FlagSet {
	var got *flag.FlagSet
	g := DefaultGlobals()
	g.describe = func(fs *flag.FlagSet) { got = fs }
	e := &process.Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard, Getenv: func(string) string { return "" }}
	_ = command(context.Background(), e, g, args)
	return got
}

// IsTerminal reports whether r is a terminal (not merely a character
// device: /dev/null is one too).
func IsTerminal(r any) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

// Command runs one subcommand: args are the arguments after its name, g
// the global flags parsed before it.
type Command func(ctx context.Context, e *process.Env, g Globals, args []string) error

// Exit is the exit status of a command that returned err, which it
// writes on stderr unless it is a usage error (already explained) or a
// request for help: 0 done, 1 failed, 2 usage.
func Exit(err error, stderr io.Writer) int {
	switch {
	case err == nil:
		return 0
	case errors.Is(err, ErrUsage):
		return 2
	case errors.Is(err, flag.ErrHelp):
		return 0
	}
	fmt.Fprintln(stderr, "treasury:", err)
	return 1
}
