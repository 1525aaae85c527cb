package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"
)

// The shell's own keys, past the overlays (App.key): what each does.

// jump opens the view of a number key, or of a letter past the ninth.
func (a *App) jump(msg tea.KeyPressMsg) tea.Cmd {
	if i, ok := a.letters[msg.String()]; ok {
		return a.switchTo(i)
	}
	return a.switchTo(int(msg.Code - '1'))
}

// back (esc) clears the marks, else returns through the link that opened
// the view, else goes back a page, else clears the filter.
func (a *App) back() tea.Cmd {
	if m, ok := As[Marker](a.Active()); ok && m.Marks() > 0 {
		a.setFlash(Flash{Text: marksCleared(m.ClearMarks())})
		return nil
	}
	if l, ok := a.returnLink(); ok {
		return a.goBack(l)
	}
	if !a.Active().Back() {
		if k, ok := a.Active().(FilterKeeper); ok && k.KeepsFilter() {
			return nil // a saved search: its search is the tab
		}
		if FilterOf(a.Active()) != "" {
			cmd := SetFilterOf(a.Active(), "")
			a.watch()
			return cmd
		}
		return nil
	}
	a.watch()
	// The page shown now is read afresh (and a view whose Back changed
	// what it lists runs what that needs).
	return a.send(a.Active(), StoreChanged{})
}

// refresh (r) asks the store for the active view's topics now, and the
// view for its page's own reads; paused, the news it brings is shown once.
func (a *App) refresh() tea.Cmd {
	if a.ctx.Store != nil {
		for _, t := range a.Active().Topics() {
			a.ctx.Store.Refresh(t)
		}
	}
	text := "refreshing"
	if a.paused() {
		a.pause.once = true // the news this brings is shown, once
		text = "refreshing once: still paused (p resumes)"
	}
	a.setFlash(Flash{Text: text})
	cmd := a.send(a.Active(), Refresh{}) // a page's own reads (a report, a wallet's limits) load again
	a.watch()
	return cmd
}

// pauseKey (p) holds what the session shows, or resumes.
func (a *App) pauseKey() tea.Cmd {
	a.togglePause()
	if !a.paused() {
		return a.send(a.Active(), StoreChanged{})
	}
	a.setFlash(Flash{Text: "paused: what this session shows holds until p (r refreshes once)"})
	return nil
}

// marksCleared says that n marks were dropped, and that nothing was sent.
func marksCleared(n int) string {
	if n == 1 {
		return "1 mark cleared: nothing was sent"
	}
	return fmt.Sprintf("%d marks cleared: nothing was sent", n)
}
