package paymentsview

import (
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"treasury/desk/live"
	"treasury/figures"
	"treasury/ui"
	"treasury/ui/sanitize"
	"treasury/views/viewkit"
	"treasury/wire/apierr"
	"treasury/wire/money"
	"treasury/wire/payments"
)

// body draws a payment's detail at width w: record, errors and guidance,
// timeline, ledger and report rows. Every line fits w.
func (d *detail) body(p *payments.Payment, w int) string {
	p = d.best(p)
	t := d.v.ctx.Theme
	var b strings.Builder
	b.WriteString(t.Title.Render("Payment "+sanitize.Line(p.PaymentID)) + "  " + d.stateBadge(p) + "\n")
	if p.Partial {
		b.WriteString(d.partialNotice(w))
	}
	if p.PaymentState.FailedTerminal() {
		b.WriteString("\n" + d.errorSection(p, w))
	}
	b.WriteString("\n" + viewkit.Section(t, "Record") + "\n")
	b.WriteString(kv2(t, w, d.fields(p)...))
	b.WriteString("\n" + d.payout(p, w))
	b.WriteString("\n" + d.timeline(p, w))
	b.WriteString("\n" + d.ledger(p, w))
	b.WriteString("\n" + d.reportRows(p, w))
	return fitLines(b.String(), w)
}

func (d *detail) stateBadge(p *payments.Payment) string {
	t := d.v.ctx.Theme
	st := p.PaymentState
	s := sanitize.Line(string(st))
	switch {
	case st.Terminal():
		return t.Bad.Render(s)
	case st == payments.Completed:
		return t.OK.Render(s)
	case p.QuoteExpired(d.v.now()):
		return t.Warn.Render(s) + t.Bad.Render(expiredMark)
	}
	return t.Warn.Render(s)
}

// unknownYet is the value of a field a partial record does not know yet.
const unknownYet = "not known yet"

// fields are the record's label/value pairs (also what ctrl+s saves). A
// partial record (known only from a webhook notification) says which
// fields it does not know yet instead of showing them empty; a field the
// platform did not send is left out, never shown as a zero.
func (d *detail) fields(p *payments.Payment) [][2]string {
	now := d.v.now()
	o, dst := p.Originator, p.Destination
	internal, corr := o.InternalID, corridor(p)+" via "+dst.Payout
	fee, labels := feesText(p.Fees), strings.Join(p.PaymentLabels, ", ")
	orig := o.OriginatorIdentityNickName + " (" + o.OriginatorIdentityID + ")"
	ben := dst.BeneficiaryIdentityNickName + " (" + dst.BeneficiaryIdentityID + ")"
	instrument := dst.BeneficiaryFinancialInstrumentID
	if p.Partial {
		internal, fee, labels, orig, ben, instrument = unknownYet, unknownYet, unknownYet, unknownYet, unknownYet, unknownYet
		corr = sanitize.Line(o.SourceCurrency) + "→" + sanitize.Line(dst.DestinationCurrency) + ", country and payout " + unknownYet
	}
	initiated := viewkit.Time(p.InitiatedAt) + " UTC"
	state := string(p.PaymentState) + ", for " + ui.Age(now, p.LastStateUpdatedAt)
	switch {
	case p.QuoteExpired(now):
		initiated = "never: the quote expired " + ui.Age(now, p.ExpiresAt) + " ago, unaccepted"
		state = string(p.PaymentState) + " (expired), for " + ui.Age(now, p.LastStateUpdatedAt)
	case p.InitiatedAt.IsZero():
		initiated = "not initiated (a quote not accepted yet)"
	}
	expires := viewkit.Time(p.ExpiresAt) + " UTC"
	if p.PaymentState.Unfinished() && !p.ExpiresAt.IsZero() {
		expires += " (" + ui.Until(now, p.ExpiresAt) + ")"
	}
	out := [][2]string{
		{"paymentId", p.PaymentID},
		{"internalId", internal},
		{"state", state},
		{"initiated", initiated},
		{"last update", viewkit.Time(p.LastStateUpdatedAt) + " UTC (" + ui.Age(now, p.LastStateUpdatedAt) + " ago)"},
		{"expires", expires},
		{"sent", viewkit.Amount(o.SourceAmount.Decimal(), o.SourceCurrency)},
		{"payout", viewkit.Amount(dst.DestinationAmount.Decimal(), dst.DestinationCurrency)},
	}
	if r, ok := p.AdjustedExchangeRate.Get(); ok {
		out = append(out, [2]string{"rate used", "1 " + sanitize.Line(o.SourceCurrency) + " = " + r.AdjustedRate.String() + " " + sanitize.Line(dst.DestinationCurrency)})
	}
	out = append(out, [2]string{"corridor", corr}, [2]string{"fees", fee})
	if len(p.Taxes) > 0 {
		out = append(out, [2]string{"taxes", taxesText(p.Taxes)})
	}
	out = append(out, [2]string{"funding", funding(p, now)})
	out = append(out, [2]string{"labels", labels})
	codes := p.Declared()
	for _, f := range []struct{ label, v string }{{"memo", string(p.PaymentMemo)}, {"purpose", string(codes.PurposeCode)},
		{"source of cash", string(codes.SourceOfCash)}, {"relationship", string(codes.ReceiverRelationship)}} {
		if f.v != "" {
			out = append(out, [2]string{f.label, f.v})
		}
	}
	if td, ok := p.TransactionDetails.Get(); ok {
		if s := strings.Join(nonEmpty(string(td.PaymentProduct), string(td.FlowType), string(td.BusinessUseCase)), " · "); s != "" {
			if td.ThirdPartyPayment {
				s += " · on behalf of a third party"
			}
			out = append(out, [2]string{"category", s})
		}
	}
	return append(out,
		[2]string{"originator", orig},
		[2]string{"beneficiary", ben},
		[2]string{"instrument", instrument},
	)
}

