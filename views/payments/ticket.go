package paymentsview

import (
	tea "charm.land/bubbletea/v2"

	"treasury/data/payments"
	"treasury/data/payments/ticket"
	"treasury/ui"
	"treasury/ui/sanitize"
)

// copyTicket copies the selected payment's ticket summary (Y): on its
// detail, the record read by id with its timeline; on a list, the record
// held (the summary then says what was not read).
func (v *View) copyTicket() tea.Cmd {
	s, ok := v.ticket()
	if !ok {
		return ui.FlashCmd("no payment selected for a ticket summary")
	}
	text := sanitize.Text(s.Text())
	return func() tea.Msg {
		return ui.Copy{What: "the ticket summary of " + sanitize.Line(s.Payment.PaymentID), Text: text}
	}
}

// ticket is the summary of the payment shown or selected.
func (v *View) ticket() (ticket.Summary, bool) {
	s := ticket.Summary{ReadAt: v.now(), Source: v.ctx.Profile + " (" + v.ctx.Environment + ")"}
	if dp, ok := v.Stack.Top().(*detailPage); ok {
		p, ok, _ := dp.d.current()
		if !ok || p == nil {
			return s, false
		}
		s.Payment, s.History = p, dp.d.history()
		return s, true
	}
	// A list of payments (the root, a reason's payments) selects one.
	list, isList := v.Stack.Top().(interface {
		SelectedRecord() (*payments.Payment, bool)
	})
	if !isList {
		return s, false
	}
	p, ok := list.SelectedRecord()
	if !ok || p == nil {
		return s, false
	}
	s.Payment = p
	return s, true
}
