package paymentsview

import (
	"context"
	"errors"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"treasury/data/apierr"
	"treasury/data/live"
	"treasury/data/payments"
	payclient "treasury/data/payments/client"
	"treasury/ui"
	"treasury/ui/sanitize"
	"treasury/views/viewkit"
)

// Keys of the detail's calls (viewkit.Loaded.Key).
const (
	keyLookup = "paymentsview:lookup:"
	keyV3     = "paymentsview:v3:"
	keyStates = "paymentsview:states:"
)

// load is the state of one call of the detail: whether it was started
// for the record as it is now, and its answers as a snapshot (loading
// since, failed, answered) for viewkit.Part. A call started again keeps
// its last answer, shown stale if the new one fails.
type load struct {
	started bool
	asOf    time.Time // the record's lastStateUpdatedAt when started
	snap    live.Snapshot
}

// ask marks the call as started for the record as of asOf.
func (l *load) ask(now, asOf time.Time) {
	l.started, l.asOf = true, asOf
	l.snap = viewkit.Asked(l.snap, now)
}

// answer takes the call's outcome.
func (l *load) answer(now time.Time, err error) { l.snap = viewkit.Answered(l.snap, now, err) }

// detail is what the detail page knows beyond the store: the payment
// looked up by a client call when the store does not hold it, the v3 read
// with its errors, and the state history.
type detail struct {
	v       *View
	ref     string // as asked: payment id or internalId
	id      string // payment id, once known
	fetched *payments.Payment
	lookup  load
	v3      load
	states  load
	history []payments.StateTransition
}

// detailPage is a DetailPage of one payment, which may first have to be
// looked up.
type detailPage struct {
	*viewkit.DetailPage[*payments.Payment]
	d *detail
}

func newDetailPage(v *View, ref string) *detailPage {
	d := &detail{v: v, ref: ref}
	dp := viewkit.NewDetailPage(v.ctx, viewkit.DetailSpec[*payments.Payment]{
		Topics: []live.Topic{live.Payments, live.Ledger, live.Reports},
		Get:    d.current,
		ID:     func(p *payments.Payment) string { return p.PaymentID },
		Body:   d.body,
		Handle: d.handle,
		Fields: d.fields,
	})
	return &detailPage{DetailPage: dp, d: d}
}

// Crumb is the payment id, shortened.
func (p *detailPage) Crumb() string {
	id := p.d.id
	if id == "" {
		id = p.d.ref
	}
	return viewkit.Short(sanitize.Line(id), 10)
}

// Update lets the detail page handle msg, then starts the calls the
// record now shown needs.
func (p *detailPage) Update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	if _, ok := msg.(ui.Refresh); ok {
		p.d.v3.started, p.d.states.started = false, false
		p.d.v.recon.retry()
		p.Redraw()
	} else {
		cmd = p.DetailPage.Update(msg)
	}
	return tea.Batch(cmd, p.d.kick())
}

// Render shows the lookup's progress or failure until the record is known.
func (p *detailPage) Render(w, h int) string {
	if _, ok := p.Record(); ok || p.d.id != "" {
		return p.DetailPage.Render(w, h)
	}
	t := p.d.v.ctx.Theme
	lines := []string{t.Title.Render("Payment " + sanitize.Line(p.d.ref)),
		t.Muted.Render("not held by the dashboard: looked up by payment id and internalId")}
	part, _ := viewkit.Part(p.d.v.ctx, p.d.lookup.snap, "payment "+sanitize.Line(p.d.ref), w)
	if err := p.d.lookup.snap.Err; err != nil && apierr.ClassOf(err) == apierr.ClassNotFound {
		part = append([]string{t.Bad.Render("not found by payment id nor by internalId:")}, ui.ErrorLines(t, err, w)...)
	}
	return wrapLines(strings.Join(append(lines, part...), "\n"), w)
}

// current is the record shown: the store's, else the one looked up.
func (d *detail) current() (*payments.Payment, bool, live.Snapshot) {
	got := live.Get(d.v.ctx.Store, live.PaymentsKey)
	snap, ps := got.Snapshot, got.Data
	if d.id == "" {
		if p, ok := byID(ps, d.ref); ok {
			d.id = p.PaymentID
		}
	}
	if d.id != "" {
		if p, ok := ps.Get(d.id); ok {
			// The page's own read by id when it is of the state held: the
			// raw record (y) is then the one the detail is built from.
			return d.best(p), true, snap
		}
	}
	if d.fetched != nil {
		return d.fetched, true, snap
	}
	return nil, false, snap
}

