// Package dashboard is the `treasury dashboard` command (the default): the
// dashboard in this terminal. It also builds one session's shell and views
// over the process's runtime (NewApp), which `treasury serve` does for
// every SSH client.
package dashboard

import (
	"context"
	"errors"
	"flag"
	"log/slog"
	"os"
	"os/user"
	"strconv"

	tea "charm.land/bubbletea/v2"

	"treasury/commands/cli"
	"treasury/config"
	"treasury/desk/audit"
	"treasury/process"
	"treasury/ui"
	"treasury/views/saved"
)

// Command runs `treasury dashboard`.
func Command(ctx context.Context, e *process.Env, g cli.Globals, args []string) error {
	fs := flag.NewFlagSet("dashboard", flag.ContinueOnError)
	if err := cli.ParseFlags(fs, e, &g, args); err != nil {
		return err
	}
	cfg, err := g.LoadConfig(e)
	if err != nil {
		return err
	}
	return runDashboard(ctx, e, cfg, config.Options{ConfigFile: g.ConfigFile, ReadOnly: g.ReadOnly, Getenv: e.Getenv, CheckSearch: saved.Check})
}

// localOperator is the local user, for the audit log.
func localOperator() audit.Who {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return audit.Who{Via: audit.ViaLocal, User: u.Username}
	}
	return audit.Who{Via: audit.ViaLocal, User: "uid " + strconv.Itoa(os.Getuid())}
}

// runDashboard runs the dashboard in this terminal until the user quits or
// ctx ends; o loads another profile of the file for :ctx.
func runDashboard(ctx context.Context, e *process.Env, cfg *config.Config, o config.Options) error {
	if !cli.IsTerminal(e.Stdin) || !cli.IsTerminal(e.Stdout) {
		return errors.New("the dashboard needs a terminal (stdin and stdout); for scripts use `treasury get`")
	}
	rt, err := process.Open(ctx, e, cfg)
	if err != nil {
		return err
	}
	if err := CheckProfile(rt); err != nil {
		rt.Close()
		return err
	}
	out := e.Stdout
	colors := ui.ColorProfile(e.Getenv) // from the environment: the first frame waits for no answer
	s := Session{Colors: colors, Dark: ui.DarkBackground(e.Getenv("COLORFGBG")), Terminal: true,
		Who: localOperator(), ReadOnly: rt.Config.ReadOnly, SaveDir: ".", Term: e.Getenv("TERM"), LocalTmux: e.Getenv("TMUX") != ""}
	// :ctx opens another profile of the file and closes the one left (the
	// first one too): the shell closes the runtime it holds at the end.
	var ctxs Contexts
	var sh *Shell
	if cfg.File != "" {
		lc := &localContexts{ctx: ctx, e: e, o: o}
		lc.log = func() *slog.Logger { return sh.rt.Log }
		ctxs = lc
	}
	sh = NewShell(rt, rt.Close, s, ctxs)
	defer sh.Close()
	// The alternate screen and the mouse are the app's view's (tea.View).
	opts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithOutput(out), tea.WithColorProfile(colors)}
	_, err = tea.NewProgram(sh, opts...).Run()
	if errors.Is(err, tea.ErrProgramKilled) && ctx.Err() != nil {
		return nil
	}
	return err
}