// nonEmpty keeps the strings that are not empty.
func nonEmpty(ss ...string) []string {
	out := ss[:0:0]
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// feesText is each fee with its parts: "2.16 USD (Service fee 1.50,
// Transfer fee 0.66)".
func feesText(fees []payments.FeeSummary) string {
	out := make([]string, 0, len(fees))
	for _, f := range fees {
		s := viewkit.Amount(f.TotalFee.Decimal(), f.FeeCurrency)
		var parts []string
		for _, b := range f.FeeBreakdown {
			parts = append(parts, strings.TrimSpace(string(b.FeeName)+" "+money.Format(b.CalculatedFee.Decimal(), f.FeeCurrency)))
		}
		if len(parts) > 0 {
			s += " (" + strings.Join(parts, ", ") + ")"
		}
		out = append(out, s)
	}
	return strings.Join(out, "; ")
}

// taxesText is each tax with its lines: "0.39 USD (GST 18%)".
func taxesText(taxes []payments.TaxSummary) string {
	out := make([]string, 0, len(taxes))
	for _, x := range taxes {
		s := viewkit.Amount(x.TotalTaxes.Decimal(), x.TaxCurrency)
		var parts []string
		for _, b := range x.TaxBreakdown {
			parts = append(parts, strings.TrimSpace(string(b.TaxName)+" "+b.TaxRate.String()+"%"))
		}
		if len(parts) > 0 {
			s += " (" + strings.Join(parts, ", ") + ")"
		}
		out = append(out, s)
	}
	return strings.Join(out, "; ")
}

// funding says how the payment is funded (figures.FundingWords: the class
// every surface gives it, with the payin it said) and, for one owed just
// in time, how long its due time is from now.
func funding(p *payments.Payment, now time.Time) string {
	s := figures.FundingWords(p, now, func(t time.Time) string { return viewkit.Time(t) + " UTC" })
	if due := p.JITFundingExpiresAt; figures.Owed(p) && !due.IsZero() {
		s += " (" + ui.Until(now, due) + ")"
	}
	return s
}

// payout is what the payout partner reported of the payout (GET
// /v3/payments/{id}): the rail used, when it ran, the tracking references
// a support desk is asked for, the blockchain transaction of a crypto
// payout.
func (d *detail) payout(p *payments.Payment, w int) string {
	t := d.v.ctx.Theme
	var b strings.Builder
	b.WriteString(viewkit.Section(t, "Payout") + t.Muted.Render("  (as the payout partner reports it; GET /v3/payments/{id})") + "\n")
	dst := p.Destination
	var pairs [][2]string
	if dst.DestinationBlockchainNetwork != "" {
		pairs = append(pairs, [2]string{"network", dst.DestinationBlockchainNetwork})
	}
	x, reported := p.PayoutExecutionDetails.Get()
	// The hash is shown once: a tracking reference of the same value
	// (TX_HASH) names it below.
	if h := p.CryptoTransactionHash; h != "" && !slices.ContainsFunc(x.TrackingReferences, func(r payments.TrackingReference) bool { return string(r.Value) == h }) {
		pairs = append(pairs, [2]string{"transaction", h})
	}
	rail := string(x.PaymentRailUsed)
	switch {
	case rail != "" && dst.SelectedPaymentRail != "" && rail != dst.SelectedPaymentRail:
		rail += " (selected " + dst.SelectedPaymentRail + ")"
	case rail == "" && dst.SelectedPaymentRail != "":
		rail = dst.SelectedPaymentRail + " (selected)"
	}
	if rail != "" {
		pairs = append(pairs, [2]string{"rail", rail})
	}
	if !x.PayoutStartTime.IsZero() {
		pairs = append(pairs, [2]string{"started", viewkit.Time(x.PayoutStartTime) + " UTC"})
	}
	if !x.PayoutEndTime.IsZero() {
		pairs = append(pairs, [2]string{"last update", viewkit.Time(x.PayoutEndTime) + " UTC"})
	}
	for _, r := range x.TrackingReferences {
		v := string(r.Value)
		if r.ReferenceType != "" && r.Name() != string(r.ReferenceType) {
			v += "  (" + string(r.ReferenceType) + ")"
		}
		pairs = append(pairs, [2]string{r.Name(), v})
	}
	b.WriteString(kv(t, w, pairs...))
	switch {
	case reported:
	case p.QuoteExpired(d.v.now()):
		b.WriteString(t.Muted.Render("no payout: the quote expired unaccepted") + "\n")
	case !p.Detailed:
		switch part, ok := viewkit.Part(d.v.ctx, d.v3.get().Snapshot, "the payout details", w); {
		case d.v.p.Payments == nil:
			b.WriteString(t.Muted.Render("the payout details cannot be read: the profile has no payments interface") + "\n")
		case !d.v3.started && !d.v3.get().Snapshot.Loaded():
			b.WriteString(t.Muted.Render("loading the payout details…") + "\n")
		case !ok:
			b.WriteString(strings.Join(part, "\n") + "\n")
		}
	case p.PaymentState.Unfinished() && p.PaymentState != payments.Transferring:
		b.WriteString(t.Muted.Render("the payout has not started") + "\n")
	case d.states.get().Snapshot.Loaded() && !d.reached(payments.Transferring):
		b.WriteString(t.Muted.Render("the payout never started (the payment never reached TRANSFERRING)") + "\n")
	default:
		b.WriteString(wrapLines(t.Muted.Render("no payout details reported (the platform gives them for some corridors and partners only)"), w) + "\n")
	}
	return b.String()
}

// reached reports whether the state history read shows st.
func (d *detail) reached(st payments.State) bool {
	for _, h := range d.history() {
		if h.UpdatedTo == st {
			return true
		}
	}
	return false
}

// partialNotice says that the record shown is known only from webhook
// notifications, and how the read of the full record goes: loading, or
// why it failed (the next poll of the payments tries again).
func (d *detail) partialNotice(w int) string {
	t := d.v.ctx.Theme
	lines := []string{wrapLines(t.Warn.Render("Partial record: known only from a webhook notification; the fields “"+unknownYet+"” are being read"), w)}
	const what = "the full record (GET /v3/payments/{id})"
	switch part, ok := viewkit.Part(d.v.ctx, d.v3.get().Snapshot, what, w); {
	case d.v.p.Payments == nil:
		lines = append(lines, t.Muted.Render("the full record cannot be read: the profile has no payments interface"))
	case !d.v3.started && !d.v3.get().Snapshot.Loaded():
		lines = append(lines, t.Muted.Render("loading "+what+"…"))
	case !ok && d.v3.get().Snapshot.Err != nil:
		lines = append(lines, part...)
		lines = append(lines, t.Muted.Render("the next poll of the payments reads it again"))
	default:
		lines = append(lines, part...)
	}
	return strings.Join(lines, "\n") + "\n"
}

// best is the record to show: the one held, or the page's own read by id
// of it when that is of the same state and the one held is a list record
// (which lacks the errors and the payout details).
func (d *detail) best(p *payments.Payment) *payments.Payment {
	f := d.fetched()
	if p.Detailed || f == nil || f == p || f.PaymentID != p.PaymentID || f.PaymentState != p.PaymentState || f.LastStateUpdatedAt.Before(p.LastStateUpdatedAt) {
		return p
	}
	return f
}

// errors are the record's errors; the v3 read's when the record held has
// none (a webhook moved it and the next v3 read brings them).
func (d *detail) errors(p *payments.Payment) []payments.PaymentError {
	if len(p.Errors) > 0 {
		return p.Errors
	}
	if f := d.fetched(); f != nil && f.PaymentID == p.PaymentID && f.PaymentState == p.PaymentState {
		return f.Errors
	}
	return nil
}

func (d *detail) errorSection(p *payments.Payment, w int) string {
	t := d.v.ctx.Theme
	var b strings.Builder
	b.WriteString(t.Bad.Render("Why it is "+sanitize.Line(string(p.PaymentState))) + t.Muted.Render("  (GET /v3/payments/{id})") + "\n")
	errs := d.errors(p)
	if len(errs) == 0 {
		// "No error code" only after the v3 read answered without one:
		// before, the read is loading; when it failed, its error is shown.
		switch part, ok := viewkit.Part(d.v.ctx, d.v3.get().Snapshot, "its errors", w); {
		case p.Detailed:
			// This record is the read by id of this state: nothing more
			// will come.
			b.WriteString(t.Muted.Render("the platform gave no error code") + "\n")
		case d.v.p.Payments == nil:
			b.WriteString(t.Muted.Render("its errors cannot be read: the profile has no payments interface") + "\n")
		case !d.v3.started && !d.v3.get().Snapshot.Loaded():
			b.WriteString(t.Muted.Render("loading its errors…") + "\n")
		case !ok:
			b.WriteString(strings.Join(part, "\n") + "\n")
		default:
			b.WriteString(strings.Join(append(part, t.Muted.Render("the platform gave no error code")), "\n") + "\n")
		}
		b.WriteString(kv(t, w, [2]string{"state", payments.StateMeaning(p.PaymentState)}))
		return b.String()
	}
	for i, e := range errs {
		if i > 0 {
			b.WriteString("\n")
		}
		a := figures.Advise(p.PaymentState, e)
		facts := [][2]string{
			{"code", e.Code + " (" + e.Type + ", class: " + a.Class.String() + ")"},
			{"title", e.Title},
			{"description", e.Description},
			{"at", errorTime(e.Timestamp)},
		}
		advice := [][2]string{{"retry?", a.Retry}, {"what to do", a.Todo}}
		state := [2]string{"state", a.State}
		lw := viewkit.LabelWidth(w, minLabel, append(append(facts, advice...), state)...)
		b.WriteString(viewkit.KVAt(t, w, lw, t.Cell, facts...))
		b.WriteString(viewkit.KVAt(t, w, lw, t.Bold, advice...))
		b.WriteString(viewkit.KVAt(t, w, lw, t.Cell, state))
	}
	if len(errs) > 1 {
		// One verdict for the payment: the errors' answers may differ.
		a := figures.Verdict(p.PaymentState, errs)
		rows := [][2]string{{"verdict", a.Retry}}
		if a.Why != "" {
			rows = append(rows, [2]string{"why", a.Why})
		}
		b.WriteString("\n" + viewkit.KVAt(t, w, viewkit.LabelWidth(w, minLabel, rows...), t.Bold, rows...))
	}
	return b.String()
}

// errorTime is an error's timestamp as every time of the page is written
// (2026-11-27 13:36:09 UTC); one that is not an RFC 3339 time is shown as
// received.
func errorTime(ts string) string {
	at, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(ts))
	if err != nil {
		return ts
	}
	return viewkit.Time(at) + " UTC"
}

