package paymentsview

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"treasury/desk/live"
	"treasury/ui"
	"treasury/ui/sanitize"
	"treasury/views/viewkit"
	"treasury/wire/money"
	"treasury/wire/payments"
	"treasury/wire/reporting"
)

// step is one entry of the state timeline.
type step struct {
	at     time.Time
	source string // "history" (GET …/states) or "webhook"
	text   string
}

// mergeTimeline orders the state history and the webhook arrivals by time
// (history first at equal times).
func mergeTimeline(hist []payments.StateTransition, arr []live.Arrival) []step {
	out := make([]step, 0, len(hist)+len(arr))
	for _, h := range hist {
		from := string(h.UpdatedFrom)
		if from == "" {
			from = "·"
		}
		out = append(out, step{at: h.UpdatedAt, source: "history", text: sanitize.Line(from) + " → " + sanitize.Line(string(h.UpdatedTo))})
	}
	for _, a := range arr {
		s := "→ " + sanitize.Line(string(a.State)) + "  received " + viewkit.Time(a.ReceivedAt) + "  event " + viewkit.Short(sanitize.Line(a.EventID), 12)
		if !a.Applied {
			s += "  (late: older than the state held, not applied)"
		}
		out = append(out, step{at: a.CreateDate, source: "webhook", text: s})
	}
	slices.SortStableFunc(out, func(a, b step) int { return a.at.Compare(b.at) })
	return out
}

func (d *detail) timeline(p *payments.Payment, w int) string {
	t := d.v.ctx.Theme
	var b strings.Builder
	b.WriteString(viewkit.Section(t, "State timeline") + t.Muted.Render("  (history: GET /v3/payments/{id}/states · webhook: notifications received)") + "\n")
	arr := d.v.ctx.Store.Arrivals(p.PaymentID)
	// The history is drawn only from a read that answered (stale, with
	// its age and error, after a later failure); before, its loading or
	// its error stands where it would be, and the webhook arrivals, which
	// do not depend on it, are listed all the same.
	read := false
	switch part, ok := viewkit.Part(d.v.ctx, d.states.get().Snapshot, "the state history", w); {
	case d.v.p.Payments == nil:
		b.WriteString(t.Muted.Render("no state history: the profile has no payments interface") + "\n")
	case !d.states.started && !d.states.get().Snapshot.Loaded():
		b.WriteString(t.Muted.Render("loading the state history…") + "\n")
	default:
		read = ok
		if len(part) > 0 {
			b.WriteString(strings.Join(part, "\n") + "\n")
		}
	}
	hist := d.history()
	if !read {
		hist = nil
	}
	steps := mergeTimeline(hist, arr)
	for _, s := range steps {
		src := t.Muted.Render(pad(s.source, 8))
		if s.source == "webhook" {
			src = t.Accent.Render(pad(s.source, 8))
		}
		b.WriteString(hang(viewkit.Time(s.at)+"  "+src+" ", s.text, w) + "\n")
	}
	if len(hist) == 0 && read {
		b.WriteString(t.Muted.Render("the state history lists no state change") + "\n")
	}
	switch {
	case len(arr) > 0:
	case d.v.ctx.Webhooks == nil:
		b.WriteString(wrapLines(t.Muted.Render("no webhook notifications: this dashboard runs no webhook receiver (the profile has no webhooks section)"), w) + "\n")
	case !d.v.ctx.Webhooks().Listening():
		b.WriteString(wrapLines(t.Muted.Render("no webhook notifications: this dashboard's receiver does not listen (see :errors)"), w) + "\n")
	default:
		b.WriteString(wrapLines(t.Muted.Render("no webhook notification received for it by this dashboard"), w) + "\n")
	}
	return b.String()
}

