package reports

import (
	"strconv"

	tea "charm.land/bubbletea/v2"

	"treasury/desk/live"
	"treasury/figures/columns"
	"treasury/kit/words"
	"treasury/ui/sanitize"
	"treasury/ui/table"
	"treasury/views/viewkit"
	"treasury/wire/reporting"
)

// opsRec is a PAYMENT_OPS row with an id unique in its report (the
// network payment id, with its position when it repeats or is empty).
type opsRec struct {
	id string
	reporting.PaymentOpsRow
}

// uniqueIDs gives each row an id: its key, or key#n when the key is empty
// or already taken.
func uniqueIDs(n int, keyOf func(i int) string) []string {
	seen := make(map[string]bool, n)
	out := make([]string, n)
	for i := range n {
		k := keyOf(i)
		if k == "" || seen[k] {
			k += "#" + strconv.Itoa(i+1)
		}
		seen[k] = true
		out[i] = k
	}
	return out
}

// newOpsPage is a PAYMENT_OPS report: one row per payment; enter shows a
// row's every field.
func newOpsPage(p *reportPage) *viewkit.TablePage[opsRec] {
	rows := p.dl.Rows.PaymentOps
	ids := uniqueIDs(len(rows), func(i int) string { return rows[i].NetworkPaymentID })
	recs := make([]opsRec, len(rows))
	for i := range rows {
		recs[i] = opsRec{ids[i], rows[i]}
	}
	t := p.v.ctx.Theme
	set := columns.ReportOps() // as `treasury get report` prints them
	return viewkit.NewOwnTable(p.v.ctx, viewkit.TableSpec[opsRec]{
		Columns: viewkit.Columns(set),
		Enter: func(r opsRec) tea.Cmd {
			return p.v.Stack.Push(rowDetail(p, r.id, &r.PaymentOpsRow, r.Extra))
		},
		Above: func(w, h int, _ *opsRec) string {
			return p.above(w, h, t.Bold.Render(words.Count(len(recs), "payment")))
		},
		AboveShare: 0.2,
		Export:     opsExport,
		Empty:      p.empty(),
	}, viewkit.Own[opsRec]{
		Read: func() ([]opsRec, live.Snapshot) { return recs, p.snapshot() },
		Row:  func(r opsRec) table.Row { return viewkit.RowOf(set, r.id, &r.PaymentOpsRow, columns.At{}) },
	})
}

// rowDetail shows every field of a report row (PAYMENT_OPS row or RECON
// line) by its wire name, then its extra columns.
func rowDetail[T row](p *reportPage, id string, rec T, extra []reporting.Field) *viewkit.DetailPage[T] {
	return viewkit.NewDetailPage(p.v.ctx, viewkit.DetailSpec[T]{
		Crumb:  viewkit.Short(sanitize.Line(id), 12),
		Get:    func() (T, bool, live.Snapshot) { return rec, true, p.snapshot() },
		ID:     func(T) string { return id },
		Body:   func(r T, w int) string { return kv(p.v.ctx.Theme, fields(r, extra), w) },
		Fields: func(r T) [][2]string { return fields(r, extra) },
	})
}
