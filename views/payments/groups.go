package paymentsview

import (
	"fmt"
	"strconv"
	"time"

	tea "charm.land/bubbletea/v2"

	"treasury/desk/live"
	"treasury/desk/paystats"
	"treasury/ui/sanitize"
	"treasury/ui/table"
	"treasury/views/viewkit"
	"treasury/wire/payments"
)

// codeGroup is the payments of a scope and window that failed (or were
// declined) for one reason code, shared (paystats).
type codeGroup = paystats.CodeGroup

// noCode names the group of payments whose reason is not known yet.
const noCode = paystats.NoCode

// codeGroups is the groups of a scope and window, counted once per change
// of the payments for every session, most payments first.
func codeGroups(s *live.Store, sc scope, win time.Duration) live.Key[paystats.Groups] {
	return paystats.CodeGroups(s, sc, win)
}

// groupsPage is the root of a grouped scope: its reason codes with counts;
// enter opens the payments of one.
type groupsPage struct {
	*viewkit.TablePage[codeGroup]
	v *View
}

// Crumb names the scope.
func (g groupsPage) Crumb() string { return g.v.scope.Label() + " by reason" }

func (v *View) newGroupsPage() groupsPage {
	key := codeGroups(v.ctx.Store, v.scope, v.window)
	page := viewkit.NewOwnTable(v.ctx, viewkit.TableSpec[codeGroup]{
		Columns: []table.Column{
			// Whole: "(reason not read)" as a code of the platform's.
			{Title: "Reason code", Max: len(noCode) + 5, Priority: 9}, {Title: "Payments", Align: table.Right, Priority: 8},
			{Title: "Retry", Max: len("UNKNOWN"), Priority: 6},
			{Title: "Last initiated (UTC)", Width: 20, Priority: 5}, {Title: "Title", Width: 20, Flex: 1, Priority: 7},
		},
		Topics: []live.Topic{live.Payments, key.Topic()},
		Enter:  func(g codeGroup) tea.Cmd { return v.Push(v.codePage(g.Code)) },
		Above:  func(w, h int, _ *codeGroup) string { return v.above(w, h, nil) }, AboveShare: 0.3,
		Empty: "no " + v.scope.Label() + " payments in the last " + windowWord(v.window),
		What:  v.scope.Label() + " payments",
		// A reason's code ("" for payments whose reason is not read), its
		// count, the retry verdict of its payments, when its newest
		// payment was initiated (RFC 3339 UTC).
		Export: &viewkit.Export[codeGroup]{
			Header: []string{"reason_code", "payments", "retry", "last_initiated_at", "title"},
			Row: func(g codeGroup) []string {
				code := g.Code
				if code == noCode {
					code = ""
				}
				return []string{code, strconv.Itoa(g.Count), g.Retry.Word(), viewkit.ISO(g.Newest), g.Title}
			},
		},
	}, viewkit.Own[codeGroup]{
		Read: func() ([]codeGroup, live.Snapshot) {
			g := live.Get(v.ctx.Store, key)
			return g.Data.List, g.Snapshot
		},
		Row: func(g codeGroup) table.Row {
			return table.Row{ID: g.Code, Cells: []string{sanitize.Line(g.Code), fmt.Sprint(g.Count), g.Retry.Word(), viewkit.Time(g.Newest),
				sanitize.Line(viewkit.Dash(g.Title))},
				Keys: []table.Key{{}, table.Int(int64(g.Count)), {}, table.Time(g.Newest)}}
		},
	})
	return groupsPage{page, v}
}

// codePage is the payments of the scope that failed for one reason code:
// the scope's shared rows, of that group.
func (v *View) codePage(code string) *viewkit.TablePage[*payments.Payment] {
	if code == noCode {
		return v.unreadPage()
	}
	return viewkit.NewSharedTable(v.ctx, viewkit.TableSpec[*payments.Payment]{
		Crumb:   sanitize.Line(code),
		Columns: columns(),
		Topics:  []live.Topic{live.Payments},
		// Not live: payments join the group as their reasons are read,
		// not only as they fail; the cursor keeps its payment.
		Enter:  func(p *payments.Payment) tea.Cmd { return v.Push(newDetailPage(v, p.PaymentID)) },
		Empty:  "no payment with this reason any more",
		What:   "payments",
		Export: paymentsExport,
	}, viewkit.Shared[*payments.Payment]{
		Source: scopeRows(v.ctx.Store, v.scope, v.window),
		Group:  code,
	})
}

// unreadPage is the payments of the scope whose reason was not read when
// it opened, newest first, as the store holds them now: those shown are
// read by id (wantShown) and show their code where they stand, without
// leaving the list (which would bring the next ones into view to be read,
// and so on through the whole group). What is read is what is shown, as
// the page is scrolled.
func (v *View) unreadPage() *viewkit.TablePage[*payments.Payment] {
	var ids []string
	ps, since := live.Get(v.ctx.Store, live.PaymentsKey).Data, v.now().Add(-v.window)
	for i := ps.Len() - 1; i >= 0; i-- { // newest first
		p := ps.At(i)
		if p.When().Before(since) {
			break
		}
		if v.scope.Match(p) && paystats.GroupCode(p) == noCode {
			ids = append(ids, p.PaymentID)
		}
	}
	build := rowBuilder()
	return viewkit.NewOwnTable(v.ctx, viewkit.TableSpec[*payments.Payment]{
		Crumb:   noCode,
		Columns: columns(),
		Topics:  []live.Topic{live.Payments},
		Enter:   func(p *payments.Payment) tea.Cmd { return v.Push(newDetailPage(v, p.PaymentID)) },
		Empty:   "no payment of this scope was without its reason when listed",
		What:    "payments",
		Export:  paymentsExport,
		Shown:   v.wantShown,
	}, viewkit.Own[*payments.Payment]{
		Read: func() ([]*payments.Payment, live.Snapshot) {
			got := live.Get(v.ctx.Store, live.PaymentsKey)
			out := make([]*payments.Payment, 0, len(ids))
			for _, id := range ids {
				if p, ok := got.Data.Get(id); ok {
					out = append(out, p)
				}
			}
			return out, got.Snapshot
		},
		Row: func(p *payments.Payment) table.Row { return build(p, v.now()) },
	})
}
