package paymentsview

import (
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"treasury/desk/live"
	"treasury/figures"
	"treasury/ui/sanitize"
	"treasury/ui/table"
	"treasury/views/viewkit"
	"treasury/wire/apierr"
	"treasury/wire/payments"
)

// The payments owed just in time (:payments owed): every payment held
// awaiting its funds (figures.Owing, the records behind the exposure's
// "owed"), the one due first on top, each with its originator, amount,
// due time on the platform's clock, how long until then or how late, and
// what the record carries to fund it by (its payin, the internalId a
// customer quotes, its memo); above, the exposure's own totals per
// currency, so that what the page sums is what the overview owes.

// owedRowsName names the owed rows.
type owedRowsName struct{}

// owedRows are the rows of the payments owed, shared by every session:
// by due time, the first due first (a payment without one last), each
// built again at the minute its "in"/"late" turns.
func owedRows(s *live.Store) live.Key[viewkit.Projected[*payments.Payment]] {
	return viewkit.Project(s, viewkit.Projection[*live.PaymentSet, *payments.Payment]{
		Name: owedRowsName{}, From: live.PaymentsKey,
		All: func(ps *live.PaymentSet) []*payments.Payment {
			return figures.Owing(func(yield func(*payments.Payment) bool) {
				for i := range ps.Len() {
					if !yield(ps.At(i)) {
						return
					}
				}
			})
		},
		Pick: func(ps *live.PaymentSet, ids map[string]bool) []*payments.Payment {
			out := make([]*payments.Payment, 0, len(ids))
			for id := range ids {
				if p, ok := ps.Get(id); ok {
					out = append(out, p)
				}
			}
			return out
		},
		Keep:  figures.Owed,
		ID:    func(p *payments.Payment) string { return p.PaymentID },
		RowAt: owedRow,
		Given: dueFirst,
		Clock: func(fetched time.Time) time.Time { return s.PlatformTime(apierr.Payments, fetched) },
		// "in 12m" and "late 3m" turn every minute.
		Due: func(p *payments.Payment, now time.Time) time.Time {
			if p.JITFundingExpiresAt.IsZero() {
				return time.Time{}
			}
			return now.Truncate(time.Minute).Add(time.Minute)
		},
		Epoch: day,
	})
}

// noDue sorts after every due time.
var noDue = time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)

// dueFirst orders rows by due time (key 0), the first due first, then by
// payment id.
func dueFirst(a, b *table.Row) int {
	if c := a.Keys[0].Compare(b.Keys[0]); c != 0 {
		return c
	}
	return strings.Compare(a.ID, b.ID)
}

// owedColumns are the owed page's columns.
func owedColumns() []table.Column {
	return []table.Column{
		{Title: "Due (UTC)", Width: 19, Priority: 9},
		{Title: "When", Width: 10, Priority: 9},
		{Title: "Originator", Width: 12, Flex: 2, Priority: 7},
		{Title: "Amount", Max: 22, Align: table.Point, Priority: 9},
		{Title: "Cur", Width: 5, Priority: 9},
		{Title: "Payin", Width: 5, Max: 14, Priority: 6},
		{Title: "Reference", Width: 10, Max: 36, Priority: 7},
		{Title: "Memo", Width: 8, Flex: 1, Priority: 2},
		{Title: "Payment", Width: 12, Max: 36, Priority: 5},
		{Title: "Initiated (UTC)", Width: 19, Priority: 1},
	}
}

