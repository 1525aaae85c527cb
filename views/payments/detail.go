package paymentsview

import (
	"errors"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"treasury/desk/live"
	"treasury/desk/platform"
	"treasury/figures"
	"treasury/ui"
	"treasury/ui/sanitize"
	"treasury/views/viewkit"
	"treasury/wire/apierr"
	"treasury/wire/payments"
)

// load is one read of the detail: the store's read (key) for the record
// as of asOf, whether it was started, and the answer for the state before,
// shown (stale) until this one answers.
type load[T any] struct {
	store   *live.Store
	key     live.Key[T]
	started bool
	asOf    time.Time // the record's lastStateUpdatedAt when started
	before  live.Snap[T]
	// failed, when set, is why the read cannot be made (no client).
	failed error
}

// ask reads key for the record as of asOf (viewkit.Fetch: a read held
// fetched after `after` is kept).
func (l *load[T]) ask(ctx *ui.Context, key live.Key[T], asOf, after time.Time) tea.Cmd {
	if prev := live.Get(l.store, l.key); prev.Loaded() {
		l.before = prev
	}
	l.key, l.started, l.asOf = key, true, asOf
	return viewkit.Fetch(ctx, key, after)
}

// get is the read's answer, or while it has none, the one before.
func (l *load[T]) get() live.Snap[T] {
	if l.failed != nil {
		return live.Snap[T]{Snapshot: live.Snapshot{Err: l.failed}}
	}
	got := live.Get(l.store, l.key)
	if got.Loaded() || got.Err != nil || !l.before.Loaded() {
		return got
	}
	return l.before
}

// detail is what the detail page reads beyond the store's tables: the
// payment looked up when the store does not hold it, the v3 read with its
// errors, and the state history; every read is the store's, shared with
// the other sessions (platform.Reads); the v3 read of a payment the store
// holds completes its record there (its row shows the reason, and nothing
// reads it again).
type detail struct {
	v      *View
	ref    string // as asked: payment id or internalId
	id     string // payment id, once known
	lookup load[payments.Payment]
	v3     load[payments.Payment]
	states load[[]payments.StateTransition]
	// spanLedger is the ledger of the payment's own dates, read when they
	// begin before the polled window (ledgerSpan).
	spanLedger load[[]payments.LedgerTransaction]
	// refreshing: r was pressed, the next reads are made again.
	refreshing bool
}

// detailPage is a DetailPage of one payment, which may first have to be
// looked up.
type detailPage struct {
	*viewkit.DetailPage[*payments.Payment]
	d *detail
}

func newDetailPage(v *View, ref string) *detailPage {
	st := v.ctx.Store
	d := &detail{v: v, ref: ref}
	d.lookup.store, d.v3.store, d.states.store, d.spanLedger.store = st, st, st, st
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
		p.d.refresh()
		p.d.v.recon.retry(p.d.v.ctx)
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
	lk := p.d.lookup.get()
	part, _ := viewkit.Part(p.d.v.ctx, lk.Snapshot, "payment "+sanitize.Line(p.d.ref), w)
	if err := lk.Err; err != nil && apierr.ClassOf(err) == apierr.ClassNotFound {
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
		} else if lk := d.lookup.get(); lk.Loaded() && lk.Err == nil {
			d.id = lk.Data.PaymentID
		}
	}
	if d.id != "" {
		if p, ok := ps.Get(d.id); ok {
			// The page's own read by id when it is of the state held: the
			// raw record (y) is then the one the detail is built from.
			return d.best(p), true, snap
		}
	}
	if f := d.fetched(); f != nil {
		return f, true, snap
	}
	return nil, false, snap
}

// fetched is the record as the page's own reads answered: the v3 read,
// else the lookup (nil: none).
func (d *detail) fetched() *payments.Payment {
	if v3 := d.v3.get(); v3.Loaded() && d.id != "" && v3.Data.PaymentID == d.id {
		return &v3.Data
	}
	if lk := d.lookup.get(); lk.Loaded() {
		return &lk.Data
	}
	return nil
}

// history is the state history read (nil before it answered).
func (d *detail) history() []payments.StateTransition { return d.states.get().Data }

// refresh reads the state history and the v3 record again (r).
func (d *detail) refresh() {
	d.v3.started, d.states.started = false, false
	d.refreshing = true
}

// kick starts what the record shown needs and has not started: the lookup
// when it is not held, the state history (again when the state moved), the
// v3 read in a failure state (for its errors) or of a partial record (for
// the rest of it), and the RECON rows.
func (d *detail) kick() tea.Cmd {
	reads, ctx := d.v.p.Reads, d.v.ctx
	rec, ok, _ := d.current()
	if !ok {
		if d.id != "" || d.lookup.started {
			return nil
		}
		if d.v.p.Payments == nil {
			d.lookup.started = true
			d.lookup.failed = errors.New("not held, and the profile has no payments interface to look it up")
			return nil
		}
		return d.lookup.ask(ctx, live.Ask(ctx.Store, reads.FindPayment, d.ref), time.Time{}, viewkit.Opening(ctx))
	}
	var cmds []tea.Cmd
	at := platform.PaymentAt{ID: rec.PaymentID, AsOf: rec.LastStateUpdatedAt}
	after := time.Time{} // one read per state, shared
	if d.refreshing {
		after, d.refreshing = ctx.Store.Now(), false
	}
	c := d.v.p.Payments
	if c != nil && (!d.states.started || at.AsOf.After(d.states.asOf)) {
		cmds = append(cmds, d.states.ask(ctx, live.Ask(ctx.Store, reads.PaymentStates, at), at.AsOf, after))
	}
	// The read by id gives what a list record lacks: a failure's errors,
	// the payout details, and a partial record's (known only from a
	// notification) fields.
	if c != nil && !rec.Detailed && (!d.v3.started || at.AsOf.After(d.v3.asOf)) {
		cmds = append(cmds, d.v3.ask(ctx, live.Ask(ctx.Store, reads.Payment, at), at.AsOf, after))
	}
	if span, ok := d.ledgerSpan(rec); ok && c != nil && (!d.spanLedger.started || at.AsOf.After(d.spanLedger.asOf)) {
		cmds = append(cmds, d.spanLedger.ask(ctx, live.Ask(ctx.Store, reads.Ledger, span), at.AsOf, after))
	}
	cmds = append(cmds, d.v.recon.want(ctx, d.v.p, rec.When()))
	return tea.Batch(cmds...)
}

// ledgerSpan is the span of the ledger that holds the payment's movements
// (figures.TrailSpan: from a minute before it was initiated to what gave
// its funds back after its last state, to the platform's now at most)
// when it begins before the polled window (platform.LedgerWindow). ok is
// false when the polled ledger holds them.
func (d *detail) ledgerSpan(p *payments.Payment) (platform.LedgerSpan, bool) {
	now := d.v.now()
	from, to, ok := figures.TrailSpan(p, now)
	if !ok || !from.Before(now.Add(-platform.LedgerWindow)) {
		return platform.LedgerSpan{}, false
	}
	return platform.LedgerSpan{From: from, To: to}, true
}

// handle redraws the detail when one of its reads answered.
func (d *detail) handle(msg tea.Msg) (bool, tea.Cmd) {
	_, ok := msg.(viewkit.Fetched)
	return ok, nil
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
