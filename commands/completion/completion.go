// Package completion is the `treasury completion` command: the script
// that makes bash, zsh or fish complete treasury's command line (its
// commands, each command's flags and the global ones, profile names after
// --profile, get's resources, audit's subcommands, the values of a few
// flags, files where a flag takes a file), and the completer the scripts
// call at each TAB (`treasury completion words -- WORDS`), so that what
// is completed always follows the binary: its command table, its flag
// sets and the profiles of the configuration file the line names.
package completion

import (
	"context"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"treasury/commands/cli"
	"treasury/config"
	"treasury/process"
)

// Command is one command of the table, as completion knows it.
type Command struct {
	Name string
	Run  cli.Command
	// Subcommands are the names a command takes first (audit: verify,
	// ack); Args are what it takes as its first argument (get: its
	// resources).
	Subcommands, Args []string
}

// New is the completion command over the command table table gives.
func New(table func() []Command) cli.Command {
	return func(ctx context.Context, e *process.Env, g cli.Globals, args []string) error {
		fs := flag.NewFlagSet("completion", flag.ContinueOnError)
		g.Register(fs)
		if g.Described(fs) {
			return flag.ErrHelp
		}
		switch {
		case len(args) > 0 && args[0] == "words":
			words := args[1:]
			if len(words) > 0 && words[0] == "--" {
				words = words[1:]
			}
			for _, w := range Words(table(), words, e.Getenv) {
				fmt.Fprintln(e.Stdout, w)
			}
			return nil
		case cli.AsksHelp(args):
			fmt.Fprint(e.Stdout, usage)
			return nil
		case len(args) != 1:
			fmt.Fprint(e.Stderr, usage)
			return cli.ErrUsage
		}
		text, ok := Script(args[0])
		if !ok {
			fmt.Fprintf(e.Stderr, "treasury completion: unknown shell %q\n%s", args[0], usage)
			return cli.ErrUsage
		}
		_, err := io.WriteString(e.Stdout, text)
		return err
	}
}

// Shells are the shells a script is written for.
func Shells() []string { return []string{"bash", "zsh", "fish"} }

const usage = `usage: treasury completion bash|zsh|fish

  bash   source <(treasury completion bash)       (in ~/.bashrc)
  zsh    source <(treasury completion zsh)        (in ~/.zshrc, after compinit)
  fish   treasury completion fish | source       (or save it as
         ~/.config/fish/completions/treasury.fish)
`

// Words are the completions of the last of words (the word at the
// cursor, "" for a new one), the words before it being the command line
// after the program's name. Nothing means files (the scripts then
// complete file names).
func Words(table []Command, words []string, getenv func(string) string) []string {
	if len(words) == 0 {
		words = []string{""}
	}
	before, cur := joinEquals(words[:len(words)-1]), words[len(words)-1]
	if cur == "=" {
		cur = ""
	}
	// The words before the cursor: the global flags, the command, its
	// subcommand and arguments.
	globals := cli.FlagsOf(func(ctx context.Context, e *process.Env, g cli.Globals, args []string) error {
		return cli.ParseFlags(flag.NewFlagSet("treasury", flag.ContinueOnError), e, &g, args)
	}, nil)
	var cmd *Command
	var positional []string
	fs := globals
	configFile := ""
	for i := 0; i < len(before); i++ {
		w := before[i]
		if name, value, isFlag := flagWord(w); isFlag {
			f := fs.Lookup(name)
			if f != nil && !isBool(f) && value == "" && !strings.Contains(w, "=") && i+1 < len(before) {
				i++
				value = before[i]
			}
			if name == "config" {
				configFile = value
			}
			continue
		}
		if cmd == nil {
			if c := find(table, w); c != nil {
				cmd = c
				fs = flagsOf(c, "")
				continue
			}
			return nil // an unknown command: nothing to say
		}
		positional = append(positional, w)
		if len(positional) == 1 && len(cmd.Subcommands) > 0 {
			fs = flagsOf(cmd, w)
		}
	}
	// A flag's value.
	if len(before) > 0 {
		// "--profile" then the cursor, or bash's "--profile" "=" then it.
		if name, value, isFlag := flagWord(before[len(before)-1]); isFlag && value == "" {
			if f := fs.Lookup(name); f != nil && !isBool(f) {
				return match(values(name, configFile, getenv), cur)
			}
		}
	}
	if name, value, ok := strings.Cut(cur, "="); ok && strings.HasPrefix(cur, "-") {
		// --profile=u: the value after the equals sign, the flag kept.
		n := strings.TrimLeft(name, "-")
		var out []string
		for _, v := range match(values(n, configFile, getenv), value) {
			out = append(out, name+"="+v)
		}
		return out
	}
	if strings.HasPrefix(cur, "-") {
		return match(flagNames(fs), cur)
	}
	switch {
	case cmd == nil:
		names := make([]string, len(table))
		for i, c := range table {
			names[i] = c.Name
		}
		return match(names, cur)
	case len(cmd.Subcommands) > 0 && len(positional) == 0:
		return match(cmd.Subcommands, cur)
	case len(cmd.Args) > 0 && len(positional) == 0:
		return match(cmd.Args, cur)
	}
	return nil
}

