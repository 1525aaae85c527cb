package viewkit

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"treasury/ui"
)

// A table page's actions: keys that act on the selected record, or on
// the records marked.

// Action is a key that acts on the selected record. Write actions change
// the platform: a read-only session neither shows nor runs them.
type Action[T any] struct {
	Key   key.Binding
	Write bool
	// Run is called with the selected record.
	Run func(rec T) tea.Cmd
	// Refuse, when set, is called instead of Run with a write action's
	// record and why a read-only session refuses it: it records the
	// attempt (Refuse in this package) and says why.
	Refuse func(rec T, err error) tea.Cmd
	// Unavailable, when set, says why the record's state rules the action
	// out ("the transaction is frozen already"), "" when it does not: the
	// action is then not offered (its key is not shown), and its key
	// says why in the footer instead of opening a confirmation.
	Unavailable func(rec T) string
	// Batch, when set, takes the action on the marked records (space
	// marks them): the table then marks, and while any are marked the
	// key takes them all (Batch.Ask), not the record under the cursor;
	// gone are the marked ids the page no longer holds. BatchHelp names
	// it in the footer before the count ("freeze": "freeze 3 marked").
	Batch     func(recs []T, gone []string) tea.Cmd
	BatchHelp string
}

// press is what the action's key does on rec in a session: refused in a
// read-only one, said to be unavailable when rec's state rules it out,
// else run.
func (a Action[T]) press(rec T, readOnly bool) tea.Cmd {
	switch {
	case a.Write && readOnly:
		return a.refuse(rec)
	case a.Unavailable != nil:
		if why := a.Unavailable(rec); why != "" {
			return func() tea.Msg { return ui.Flash{Text: why, Warn: true} }
		}
	}
	return a.Run(rec)
}

// offered reports whether the action's key is shown for rec.
func (a Action[T]) offered(rec T, ok, readOnly bool) bool {
	if a.Write && readOnly {
		return false
	}
	return !ok || a.Unavailable == nil || a.Unavailable(rec) == ""
}

// refuse is what a read-only session does with a write action on rec.
func (a Action[T]) refuse(rec T) tea.Cmd {
	if a.Refuse != nil {
		return a.Refuse(rec, ui.ErrReadOnly)
	}
	return ui.ErrorCmd(ui.ErrReadOnly)
}

// batch is what a's key does with the marked records: refused, each
// recorded, in a read-only session; else a's Batch.
func (p *TablePage[T]) batch(a Action[T]) tea.Cmd {
	recs, gone := p.marked()
	if a.Write && p.ctx.ReadOnly {
		cmds := make([]tea.Cmd, len(recs))
		for i, r := range recs {
			cmds[i] = a.refuse(r)
		}
		return tea.Sequence(cmds...)
	}
	return a.Batch(recs, gone)
}

// marked are the marked records the page holds, in the order shown, and
// the ids of those it no longer holds.
func (p *TablePage[T]) marked() (recs []T, gone []string) {
	for _, id := range p.t.Marked() {
		if r, ok := p.record(id); ok {
			recs = append(recs, r)
		} else {
			gone = append(gone, id)
		}
	}
	return recs, gone
}
