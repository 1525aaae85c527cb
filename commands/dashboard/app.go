package dashboard

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/charmbracelet/colorprofile"

	"treasury/config"
	"treasury/config/route"
	"treasury/desk/actions"
	"treasury/desk/audit"
	"treasury/process"
	"treasury/ui"
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
	app, _ := newApp(rt, s)
	return app
}

// newApp is NewApp with the session's context.
func newApp(rt *process.Runtime, s Session) (*ui.App, *ui.Context) {
	ctx, build := session(rt, s)
	cfg := rt.Config
	views := make([]ui.View, 0, len(route.All())+len(cfg.Searches))
	for _, r := range route.All() {
		views = append(views, build(r))
	}
	// The profile's saved searches, as tabs after these; a search its view
	// cannot lay out was refused at the start (CheckProfile).
	tabs, _ := saved.Views(ctx, cfg.File, cfg.Searches, build)
	views = append(views, tabs...)
	return ui.NewApp(ctx, views...), ctx
}

// session is one session's context, and what builds each of its views.
func session(rt *process.Runtime, s Session) (*ui.Context, saved.Build) {
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
	act := actions.New(rt.ActionClients(),
		actions.Identity{Profile: cfg.Profile, Environment: cfg.Environment, Who: s.Who, ReadOnly: readOnly}, rt.Audit)
	build := func(r route.Route) ui.View {
		switch r {
		case route.Overview:
			return overview.New(ctx, overview.Options{Base: cfg.BaseCurrency, Runway: p.Runway})
		case route.Quotes:
			return quotes.New(ctx).RawFrom(p.Reads.QuoteJSON)
		case route.Balances:
			return balances.New(ctx, balances.Options{Runway: p.Runway, Funding: cfg.Funding})
		case route.Payments:
			return paymentsview.New(ctx, p)
		case route.Wallets:
			return wallets.New(ctx, p, act)
		case route.Reports:
			return reports.New(ctx, p)
		case route.AddressBook:
			return addressbook.New(ctx, p, act)
		case route.Alerts:
			return alerts.New(ctx, rt.Alerts)
		case route.Errors:
			return errorsview.New(ctx)
		case route.Identities:
			return identities.New(ctx, p)
		case route.Ledger:
			return ledger.New(ctx, p)
		case route.Audit:
			return auditview.New(ctx)
		}
		return nil
	}
	if s.Who.Via != audit.ViaSSH {
		ctx.SaveView = func(sv config.Search) (string, ui.View, error) {
			if field, err := saved.Check(sv); err != nil {
				return "", nil, fmt.Errorf("%s: %w", field, err)
			}
			line, err := config.SaveSearch(cfg.File, cfg.Profile, sv)
			if err != nil {
				return "", nil, err
			}
			where := fmt.Sprintf("%s:%d", cfg.File, line)
			tabs, err := saved.Views(ctx, cfg.File, []config.Search{sv}, build)
			if err != nil || len(tabs) == 0 {
				return where, nil, nil // saved; the start will say what is wrong with it
			}
			return where, tabs[0], nil
		}
	}
	return ctx, build
}

// CheckProfile checks what only the views know of the profile, for the
// start to refuse (the file and line of each): its saved searches, built
// once as a session would (a column or sort their view's table has not),
// and its custom commands (CheckCommands).
func CheckProfile(rt *process.Runtime) error {
	var errs config.Errors
	if len(rt.Config.Searches) > 0 {
		ctx, build := session(rt, Session{Colors: colorprofile.NoTTY, Who: audit.Who{Via: audit.ViaLocal, User: "check"}})
		if _, err := saved.Views(ctx, rt.Config.File, rt.Config.Searches, build); err != nil {
			var ce config.Errors
			if !errors.As(err, &ce) {
				return err
			}
			errs = append(errs, ce...)
		}
	}
	if err := CheckCommands(rt.Config); err != nil {
		errs = append(errs, err.(config.Errors)...)
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}

// recordTypes are, per view, the types of the records its tables list
// (the views' RecordTypes); the overview lists none.
func recordTypes() map[route.Route][]reflect.Type {
	return map[route.Route][]reflect.Type{
		route.Quotes: quotes.RecordTypes(), route.Balances: balances.RecordTypes(), route.Payments: paymentsview.RecordTypes(),
		route.Wallets: wallets.RecordTypes(), route.Reports: reports.RecordTypes(), route.AddressBook: addressbook.RecordTypes(),
		route.Alerts: alerts.RecordTypes(), route.Errors: errorsview.RecordTypes(), route.Identities: identities.RecordTypes(),
		route.Ledger: ledger.RecordTypes(), route.Audit: auditview.RecordTypes(),
	}
}

// CheckCommands checks each custom command's {field} placeholders on
// each view it runs on: a field none of that view's records has (the
// docs' {state} on wallet transactions, whose field is status) would
// fail at every press; the start refuses it, naming the file, the line of
// the argument, the view and the fields that come near.
func CheckCommands(cfg *config.Config) error {
	types := recordTypes()
	var errs config.Errors
	for _, c := range cfg.Commands {
		for _, v := range c.Views {
			for _, u := range ui.UnknownFields(c.Args, types[route.Route(v)]) {
				msg := fmt.Sprintf("{%s} is no field of the %s view's records", u.Field, v)
				if len(u.Near) > 0 {
					msg += " (they have " + strings.Join(u.Near, ", ") + ")"
				}
				errs = append(errs, c.Error(cfg.File, fmt.Sprintf("args[%d]", u.Arg), msg+"; views: limits the command to the views whose records have it"))
			}
		}
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
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
