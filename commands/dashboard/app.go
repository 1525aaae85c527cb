package dashboard

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/colorprofile"

	"treasury/config"
	"treasury/data/actions"
	"treasury/data/audit"
	"treasury/process"
	"treasury/ui"
	"treasury/ui/route"
	"treasury/views/addressbook"
	"treasury/views/alerts"
	auditview "treasury/views/audit"
	"treasury/views/balances"
	errorsview "treasury/views/errors"
	"treasury/views/identities"
	"treasury/views/ledger"
	"treasury/views/overview"
	paymentsview "treasury/views/payments"
	"treasury/views/quotes"
	"treasury/views/reports"
	"treasury/views/saved"
	"treasury/views/wallets"
)

// Session is what differs between the local terminal and each SSH client:
// who is there, with which terminal, allowed to act or not.
type Session struct {
	// Colors is the colour profile of the session's terminal and Dark
	// the guess of its background (ui.ColorProfile, ui.DarkBackground);
	// Terminal says there is one to take the clipboard and notifications.
	Colors   colorprofile.Profile
	Dark     bool
	Terminal bool
	// Who acts, for the audit log: the local OS user, or the SSH user,
	// key fingerprint, role and address.
	Who      audit.Who
	ReadOnly bool
	SaveDir  string
	// Life ends with the session (an SSH client's connection); nil for
	// the local terminal, whose session is the process.
	Life context.Context
	// Term is the session's TERM; LocalTmux says the local program runs
	// in tmux (never for an SSH client: the server's TMUX is not its).
	Term      string
	LocalTmux bool
}

// NewApp builds one session's shell and views over the process's shared
// runtime (one store, one set of clients).
func NewApp(rt *process.Runtime, s Session) *ui.App {
	cfg, p := rt.Config, rt.Platform
	readOnly := cfg.ReadOnly || s.ReadOnly
	// What the process shares, once for every session; what this session
	// owns, its own.
	skin := ui.SkinOf(cfg.Theme.Name, cfg.Theme.Colors)
	ctx := &ui.Context{Shared: rt.UIShared(), Session: ui.Session{Colors: s.Colors, Dark: s.Dark, Theme: ui.NewTheme(s.Colors, s.Dark, skin), Skin: skin,
		ReadOnly: readOnly, Operator: s.Who.String(), Terminal: s.Terminal, Mouse: cfg.Mouse, SaveDir: s.SaveDir, Life: s.Life,
		Term: s.Term, LocalTmux: s.LocalTmux}}
	ctx.Commands, ctx.CommandLog = sessionCommands(cfg.Commands, s.Who), rt.Log.Info
	ctx.AlertTerminal = func() (bool, bool) {
		t := p.Alerts().Terminal
		return t.Bell, t.Desktop
	}
	act := actions.New(actions.Clients{Transactions: p.WalletTransactions, Custody: p.Custody, CanSign: p.CustodyCanSign,
		Pending: rt.Pending},
		actions.Identity{Profile: cfg.Profile, Environment: cfg.Environment, Who: s.Who, ReadOnly: readOnly}, rt.Audit)
	views := []ui.View{
		overview.New(ctx, overview.Options{Base: cfg.BaseCurrency, Runway: p.Runway}),
		quotes.New(ctx),
		balances.New(ctx, balances.Options{Runway: p.Runway}),
		paymentsview.New(ctx, p),
		wallets.New(ctx, p, act),
		reports.New(ctx, p),
		addressbook.New(ctx, p, act),
		alerts.New(ctx, rt.Alerts),
		errorsview.New(ctx),
		identities.New(ctx, p),
		ledger.New(ctx, p),
		auditview.New(ctx),
	}
	// The profile's saved searches, as tabs after these.
	views = append(views, saved.Views(ctx, p, cfg.Searches)...)
	return ui.NewApp(ctx, views...)
}

// sessionCommands are the profile's custom commands as this session may
// run them: over treasury serve, only those the profile allows for the
// session's role (ssh_roles); a local session runs them all.
func sessionCommands(cs []config.Command, who audit.Who) []ui.CustomCommand {
	var out []ui.CustomCommand
	for _, c := range cs {
		uc := ui.CustomCommand{Name: c.Name, Key: c.Key, Program: c.Program, Args: c.Args, Background: c.Background}
		for _, v := range c.Views {
			uc.Views = append(uc.Views, route.Route(v))
		}
		if who.Via == "ssh" && !slices.Contains(c.SSHRoles, who.Role) {
			allowed := "nobody"
			if len(c.SSHRoles) > 0 {
				allowed = strings.Join(c.SSHRoles, ", ")
			}
			uc.Refused = fmt.Sprintf("over treasury serve the profile allows it for %s (ssh_roles), not for role %q", allowed, who.Role)
		}
		out = append(out, uc)
	}
	return out
}
