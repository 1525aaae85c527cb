package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"treasury/ui/sanitize"
)

// bodyTop is the first line of the view's body: two header lines and the
// tabs above it.
const bodyTop = 3

// mouse handles the mouse (profile setting mouse: true): a click on a tab
// opens it, a click on a breadcrumb goes back to it, the wheel scrolls and
// a click in the body goes to the view with Y counted from the body's top.
func (a *App) mouse(msg tea.MouseMsg) tea.Cmd {
	if c, ok := msg.(tea.MouseClickMsg); ok && a.overlayKind() == confirmOverlay && c.Button == tea.MouseLeft {
		return a.clickDialog(c.X, c.Y)
	}
	if a.top() != nil {
		return nil
	}
	switch msg := msg.(type) {
	case tea.MouseClickMsg:
		if msg.Y == bodyTop-1 && msg.Button == tea.MouseLeft {
			return a.clickTabs(msg.X)
		}
		if msg.Y >= bodyTop {
			msg.Y -= bodyTop
			return a.send(a.Active(), msg)
		}
	case tea.MouseWheelMsg:
		if msg.Y >= bodyTop {
			msg.Y -= bodyTop
			return a.send(a.Active(), msg)
		}
	}
	return nil
}

// clickDialog presses the dialog's button drawn at column x of line y, as
// the keys would: its focus, then enter. The action runs only as enter on
// it would (every field it needs filled, the typed code in production).
// Only the button row the dialog draws counts: a record's text that
// reads "Cancel" or the action's name is no button.
func (a *App) clickDialog(x, y int) tea.Cmd {
	d := a.shownDialog()
	if d == nil {
		return nil
	}
	lines := strings.Split(ansi.Strip(a.Frame()), "\n")
	if y < 0 || y >= len(lines) {
		return nil
	}
	line := lines[y]
	// within reports whether x falls on part (a button, drawn from byte
	// from of the line).
	within := func(from int, part string) bool {
		col := lipgloss.Width(line[:from])
		return x >= col && x < col+lipgloss.Width(part)
	}
	enter := tea.KeyPressMsg{Code: tea.KeyEnter}
	switch d.state {
	case done:
		button := ansi.Strip(d.closeButton())
		if i := strings.Index(line, button); i >= 0 && within(i, button) {
			return a.key(enter)
		}
		return nil
	case asking:
	default:
		return nil // the call runs: nothing to press
	}
	cancel := ansi.Strip(d.button("Cancel", d.focused() == fieldCancel, true, false))
	row := ansi.Strip(d.buttonRow())
	i := strings.Index(line, row)
	if i < 0 {
		return nil // not the buttons' line
	}
	switch {
	case within(i, cancel):
		d.setFocus(d.indexOf(fieldCancel))
	case within(i+len(cancel)+2, row[len(cancel)+2:]):
		d.setFocus(d.indexOf(fieldConfirm))
	default:
		return nil
	}
	return a.key(enter)
}

// clickTabs opens the tab at column x, or goes back to the breadcrumb there.
func (a *App) clickTabs(x int) tea.Cmd {
	t := a.ctx.Theme
	form := a.tabForm(lipgloss.Width(a.tabTrail()))
	col := 0
	for i, v := range a.views {
		style := t.Tab
		if i == a.active {
			style = t.TabActive
		}
		w := lipgloss.Width(style.Render(a.tabLabel(i, v, form)))
		if x >= col && x < col+w {
			return a.switchTo(i)
		}
		col += w
	}
	// The trail: "  view › crumb › crumb"; a click on a crumb pops the
	// pages above it (the view's name: back to its root).
	col += 2
	crumbs := append([]string{string(a.Active().Name())}, a.Active().Crumbs()...)
	for i, c := range crumbs {
		w := lipgloss.Width(sanitize.Line(c))
		if x >= col && x < col+w {
			a.links = nil // the operator's own way now
			for len(a.Active().Crumbs()) > i && a.Active().Back() {
			}
			a.watch()
			return a.send(a.Active(), StoreChanged{})
		}
		col += w + len(" › ")
	}
	return nil
}
