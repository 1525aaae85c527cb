package main

import (
	"io"

	"github.com/charmbracelet/lipgloss"

	"treasury/data/actions"
	"treasury/ui"
	"treasury/views/addressbook"
	"treasury/views/alerts"
	"treasury/views/auditlog"
	"treasury/views/balances"
	"treasury/views/identities"
	"treasury/views/ledger"
	paymentsview "treasury/views/payments"
	"treasury/views/quotes"
	"treasury/views/reports"
	"treasury/views/wallets"
)

// session is what differs between the local terminal and each SSH client:
// who is there, with which terminal, allowed to act or not.
type session struct {
	renderer *lipgloss.Renderer
	output   io.Writer
	operator string
	readOnly bool
	saveDir  string
}

// newApp builds one session's shell and views over the process's shared
// runtime (one store, one set of clients).
func newApp(rt *runtime, s session) *ui.App {
	cfg, p := rt.cfg, rt.p
	readOnly := cfg.ReadOnly || s.readOnly
	ctx := &ui.Context{Renderer: s.renderer, Theme: ui.NewTheme(s.renderer), Store: p.Store,
		Profile: cfg.Profile, Environment: cfg.Environment, ReadOnly: readOnly, Operator: s.operator,
		Now: p.Now, Output: s.output, SaveDir: s.saveDir, Webhooks: rt.webhooks}
	act := actions.New(actions.Clients{Transactions: p.WalletTransactions, Custody: p.Custody, CanSign: p.CustodyCanSign},
		actions.Identity{Profile: cfg.Profile, Environment: cfg.Environment, Operator: s.operator, ReadOnly: readOnly},
		rt.audit, p.Now)
	views := []ui.View{
		quotes.New(ctx),
		balances.New(ctx),
		paymentsview.New(ctx, p),
		wallets.New(ctx, p, act),
		reports.New(ctx, p),
		addressbook.New(ctx, p, act),
		alerts.New(ctx),
		identities.New(ctx, p.Payments),
		ledger.New(ctx),
		auditlog.New(ctx, rt.audit),
	}
	return ui.NewApp(ctx, views...)
}
