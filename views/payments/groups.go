package paymentsview

import (
	"fmt"
	"strconv"
	"time"

	tea "charm.land/bubbletea/v2"

	"treasury/data/live"
	"treasury/data/payments"
	"treasury/data/paystats"
	"treasury/ui/sanitize"
	"treasury/ui/table"
	"treasury/views/viewkit"
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
			// Whole: "(reason being read)" as a code of the platform's.
			{Title: "Reason code", Max: len(noCode) + 5, Priority: 9}, {Title: "Payments", Align: table.Right, Priority: 8},
			{Title: "Retry", Max: len("UNKNOWN"), Priority: 6},
			{Title: "Last initiated (UTC)", Width: 20, Priority: 5}, {Title: "Title", Width: 20, Flex: 1, Priority: 7},
		},
		Topics: []live.Topic{live.Payments, key.Topic()},
		Enter:  func(g codeGroup) tea.Cmd { return v.Push(v.codePage(g.Code)) },
		Above:  func(w, h int, _ *codeGroup) string { return v.above(w, h, nil) }, AboveShare: 0.3,
		Empty: "no " + v.scope.Label() + " payments in the last " + windowWord(v.window),
		What:  v.scope.Label() + " payments",
		// A reason's code ("" for payments whose reason is still being
		// read), its count, the retry verdict of its payments, when its
		// newest payment was initiated (RFC 3339 UTC).
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
	group := code
	if code == noCode {
		group = ""
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
		Group:  group,
	})
}
