package paymentsview

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"treasury/desk/live"
	"treasury/desk/platform"
	"treasury/figures"
	"treasury/figures/ticket"
	"treasury/ui"
	"treasury/ui/sanitize"
	"treasury/views/viewkit"
	"treasury/wire/payments"
)

// copyTicket copies the ticket summary of the payment shown or selected
// (Y). The record is read by id first, with its timeline (the store's
// shared reads: on a detail page already made, so at once), wherever Y is
// pressed: a list's record lacks the errors, fees, taxes and tracking
// references. What could not be read is named in the summary, never
// passed over.
func (v *View) copyTicket() tea.Cmd {
	p, ok := v.ticketPayment()
	if !ok {
		return ui.FlashCmd("no payment selected for a ticket summary")
	}
	s := ticket.Summary{Payment: p, Source: v.ctx.Profile + " (" + v.ctx.Environment + ")"}
	if v.p.Payments == nil {
		s.ReadAt = v.now()
		s.Unread = []string{"its errors, payout details and timeline: the profile has no payments interface"}
		return copySummary(s)
	}
	st, reads := v.ctx.Store, v.p.Reads
	at := platform.PaymentAt{ID: p.PaymentID, AsOf: p.LastStateUpdatedAt}
	byID, states := live.Ask(st, reads.Payment, at), live.Ask(st, reads.PaymentStates, at)
	now := v.now()
	var ledger live.Key[[]payments.LedgerTransaction]
	from, to, spanned := figures.TrailSpan(p, now)
	if spanned && figures.ReadsLedger(p) {
		ledger = live.Ask(st, reads.Ledger, platform.LedgerSpan{From: from, To: to})
	}
	return tea.Sequence(ui.FlashCmd("reading payment "+sanitize.Line(p.PaymentID)+" by id for its ticket…"),
		viewkit.Run(v.ctx, func(ctx context.Context) (ticket.Summary, error) {
			// A read held for this state is kept (zero after): one read
			// per state, shared with the detail page and other sessions.
			st.ReadNow(ctx, byID.Topic(), time.Time{})
			st.ReadNow(ctx, states.Topic(), time.Time{})
			var txs live.Snap[[]payments.LedgerTransaction]
			if ledger != (live.Key[[]payments.LedgerTransaction]{}) {
				st.ReadNow(ctx, ledger.Topic(), time.Time{})
				txs = live.Get(st, ledger)
			}
			s = readTicket(s, live.Get(st, byID), live.Get(st, states), now)
			return withTrail(s, txs, to), nil
		}, func(s ticket.Summary, _ error) ticketRead { return ticketRead{s: s} }))
}

// withTrail sets s's ledger trail from the ledger of its dates read to
// readTo (a payment that draws no prefunded account needs none), or says
// why it could not be read.
func withTrail(s ticket.Summary, ledger live.Snap[[]payments.LedgerTransaction], readTo time.Time) ticket.Summary {
	p := s.Payment
	switch {
	case !figures.ReadsLedger(p):
		ledger.Data = nil
	case ledger.Err != nil:
		s.Unread = append(s.Unread, "its ledger lines: "+sanitize.Line(ledger.Err.Error()))
		return s
	case !ledger.Loaded():
		s.Unread = append(s.Unread, "its ledger lines: no answer in time")
		return s
	}
	t := figures.TrailOf(p, ledger.Data, s.History, readTo)
	s.Trail = &t
	return s
}

// ticketRead is the summary once its reads answered.
type ticketRead struct {
	viewkit.Replied
	s ticket.Summary
}

// readTicket completes s with the read by id and the timeline, or says
// why either could not be read.
func readTicket(s ticket.Summary, byID live.Snap[payments.Payment], states live.Snap[[]payments.StateTransition], now time.Time) ticket.Summary {
	s.ReadAt = now
	switch {
	case byID.Err != nil:
		s.Unread = append(s.Unread, "its errors, fees, taxes and payout details: "+sanitize.Line(byID.Err.Error()))
	case !byID.Loaded():
		s.Unread = append(s.Unread, "its errors, fees, taxes and payout details: no answer in time")
	case byID.Data.PaymentID == s.Payment.PaymentID:
		p := byID.Data
		s.Payment = &p
	}
	switch {
	case states.Err != nil:
		s.Unread = append(s.Unread, "its timeline: "+sanitize.Line(states.Err.Error()))
	case !states.Loaded():
		s.Unread = append(s.Unread, "its timeline: no answer in time")
	default:
		s.History = states.Data
		if s.History == nil {
			s.History = []payments.StateTransition{}
		}
	}
	return s
}

// copySummary copies s, through the sanitizer.
func copySummary(s ticket.Summary) tea.Cmd {
	text := sanitize.Text(s.Text())
	return func() tea.Msg {
		return ui.Copy{What: "the ticket summary of " + sanitize.Line(s.Payment.PaymentID), Text: text}
	}
}

// ticketPayment is the payment shown, or selected in a list.
func (v *View) ticketPayment() (*payments.Payment, bool) {
	if dp, ok := v.Stack.Top().(*detailPage); ok {
		p, ok, _ := dp.d.current()
		return p, ok && p != nil
	}
	// A list of payments (the root, a reason's payments) selects one.
	list, isList := v.Stack.Top().(interface {
		SelectedRecord() (*payments.Payment, bool)
	})
	if !isList {
		return nil, false
	}
	p, ok := list.SelectedRecord()
	return p, ok && p != nil
}
