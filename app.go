package main

import (
	"context"

	"github.com/charmbracelet/colorprofile"

	"treasury/data/actions"
	"treasury/data/audit"
	"treasury/ui"
	"treasury/views/addressbook"
	"treasury/views/alerts"
	"treasury/views/auditlog"
	"treasury/views/balances"
	"treasury/views/failures"
	"treasury/views/identities"
	"treasury/views/ledger"
	"treasury/views/overview"
	paymentsview "treasury/views/payments"
	"treasury/views/quotes"
	"treasury/views/reports"
	"treasury/views/wallets"
)

// session is what differs between the local terminal and each SSH client:
// who is there, with which terminal, allowed to act or not.
type session struct {
	// colors is the colour profile of the session's terminal and dark
	// the guess of its background (ui.ColorProfile, ui.DarkBackground);
	// terminal says there is one to take the clipboard and notifications.
	colors   colorprofile.Profile
	dark     bool
	terminal bool
	// who acts, for the audit log: the local OS user, or the SSH user,
	// key fingerprint, role and address.
	who      audit.Who
	readOnly bool
	saveDir  string
	// life ends with the session (an SSH client's connection); nil for
	// the local terminal, whose session is the process.
	life context.Context
	// term is the session's TERM; localTmux says the local program runs
	// in tmux (never for an SSH client: the server's TMUX is not its).
	term      string
	localTmux bool
}

// newApp builds one session's shell and views over the process's shared
// runtime (one store, one set of clients).
func newApp(rt *runtime, s session) *ui.App {
	cfg, p := rt.cfg, rt.p
	readOnly := cfg.ReadOnly || s.readOnly
	ctx := &ui.Context{Colors: s.colors, Dark: s.dark, Theme: ui.NewTheme(s.colors, s.dark), Store: p.Store,
		Profile: cfg.Profile, Environment: cfg.Environment, ReadOnly: readOnly, Operator: s.who.String(),
		Now: p.Now, Terminal: s.terminal, Mouse: cfg.Mouse, SaveDir: s.saveDir, Life: s.life, Term: s.term,
		LocalTmux: s.localTmux, Drawings: rt.drawings}
	if rt.hooks != nil {
		ctx.Webhooks = rt.webhookStatus
	}
	ctx.AlertTerminal = func() (bool, bool) {
		t := p.Alerts().Terminal
		return t.Bell, t.Desktop
	}
	act := actions.New(actions.Clients{Transactions: p.WalletTransactions, Custody: p.Custody, CanSign: p.CustodyCanSign,
		Pending: rt.pending},
		actions.Identity{Profile: cfg.Profile, Environment: cfg.Environment, Who: s.who, ReadOnly: readOnly}, rt.audit)
	views := []ui.View{
		overview.New(ctx, overview.Options{Base: cfg.BaseCurrency, Runway: p.Runway}),
		quotes.New(ctx),
		balances.New(ctx),
		paymentsview.New(ctx, p),
		wallets.New(ctx, p, act),
		reports.New(ctx, p),
		addressbook.New(ctx, p, act),
		alerts.New(ctx, rt.alerts),
		failures.New(ctx),
		identities.New(ctx, p.Payments),
		ledger.New(ctx),
		auditlog.New(ctx),
	}
	return ui.NewApp(ctx, views...)
}
