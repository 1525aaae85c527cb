package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"
)

// open jumps to a view (the palette): where the operator was is forgotten,
// and so is the filter typed there: a command shows its listing afresh,
// as a command does in k9s (":payments inflight" after a filter on
// ":payments all" showed a scope filtered by a word no longer typed), with
// the filter its arguments set, if any. The scope keys, the window and
// the sort keep the filter: they change the page it is shown on, whose
// footer says it.
func (a *App) open(o Open) tea.Cmd {
	a.links = nil
	var cmd tea.Cmd
	for _, v := range a.views {
		if v.Name() != o.View {
			continue
		}
		for v.Back() {
		}
		if FilterOf(v) != "" {
			cmd = SetFilterOf(v, "")
		}
	}
	return tea.Batch(cmd, a.show(o))
}

// follow opens a view from another (a view's link: a ledger row's payment,
// an alert's record, the errors of a failed page): esc on the page it
// opens comes back. An Open of the view shown (a palette command's
// arguments, a view's link to itself) is no link.
func (a *App) follow(o Open) tea.Cmd {
	from := a.active
	cmd := a.show(o)
	if a.active != from {
		if len(a.links) == maxLinks {
			a.links = append(a.links[:0], a.links[1:]...)
		}
		a.links = append(a.links, link{from: from, to: a.active, crumbs: len(a.Active().Crumbs())})
	}
	return cmd
}

// returnLink is the link that opened the page shown, if esc there goes
// back through it: the operator has not gone deeper than the page it
// opened.
func (a *App) returnLink() (link, bool) {
	if len(a.links) == 0 {
		return link{}, false
	}
	l := a.links[len(a.links)-1]
	return l, l.to == a.active && len(a.Active().Crumbs()) <= l.crumbs
}

// goBack follows the link that opened the page shown back to the view it
// came from. The page the link opened closes, with what the link did to
// the view (its pages, or the filter it set at the root), so that the view
// shows no more the record nobody is looking at when it is shown again.
func (a *App) goBack(l link) tea.Cmd {
	a.links = a.links[:len(a.links)-1]
	v := a.Active()
	var cmd tea.Cmd
	popped := false
	for v.Back() {
		popped = true
	}
	if !popped && FilterOf(v) != "" {
		cmd = SetFilterOf(v, "")
	}
	a.active = l.from
	cmd = tea.Batch(cmd, a.send(a.Active(), StoreChanged{})) // views not shown are not kept current
	a.watch()
	return cmd
}

func (a *App) show(o Open) tea.Cmd {
	for i, v := range a.views {
		if v.Name() == o.View {
			a.active = i
			a.closeOverlays()
			cmd := a.send(v, o)
			a.watch()
			return cmd
		}
	}
	a.setFlash(Flash{Err: fmt.Errorf("no view named %q", o.View)})
	return nil
}

func (a *App) switchTo(i int) tea.Cmd {
	if i == a.active {
		// The view's own number: back to its list from any drill-down.
		a.links = nil
		moved := false
		for a.Active().Back() {
			moved = true
		}
		if !moved {
			return nil
		}
		a.watch()
		return a.send(a.Active(), StoreChanged{})
	}
	if i < 0 || i >= len(a.views) {
		return nil
	}
	a.links = nil
	a.active = i
	cmd := a.send(a.Active(), StoreChanged{}) // views not shown are not kept current
	a.watch()
	return cmd
}