// kick starts what the record shown needs and has not started: the lookup
// when it is not held, the state history (again when the state moved), the
// v3 read in a failure state (for its errors) or of a partial record (for
// the rest of it), and the RECON rows.
func (d *detail) kick() tea.Cmd {
	c := d.v.p.Payments
	rec, ok, _ := d.current()
	if !ok {
		if d.id != "" || d.lookup.started {
			return nil
		}
		now := d.v.ctx.Clock()
		d.lookup.ask(now, time.Time{})
		if c == nil {
			d.lookup.answer(now, errors.New("not held, and the profile has no payments interface to look it up"))
			return nil
		}
		ref := d.ref
		return viewkit.Call(d.v.ctx, keyLookup+ref, func(ctx context.Context) (any, error) { return lookup(ctx, c, ref) })
	}
	var cmds []tea.Cmd
	id, asOf := rec.PaymentID, rec.LastStateUpdatedAt
	now := d.v.ctx.Clock()
	if c != nil && (!d.states.started || asOf.After(d.states.asOf)) {
		d.states.ask(now, asOf)
		cmds = append(cmds, viewkit.Call(d.v.ctx, keyStates+id, func(ctx context.Context) (any, error) { return c.StateHistory(ctx, id) }))
	}
	// The read by id gives what a list record lacks: a failure's errors,
	// the payout details, and a partial record's (known only from a
	// notification) fields.
	if c != nil && !rec.Detailed && (!d.v3.started || asOf.After(d.v3.asOf)) {
		d.v3.ask(now, asOf)
		cmds = append(cmds, viewkit.Call(d.v.ctx, keyV3+id, func(ctx context.Context) (any, error) { return c.Get(ctx, id) }))
	}
	cmds = append(cmds, d.v.recon.want(d.v.ctx, d.v.p.Reporting, rec.When()))
	return tea.Batch(cmds...)
}

// handle takes the answers of the detail's calls.
func (d *detail) handle(msg tea.Msg) (bool, tea.Cmd) {
	m, ok := msg.(viewkit.Loaded)
	if !ok {
		return false, nil
	}
	switch {
	case m.Key == keyLookup+d.ref && d.id == "":
		d.lookup.answer(d.v.ctx.Clock(), m.Err)
		if m.Err != nil {
			return true, ui.ErrorCmd(m.Err)
		}
		p := m.Value.(payments.Payment)
		d.id, d.fetched = p.PaymentID, &p
		return true, nil
	case d.id != "" && m.Key == keyStates+d.id:
		d.states.answer(d.v.ctx.Clock(), m.Err)
		if m.Err == nil {
			d.history = m.Value.([]payments.StateTransition)
		}
		return true, nil
	case d.id != "" && m.Key == keyV3+d.id:
		d.v3.answer(d.v.ctx.Clock(), m.Err)
		if m.Err == nil {
			// Kept for this page: the store reads every failure's reason
			// itself, and a page never writes into the store.
			p := m.Value.(payments.Payment)
			d.fetched = &p
		}
		return true, nil
	case strings.HasPrefix(m.Key, keyReports), strings.HasPrefix(m.Key, keyRecon):
		return true, nil
	}
	return false, nil
}

// lookup finds a payment the store does not hold: by payment id with GET
// /v3/payments/{id} when ref is one (a uuid), else (or when not found) by
// internalId (the client asks the filter's prefix match, or the spec's
// GET, whichever the server takes).
func lookup(ctx context.Context, c *payclient.Client, ref string) (payments.Payment, error) {
	if ref == "" {
		return payments.Payment{}, errors.New("no payment id or internalId given")
	}
	byInternal := func() (payments.Payment, error) { return c.ByInternalID(ctx, ref) }
	byPaymentID := func() (payments.Payment, error) { return c.Get(ctx, ref) }
	first, second := byInternal, byPaymentID
	if payments.IsPaymentID(ref) {
		first, second = byPaymentID, byInternal
	}
	p, err := first()
	if err == nil || apierr.ClassOf(err) != apierr.ClassNotFound {
		return p, err
	}
	if p2, err2 := second(); err2 == nil {
		return p2, nil
	}
	return p, err
}

// wrapLines wraps every line of s to w cells (words first, then hard).
func wrapLines(s string, w int) string {
	if w <= 0 {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if ansi.StringWidth(l) > w {
			lines[i] = ansi.Wrap(l, w, " ")
		}
	}
	return strings.Join(lines, "\n")
}