// reportRows shows the payment's lines in the RECON report of its
// initiation date, with the totals over them.
func (d *detail) reportRows(p *payments.Payment, w int) string {
	t := d.v.ctx.Theme
	var b strings.Builder
	b.WriteString(viewkit.Section(t, "Report rows (RECON)") + "\n")
	if d.v.p.Reporting == nil {
		return b.String() + t.Muted.Render("the profile has no reporting interface") + "\n"
	}
	s := d.v.recon.state(d.v.ctx, p.PaymentID, p.When())
	period := func(r reporting.Report) string {
		return r.StartDate.UTC().Format("2006-01-02") + " – " + r.EndDate.UTC().Format("2006-01-02")
	}
	what := "the list of reports"
	if s.found {
		what = "RECON " + period(s.report)
	}
	// Each claim waits for the read it rests on: "no report covers"
	// for the list, "not in RECON" for the report's download.
	part, ok := viewkit.Part(d.v.ctx, s.snap, what, w)
	if len(part) > 0 {
		b.WriteString(strings.Join(part, "\n") + "\n")
	}
	switch {
	case !ok:
	case !s.found:
		b.WriteString(t.Muted.Render("no RECON report covers "+p.When().UTC().Format("2006-01-02")+
			" yet: the month to date is published daily, up to the day before") + "\n")
	case s.group == nil:
		b.WriteString(t.Muted.Render("not in RECON "+period(s.report)+" ("+strconv.Itoa(s.payments)+" payments)") + "\n")
	default:
		b.WriteString(reconLines(t, s.group, w, "RECON "+period(s.report)+", report "+viewkit.Short(s.report.ID, 9)))
	}
	return b.String()
}

func reconLines(t ui.Theme, g *reporting.ReconPayment, w int, title string) string {
	var b strings.Builder
	internal := ""
	if len(g.Lines) > 0 && g.Lines[0].InternalPaymentState != "" {
		internal = " (" + sanitize.Line(g.Lines[0].InternalPaymentState) + ")"
	}
	// Wrapped, never cut: the end_to_end_id is what a bank is asked about.
	b.WriteString(wrapLines(t.Muted.Render(sanitize.Line(title)+"  state "+sanitize.Line(g.PaymentState)+internal+
		"  end_to_end_id "+sanitize.Line(g.EndToEndID)), w) + "\n")
	b.WriteString(t.Header.Render(ansi.Truncate(pad("transaction", 14)+" "+pad("type", 10)+" "+pad("state", 9)+" "+
		pad("executed (UTC)", 19)+" "+pad("balance change", 18)+" trade", w, "…")) + "\n")
	for _, r := range g.Lines {
		exec := "—"
		if r.ExecutedAt != nil {
			exec = viewkit.Time(*r.ExecutedAt)
		}
		change := "—"
		if r.BalanceChange != nil {
			change = viewkit.Amount(r.BalanceChange.Decimal(), r.BalanceChangeCurrency)
		}
		line := pad(viewkit.Short(sanitize.Line(r.TransactionID), 14), 14) + " " + pad(sanitize.Line(r.TransactionType), 10) + " " +
			pad(sanitize.Line(r.TransactionState), 9) + " " + pad(exec, 19) + " " + pad(change, 18) + " " + tradeText(r)
		b.WriteString(ansi.Truncate(line, w, "…") + "\n")
	}
	tot := g.Totals
	sum := strconv.Itoa(tot.Complete) + "/" + strconv.Itoa(tot.Transactions) + " complete · fees " + tot.Fees().String()
	for _, c := range tot.BalanceChangeCurrency {
		sum += " · " + viewkit.Amount(tot.BalanceChange[c], c)
	}
	b.WriteString(ansi.Truncate(t.Bold.Render("totals ")+sum, w, "…") + "\n")
	if len(g.Mismatch) > 0 {
		b.WriteString(t.Warn.Render("lines disagree on: "+sanitize.Line(strings.Join(g.Mismatch, ", "))) + "\n")
	}
	return b.String()
}

// tradeText sums up a TRADE line: what the source exchange received, what
// was withdrawn (and its fee), and what the destination paid out.
func tradeText(r reporting.ReconRow) string {
	var parts []string
	add := func(label string, n *money.Number, cur string) {
		if n != nil {
			parts = append(parts, label+" "+viewkit.Amount(n.Decimal(), cur))
		}
	}
	add("in", r.SourceResultAdjustedAmount, r.SentCurrency)
	add("withdrawn", r.WithdrawalResultAmount, "")
	add("fee", r.WithdrawalResultFeeAmount, "")
	add("out", r.DestinationResultAdjustedProceeds, r.ReceivedCurrency)
	if r.VenueID != "" && len(parts) > 0 {
		parts = append(parts, "venue "+sanitize.Line(r.VenueID))
	}
	return strings.Join(parts, " · ")
}
