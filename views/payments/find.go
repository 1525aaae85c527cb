package paymentsview

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"treasury/desk/live"
	"treasury/ui"
	"treasury/ui/sanitize"
	"treasury/views/viewkit"
	"treasury/wire/apierr"
	"treasury/wire/payments"
)

// A search the window shows nothing of may name a payment outside it: a
// single plain term (an internalId, a payment id) is asked of the
// platform, and the table says what it answered, instead of only "No
// rows match".

// findState is where the platform's search stands.
type findState int

const (
	findNone findState = iota
	findAsked
	findFound
	findMissing
	findFailed
)

// outside is the platform's answer to the search ref: the store's read
// of it (key).
type outside struct {
	ref   string
	key   live.Key[payments.Payment]
	state findState
	p     payments.Payment
	err   error
}

// noMatchHint is what "No rows match" adds when the search is not asked
// of the platform.
const noMatchHint = "Only the window shown is searched: w widens it to 30d; :payment <id or internalId> finds any payment."

// plainRef says whether a search is one plain term the platform can be
// asked by: no field, negation, expression or space.
func plainRef(f string) bool {
	return len(f) >= 3 && !strings.ContainsAny(f, " :!~\"")
}

// SetFilter sets the page's search, and asks the platform when the
// window holds nothing that matches.
func (v *View) SetFilter(f string) tea.Cmd {
	return tea.Batch(ui.SetFilterOf(v.Stack.Top(), f), v.findOutside(), v.askPlatform(strings.TrimSpace(f)))
}

// Filter is the search of the page shown.
func (v *View) Filter() string { return ui.FilterOf(v.Stack.Top()) }

// findOutside asks the platform for the payment a search names when the
// root table shows none (once per search).
func (v *View) findOutside() tea.Cmd {
	t := v.page.Table()
	f := strings.TrimSpace(t.Filter())
	if v.Depth() != 1 || f == "" || t.Computing() || t.Len() > 0 || t.Total() == 0 {
		return nil
	}
	if !plainRef(f) || v.p.Payments == nil {
		v.found = outside{}
		v.showFound()
		return nil
	}
	if f == v.found.ref {
		return nil
	}
	k := live.Ask(v.ctx.Store, v.p.Reads.FindPayment, f)
	v.found = outside{ref: f, key: k, state: findAsked}
	v.showFound()
	return viewkit.Fetch(v.ctx, k, viewkit.Opening(v.ctx))
}

// foundAnswer takes the platform's answer to the search, once the read
// of it (topic) has answered.
func (v *View) foundAnswer(topic live.Topic) {
	if v.found.state != findAsked || topic != v.found.key.Topic() {
		return
	}
	got := live.Get(v.ctx.Store, v.found.key)
	switch {
	case got.Err == nil && got.Loaded():
		v.found.state, v.found.p = findFound, got.Data
	case got.Err == nil:
		return // not answered: the read was cut short
	case apierr.ClassOf(got.Err) == apierr.ClassNotFound:
		v.found.state = findMissing
	default:
		v.found.state, v.found.err = findFailed, got.Err
	}
	v.showFound()
}

// showFound says in the empty table what the platform answered.
func (v *View) showFound() {
	f := v.found
	ref := sanitize.Line(f.ref)
	hint := noMatchHint
	if f.state == findNone && v.beyond.search != "" && v.beyond.search == strings.TrimSpace(v.page.Table().Filter()) {
		hint = "The platform is asked for what lies beyond the window: see above (" + v.ctx.Key("open").Help().Key + " or " + v.keys.Platform.Help().Key + " opens it)."
	}
	switch f.state {
	case findAsked:
		hint = "Not in the last " + windowWord(v.window) + ": asking the platform for " + ref + "…"
	case findFound:
		p := f.p
		when := "never initiated"
		if !p.InitiatedAt.IsZero() {
			when = "initiated " + p.InitiatedAt.UTC().Format("2006-01-02")
		}
		hint = "Outside the last " + windowWord(v.window) + ": " + sanitize.Line(p.InternalID()) + " " +
			sanitize.Line(string(p.PaymentState)) + ", " + when + ": " + v.ctx.Key("open").Help().Key + " opens it."
	case findMissing:
		hint = "The platform has no payment " + ref + " either (internalId or payment id); " + v.keys.Window.Help().Key + " widens the window."
	case findFailed:
		hint = "Asking the platform for " + ref + " failed: " + strings.TrimPrefix(ui.ErrorText(f.err), "✖ ") + ". " + v.keys.Window.Help().Key + " widens the window."
	}
	v.page.Table().SetNoMatchHint(hint)
}

// openFound opens the payment the platform found for the search (enter
// on the empty table); false when there is none.
func (v *View) openFound() (tea.Cmd, bool) {
	if v.Depth() != 1 || v.found.state != findFound || v.page.Table().Len() > 0 {
		return nil, false
	}
	return v.openPayment(v.found.p.PaymentID), true
}