// ledger is the payment's ledger trail (figures.TrailOf): whether its
// funds came back, how much and when, and its lines with their times,
// amounts and the available balance each moved, as the ledger holds
// them; a line the ledger names no payment on says how it was tied.
func (d *detail) ledger(p *payments.Payment, w int) string {
	t := d.v.ctx.Theme
	var b strings.Builder
	st := d.v.ctx.Store
	span, own := d.ledgerSpan(p)
	window := "the polled ledger: last 24 h"
	if own {
		window = "read for its dates: " + viewkit.Time(span.From) + " – " + viewkit.Time(span.To) + " UTC"
	}
	b.WriteString(viewkit.Section(t, "Ledger trail") + t.Muted.Render("  (RESERVE, DEBIT by txnReference; RELEASE, CREDIT by amount and time; "+window+")") + "\n")
	if !figures.ReadsLedger(p) {
		tr := figures.TrailOf(p, nil, d.history(), d.v.now())
		return b.String() + kv(t, w, [2]string{"funds", tr.Words(stampUTC)})
	}
	if !st.Has(live.Ledger) {
		return b.String() + t.Muted.Render("the profile has no payments interface to read the ledger from") + "\n"
	}
	got := live.Get(st, live.LedgerKey)
	readTo := st.PlatformTime(apierr.Payments, got.FetchedAt)
	if own {
		got, readTo = d.spanLedger.get(), span.To
		if !d.spanLedger.started {
			return b.String() + t.Muted.Render("reading the ledger of its dates…") + "\n"
		}
	}
	part, ok := viewkit.Part(d.v.ctx, got.Snapshot, "the ledger", w)
	if len(part) > 0 {
		b.WriteString(strings.Join(part, "\n") + "\n")
	}
	if !ok {
		return b.String()
	}
	tr := figures.TrailOf(p, got.Data, d.history(), readTo)
	if tr.Back == figures.BackUnknown && !viewkit.RecordsComplete(got.Snapshot) {
		return b.String() + t.Muted.Render("none among the ledgers read; those named above could not be read") + "\n"
	}
	b.WriteString(kv(t, w, [2]string{"funds", tr.Words(stampUTC)}))
	for _, l := range tr.Lines {
		tx := l.Tx
		line := pad(sanitize.Line(tx.Operation), 8) + " " + pad(viewkit.Amount(tx.Amount.Decimal(), tx.Currency), 16) +
			" available " + money.Format(tx.AvailableBalanceBefore.Decimal(), tx.Currency) + " → " +
			money.Format(tx.AvailableBalanceAfter.Decimal(), tx.Currency)
		if tx.Status != payments.TxnSuccess {
			line += "  " + sanitize.Line(tx.Status) // PENDING, or what else the ledger says
		}
		if l.Tie.ByAmount {
			line += "  (tied by amount and time)"
		}
		b.WriteString(hang(viewkit.Time(tx.CreatedDttm)+"  ", line, w) + "\n")
	}
	return b.String()
}