// joinEquals joins the words bash splits at "=" (--profile = uat).
func joinEquals(words []string) []string {
	var out []string
	for i := 0; i < len(words); i++ {
		if words[i] == "=" && len(out) > 0 && strings.HasPrefix(out[len(out)-1], "-") {
			out[len(out)-1] += "="
			if i+1 < len(words) {
				i++
				out[len(out)-1] += words[i]
			}
			continue
		}
		out = append(out, words[i])
	}
	return out
}

// flagWord reads "--name", "-name" or "--name=value".
func flagWord(w string) (name, value string, ok bool) {
	if len(w) < 2 || w[0] != '-' || w == "--" {
		return "", "", false
	}
	name, value, _ = strings.Cut(strings.TrimLeft(w, "-"), "=")
	return name, value, true
}

func isBool(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

func find(table []Command, name string) *Command {
	for i := range table {
		if table[i].Name == name {
			return &table[i]
		}
	}
	return nil
}

// flagsOf is the flag set of c (of its subcommand sub, when it has
// subcommands); the global flags when c parses none.
func flagsOf(c *Command, sub string) *flag.FlagSet {
	var args []string
	if sub != "" {
		args = []string{sub}
	} else if len(c.Subcommands) > 0 {
		args = []string{c.Subcommands[0]}
	}
	if fs := cli.FlagsOf(c.Run, args); fs != nil {
		return fs
	}
	return cli.FlagsOf(func(ctx context.Context, e *process.Env, g cli.Globals, args []string) error {
		return cli.ParseFlags(flag.NewFlagSet(c.Name, flag.ContinueOnError), e, &g, args)
	}, nil)
}

// flagNames are the flags of fs as --name, sorted.
func flagNames(fs *flag.FlagSet) []string {
	var out []string
	fs.VisitAll(func(f *flag.Flag) { out = append(out, "--"+f.Name) })
	slices.Sort(out)
	return out
}

// values are what the flag name takes, when it takes one of a few; nil
// for a file or anything else.
func values(name, configFile string, getenv func(string) string) []string {
	switch name {
	case "profile":
		return config.ProfileNames(config.Options{ConfigFile: configFile, Getenv: getenv})
	case "o", "output":
		return []string{"table", "json", "csv", "summary"}
	case "type":
		return []string{"PAYMENT_OPS", "RECON"}
	}
	return nil
}

// match keeps the candidates that start with prefix.
func match(candidates []string, prefix string) []string {
	var out []string
	for _, c := range candidates {
		if strings.HasPrefix(c, prefix) {
			out = append(out, c)
		}
	}
	return out
}
