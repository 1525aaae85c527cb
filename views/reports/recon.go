package reports

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"treasury/desk/live"
	"treasury/figures/columns"
	"treasury/kit/words"
	"treasury/ui/sanitize"
	"treasury/ui/table"
	"treasury/views/viewkit"
	"treasury/wire/reporting"
)

// balanceChange is a payment's balance changes per currency, in the order
// first seen.
func balanceChange(t reporting.ReconTotals) string {
	parts := make([]string, 0, len(t.BalanceChangeCurrency))
	for _, c := range t.BalanceChangeCurrency {
		parts = append(parts, viewkit.Amount(t.BalanceChange[c], c))
	}
	return viewkit.Dash(strings.Join(parts, ", "))
}

// newReconPage is a RECON report grouped per payment: a row per payment
// with the totals of its lines, a totals line above; enter shows the
// payment's lines.
func newReconPage(p *reportPage) *viewkit.TablePage[reporting.ReconPayment] {
	groups := reporting.GroupRecon(p.dl.Rows.Recon)
	incomplete, mismatched := 0, 0
	for _, g := range groups {
		if !g.Totals.AllComplete() {
			incomplete++
		}
		if len(g.Mismatch) > 0 {
			mismatched++
		}
	}
	t := p.v.ctx.Theme
	return viewkit.NewOwnTable(p.v.ctx, viewkit.TableSpec[reporting.ReconPayment]{
		Columns: []table.Column{
			{Title: "Network payment id", Width: 12, Flex: 2}, {Title: "State", Width: 10},
			{Title: "Sent", Width: 16, Align: table.Right, Flex: 1}, {Title: "Received", Width: 16, Align: table.Right, Flex: 1},
			{Title: "Balance change", Width: 18, Flex: 1}, {Title: "Lines", Width: 5, Align: table.Right},
			{Title: "Check", Width: 8}, {Title: "Fees", Width: 10, Align: table.Right},
		},
		Enter: func(g reporting.ReconPayment) tea.Cmd { return p.v.Stack.Push(newLinesPage(p, g)) },
		Above: func(w, h int, _ *reporting.ReconPayment) string {
			counts := t.Bold.Render(words.Count(len(groups), "payment") + ", " + words.Count(len(p.dl.Rows.Recon), "line"))
			totals := fmt.Sprintf("totals: %s with every line COMPLETE, %d with open lines, %d with mismatched payment fields",
				words.Count(len(groups)-incomplete, "payment"), incomplete, mismatched)
			return p.above(w, h, counts, ansi.Truncate(t.Muted.Render(totals), w, "…"))
		},
		AboveShare: 0.2,
		Export:     reconExport,
		Empty:      p.empty(),
	}, viewkit.Own[reporting.ReconPayment]{
		Read: func() ([]reporting.ReconPayment, live.Snapshot) { return groups, p.snapshot() },
		Row: func(g reporting.ReconPayment) table.Row {
			check := "ok"
			switch {
			case len(g.Mismatch) > 0:
				check = "MISMATCH"
			case !g.Totals.AllComplete():
				check = "open"
			}
			return table.Row{ID: g.NetworkPaymentID, Cells: []string{
				sanitize.Line(g.NetworkPaymentID), viewkit.Dash(sanitize.Line(g.PaymentState)),
				amount(g.SentAmount, g.SentCurrency), amount(g.ReceivedAmount, g.ReceivedCurrency),
				balanceChange(g.Totals), fmt.Sprintf("%d/%d", g.Totals.Complete, g.Totals.Transactions), check,
				g.Totals.Fees().String(),
			}, Keys: []table.Key{{}, {}, numKey(g.SentAmount), numKey(g.ReceivedAmount),
				{}, table.Int(int64(g.Totals.Transactions)), {}, table.Decimal(g.Totals.Fees())}}
		},
	})
}

// reconLine is a RECON line with an id unique in its payment.
type reconLine struct {
	id string
	reporting.ReconRow
}

// newLinesPage shows one payment's RECON lines with its totals above;
// enter shows a line's every field.
func newLinesPage(p *reportPage, g reporting.ReconPayment) *viewkit.TablePage[reconLine] {
	ids := uniqueIDs(len(g.Lines), func(i int) string { return g.Lines[i].TransactionID })
	lines := make([]reconLine, len(g.Lines))
	for i := range g.Lines {
		lines[i] = reconLine{ids[i], g.Lines[i]}
	}
	th := p.v.ctx.Theme
	tot := g.Totals
	set := columns.ReconLines()
	return viewkit.NewOwnTable(p.v.ctx, viewkit.TableSpec[reconLine]{
		Crumb:   viewkit.Short(sanitize.Line(g.NetworkPaymentID), 12),
		Columns: viewkit.Columns(set),
		Enter:   func(l reconLine) tea.Cmd { return p.v.Stack.Push(rowDetail(p, l.id, &l.ReconRow, l.Extra)) },
		Above: func(w, _ int, _ *reconLine) string {
			head := th.Title.Render("payment "+sanitize.Line(g.NetworkPaymentID)) +
				th.Muted.Render(" · "+viewkit.Dash(sanitize.Line(g.PaymentState))+" · sent "+amount(g.SentAmount, g.SentCurrency)+
					" · received "+amount(g.ReceivedAmount, g.ReceivedCurrency))
			totals := fmt.Sprintf("totals: %s (%d COMPLETE) · balance change %s", words.Count(tot.Transactions, "line"), tot.Complete, balanceChange(tot))
			sums := fmt.Sprintf("        withdrawn %s · deposited %s · fees %s · incentives %s",
				tot.WithdrawalAmount, tot.DepositAmount, tot.Fees(), tot.Incentives)
			out := ansi.Truncate(head, w, "…") + "\n" + ansi.Truncate(totals, w, "…") + "\n" + ansi.Truncate(sums, w, "…")
			if len(g.Mismatch) > 0 {
				out += "\n" + ansi.Truncate(th.Bad.Render("lines disagree on: "+strings.Join(g.Mismatch, ", ")), w, "…")
			}
			return out
		},
		AboveShare: 0.3,
		Empty:      "the payment has no lines",
		Export:     reconLinesExport,
	}, viewkit.Own[reconLine]{
		Read: func() ([]reconLine, live.Snapshot) { return lines, p.snapshot() },
		Row:  func(l reconLine) table.Row { return viewkit.RowOf(set, l.id, &l.ReconRow, columns.At{}) },
	})
}