// stampUTC writes a time as every time of the detail is written.
func stampUTC(at time.Time) string { return viewkit.Time(at) + " UTC" }

// pad left-aligns s in n cells.
func pad(s string, n int) string { return viewkit.PadRight(s, n) }

// minLabel is the least label column of the detail's blocks: blocks
// whose labels are short line up from one section to the next.
const minLabel = 12

// kv is viewkit.KV with values wrapped under their column to width w, the
// label column the block's longest label (minLabel at least).
func kv(t ui.Theme, w int, pairs ...[2]string) string {
	return viewkit.KVAt(t, w, viewkit.LabelWidth(w, minLabel, pairs...), t.Cell, pairs...)
}

// kv2 is kv in two columns where neighbouring values are short enough,
// so a record fits a 120x40 window with its timeline. Both columns and
// the lines of one pair take the label column of the whole block, so
// that every value of the section starts in line.
func kv2(t ui.Theme, w int, pairs ...[2]string) string {
	const gap = 3
	if w < 100 {
		return kv(t, w, pairs...)
	}
	lw := viewkit.LabelWidth(w, minLabel, pairs...)
	half := (w - gap) / 2
	vw := half - lw - 2
	short := func(p [2]string) bool {
		return ansi.StringWidth(sanitize.Line(p[0])) <= lw && ansi.StringWidth(sanitize.Line(p[1])) <= vw
	}
	var b strings.Builder
	for i := 0; i < len(pairs); i++ {
		p := pairs[i]
		if i+1 < len(pairs) && short(p) && short(pairs[i+1]) {
			q := pairs[i+1]
			left := t.Muted.Render(pad(sanitize.Line(p[0]), lw)) + "  " + pad(sanitize.Line(p[1]), vw)
			b.WriteString(left + strings.Repeat(" ", gap) + t.Muted.Render(pad(sanitize.Line(q[0]), lw)) + "  " + sanitize.Line(q[1]) + "\n")
			i++
			continue
		}
		b.WriteString(viewkit.KVAt(t, w, lw, t.Cell, p))
	}
	return b.String()
}

// hang is head then text, the text wrapped to w cells and its further
// lines indented under its first (a timeline's time stands alone in its
// column).
func hang(head, text string, w int) string {
	hw := ansi.StringWidth(head)
	if w-hw < 20 {
		return wrapLines(head+text, w)
	}
	lines := strings.Split(wrapLines(text, w-hw), "\n")
	for i := 1; i < len(lines); i++ {
		lines[i] = strings.Repeat(" ", hw) + lines[i]
	}
	return head + strings.Join(lines, "\n")
}

// fitLines cuts every line of s to w cells.
func fitLines(s string, w int) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, w, "…")
	}
	return strings.Join(lines, "\n")
}