// owedRow is a payment owed at now, the platform's time.
func owedRow(p *payments.Payment, now time.Time) table.Row {
	o := p.Originator
	due, key := p.JITFundingExpiresAt, table.Time(noDue)
	dueText, when := "not said", "—"
	if !due.IsZero() {
		dueText, when, key = viewkit.Time(due), figures.DueIn(due, now), table.Time(due)
	}
	orig := o.OriginatorIdentityNickName
	if orig == "" {
		orig = o.OriginatorIdentityID
	}
	row := table.Row{ID: p.PaymentID, Cells: []string{
		dueText, when, sanitize.Line(viewkit.Dash(orig)), figures.Money(o.SourceAmount.Decimal(), o.SourceCurrency), sanitize.Line(o.SourceCurrency),
		sanitize.Line(viewkit.Dash(o.Payin)), sanitize.Line(viewkit.Dash(o.InternalID)), sanitize.Line(viewkit.Dash(string(p.PaymentMemo))),
		sanitize.Line(p.PaymentID), viewkit.Time(p.InitiatedAt),
	}, Keys: []table.Key{key, key, {}, table.Decimal(o.SourceAmount.Decimal()), {}, {}, {}, {}, {}, table.Time(p.InitiatedAt)}}
	row.Fields = searchFields(p)
	if figures.PastDue(p, now) {
		row.Group = "late"
	}
	return row
}

// owedPage is the root of the owed scope.
type owedPage struct {
	*viewkit.TablePage[*payments.Payment]
	v *View
}

// Crumb names the scope.
func (o owedPage) Crumb() string { return "owed just in time" }

func (v *View) newOwedPage() owedPage {
	page := viewkit.NewSharedTable(v.ctx, viewkit.TableSpec[*payments.Payment]{
		Columns:    owedColumns(),
		Topics:     []live.Topic{live.Payments, v.exposure.Topic()},
		Enter:      func(p *payments.Payment) tea.Cmd { return v.Push(newDetailPage(v, p.PaymentID)) },
		Above:      v.owedAbove,
		AboveShare: 0.3,
		Empty:      "no payment awaits its funds just in time",
		What:       "payments owed just in time",
		Export:     v.owedExport(),
	}, viewkit.Shared[*payments.Payment]{Source: owedRows(v.ctx.Store)})
	return owedPage{page, v}
}

// owedAbove is the scope line and the exposure's owed per currency: its
// totals, how many are past due, the first due, what is due within the
// hour (paystats.Exposure, the overview's own figures).
func (v *View) owedAbove(w, h int, sel **payments.Payment) string {
	lines := v.headLines(w)
	t := v.ctx.Theme
	ex := live.Get(v.ctx.Store, v.exposure)
	switch {
	case !ex.Loaded() || !ex.Data.Payments:
		lines = append(lines, t.Muted.Render("owed: reading the payments…"))
	case len(ex.Data.Items().Owed) == 0:
		lines = append(lines, t.Muted.Render("owed: nothing: no payment awaits its funds"))
	default:
		lines = append(lines, viewkit.FitGroups(t.Muted, []viewkit.ItemGroup{{Label: "owed", Items: ex.Data.Items().Owed}}, 6, w, max(h-len(lines)-1, 1),
			"the Overview, treasury get exposure")...)
	}
	if h-len(lines) >= 1 && sel != nil && *sel != nil {
		p := *sel
		lines = append(lines, fitLines("▸ "+sanitize.Line(p.PaymentID)+"  "+figures.FundingWords(p, v.now(), stampUTC)+
			t.Muted.Render("  "+v.ctx.Key("open").Help().Key+": detail"), w))
	}
	return strings.Join(lines, "\n")
}

// owedExport is the owed page's CSV: the due time and whether it had
// passed at the export (on the platform's clock), the originator, the
// amount apart from its currency, what the record carries to fund it by.
func (v *View) owedExport() *viewkit.Export[*payments.Payment] {
	return &viewkit.Export[*payments.Payment]{
		Header: []string{"jit_funding_expires_at", "past_due", "payment_id", "internal_id", "originator", "originator_id", "source_amount",
			"source_currency", "payin", "memo", "initiated_at"},
		Begin: func() func(p *payments.Payment) []string {
			now := v.now()
			return func(p *payments.Payment) []string {
				o := p.Originator
				return []string{viewkit.ISO(p.JITFundingExpiresAt), strconv.FormatBool(figures.PastDue(p, now)), p.PaymentID, o.InternalID,
					o.OriginatorIdentityNickName, o.OriginatorIdentityID, viewkit.Money(o.SourceAmount.Decimal(), o.SourceCurrency), o.SourceCurrency,
					o.Payin, string(p.PaymentMemo), viewkit.ISO(p.InitiatedAt)}
			}
		},
	}
}
