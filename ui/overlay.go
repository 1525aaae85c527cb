package ui

import (
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// overlayKind names an overlay, for the few places that ask which one is
// shown (the footer's filter input, a click on a dialog, the tests).
type overlayKind int

const (
	noOverlay overlayKind = iota
	paletteOverlay
	helpOverlay
	rawOverlay
	confirmOverlay
	filterOverlay
	columnsOverlay
)

// An overlay is what the shell shows over the active view, and what takes
// the keys while it is open: the palette (palette.go), the help
// (helpLayer), a raw record or a text to read (rawPager), a confirmation
// (dialog), the filter's input (filterLayer), the column picker
// (columnPicker). Each keeps its own state. They are on one stack
// (App.overlays): the top one takes the keys and pastes and draws the
// body; closing it shows the one under it.
type overlay interface {
	kind() overlayKind
	onKey(a *App, msg tea.KeyPressMsg) tea.Cmd
	onPaste(a *App, msg tea.PasteMsg) tea.Cmd
	// draw is the body in w×h.
	draw(a *App, w, h int) string
}

// top is the overlay shown, or nil.
func (a *App) top() overlay {
	if len(a.overlays) == 0 {
		return nil
	}
	return a.overlays[len(a.overlays)-1]
}

// overlayKind is the kind of the overlay shown (noOverlay for none).
func (a *App) overlayKind() overlayKind {
	if o := a.top(); o != nil {
		return o.kind()
	}
	return noOverlay
}

// topOf is the overlay shown when it is a T.
func topOf[T overlay](a *App) (T, bool) {
	t, ok := a.top().(T)
	return t, ok
}

// push shows o over what is shown; it takes the place of an overlay of
// its kind on top (a command's output over the last one's).
func (a *App) push(o overlay) {
	if t := a.top(); t != nil && t.kind() == o.kind() {
		a.overlays = a.overlays[:len(a.overlays)-1]
	}
	a.overlays = append(a.overlays, o)
}

// pop closes the overlay shown: the one under it, if any, is shown again.
func (a *App) pop() {
	if len(a.overlays) > 0 {
		a.overlays[len(a.overlays)-1] = nil
		a.overlays = a.overlays[:len(a.overlays)-1]
	}
}

// closeOverlays closes every overlay: the view itself is shown.
func (a *App) closeOverlays() {
	clear(a.overlays)
	a.overlays = a.overlays[:0]
}

// dialogs are the confirmations on the stack, shown or under another
// overlay.
func (a *App) dialogs() []*dialog {
	var out []*dialog
	for _, o := range a.overlays {
		if d, ok := o.(*dialog); ok {
			out = append(out, d)
		}
	}
	return out
}

// shownDialog is the confirmation dialog on screen, or nil.
func (a *App) shownDialog() *dialog {
	d, _ := topOf[*dialog](a)
	return d
}

// shownRaw is the raw record's (or a text's) pager on screen, or nil.
func (a *App) shownRaw() *rawPager {
	r, _ := topOf[*rawPager](a)
	return r
}

// The dialog as an overlay: its keys, its paste, drawn centred.
func (d *dialog) kind() overlayKind { return confirmOverlay }

func (d *dialog) onKey(a *App, msg tea.KeyPressMsg) tea.Cmd {
	cmd, closed := d.update(msg)
	if closed {
		a.pop()
		if d.state == running || d.state == settling {
			a.background = append(a.background, d)
		}
	}
	return cmd
}

func (d *dialog) onPaste(_ *App, msg tea.PasteMsg) tea.Cmd { return d.paste(msg) }

func (d *dialog) draw(_ *App, w, h int) string {
	return lipgloss.Place(w, h, lipgloss.Center, lipgloss.Center, d.view(w, h), lipgloss.WithWhitespaceChars(" "))
}

// removeDialog takes d off the stack, wherever it is.
func (a *App) removeDialog(d *dialog) {
	a.overlays = slices.DeleteFunc(a.overlays, func(o overlay) bool { return o == overlay(d) })
}

// The palette as an overlay.
func (p *palette) kind() overlayKind                           { return paletteOverlay }
func (p *palette) onKey(_ *App, msg tea.KeyPressMsg) tea.Cmd   { return p.update(msg) }
func (p *palette) onPaste(_ *App, msg tea.PasteMsg) tea.Cmd    { return p.paste(msg) }
func (p *palette) draw(_ *App, w, h int) string                { return p.view(w, h) }
func (p *columnPicker) kind() overlayKind                      { return columnsOverlay }
func (p *columnPicker) onPaste(*App, tea.PasteMsg) tea.Cmd     { return nil }
func (p *columnPicker) draw(a *App, w, h int) string           { return p.view(a.ctx, w, h) }
func (r *rawPager) kind() overlayKind                          { return rawOverlay }
func (r *rawPager) onPaste(*App, tea.PasteMsg) tea.Cmd         { return nil }
func (r *rawPager) draw(*App, int, int) string                 { return r.view() }
func (f *filterLayer) kind() overlayKind                       { return filterOverlay }
func (f *filterLayer) draw(a *App, w, h int) string            { return a.Active().Render(w, h) }
func (l *helpLayer) kind() overlayKind                         { return helpOverlay }
func (l *helpLayer) draw(_ *App, w, h int) string              { return l.helpView(w, h) }
func (l *helpLayer) onKey(_ *App, msg tea.KeyPressMsg) tea.Cmd { return l.helpKey(msg) }
func (l *helpLayer) onPaste(_ *App, msg tea.PasteMsg) tea.Cmd  { return l.pasteHelp(msg) }

// onKey closes the raw view on its keys, else scrolls it.
func (r *rawPager) onKey(a *App, msg tea.KeyPressMsg) tea.Cmd {
	if key.Matches(msg, a.keys.Back, a.keys.Raw, a.keys.Close) {
		a.pop()
		return nil
	}
	r.update(msg)
	return nil
}

// filterLayer is the filter's input while it is typed (drawn in the
// footer, over the view as it is). replace says the input shows the
// filter set, not yet edited: the first character typed replaces it.
type filterLayer struct{ replace bool }

// openFilter shows the filter set to edit: what is typed first replaces
// it, an editing key (←, ⌫) keeps it to edit; never is a word added to
// one the operator does not see.
func (a *App) openFilter() tea.Cmd {
	if _, ok := As[Filterer](a.Active()); !ok {
		a.setFlash(Flash{Text: "nothing to search here"})
		return nil
	}
	a.filter.SetValue(FilterOf(a.Active()))
	a.filter.CursorEnd()
	a.filter.Focus()
	a.push(&filterLayer{replace: a.filter.Value() != ""})
	return nil
}

func (f *filterLayer) onKey(a *App, msg tea.KeyPressMsg) tea.Cmd {
	replace := f.replace
	f.replace = false
	switch {
	case key.Matches(msg, a.keys.FilterKeep):
		a.pop()
		a.filter.Blur()
		return nil
	case key.Matches(msg, a.keys.FilterClear):
		a.pop()
		a.filter.Blur()
		a.filter.SetValue("")
		return SetFilterOf(a.Active(), "")
	case replace && msg.Text != "":
		a.filter.SetValue("") // typed over the filter shown, as over a selected text
	}
	var cmd tea.Cmd
	a.filter, cmd = a.filter.Update(msg)
	return tea.Batch(cmd, SetFilterOf(a.Active(), a.filter.Value()))
}

func (f *filterLayer) onPaste(a *App, msg tea.PasteMsg) tea.Cmd {
	if f.replace {
		f.replace = false
		a.filter.SetValue("")
	}
	var cmd tea.Cmd
	a.filter, cmd = a.filter.Update(msg)
	return tea.Batch(cmd, SetFilterOf(a.Active(), a.filter.Value()))
}

// confirm opens a confirmation dialog, unless the session is read-only.
// A dialog shown whose action runs goes on in the background.
func (a *App) confirm(msg Confirm) tea.Cmd {
	if a.ctx.ReadOnly {
		if msg.OnCancel != nil {
			return msg.OnCancel(Cancelled{Refused: ErrReadOnly})
		}
		a.setFlash(Flash{Err: ErrReadOnly})
		return nil
	}
	if d := a.shownDialog(); d != nil && (d.state == running || d.state == settling) {
		a.pop()
		a.background = append(a.background, d)
	}
	a.confirms++
	a.push(newDialog(a.ctx, msg, a.confirms))
	// What the footer said before (a read that opened the dialog, the
	// cancel of the one before) gives way to the dialog's keys.
	if a.flash.Err == nil {
		a.flash = Flash{}
	}
	return nil
}

// answered takes a confirmed action's answer: its dialog, shown, waits for
// the view's result; the message goes on to the views.
func (a *App) answered(msg confirmAnswered) tea.Cmd {
	for i, d := range a.background {
		if d.seq == msg.seq {
			a.background = append(a.background[:i:i], a.background[i+1:]...)
			break
		}
	}
	if d := a.shownDialog(); d != nil && d.seq == msg.seq {
		d.answered()
		if msg.msg == nil {
			a.pop()
		}
	}
	if msg.msg == nil {
		return nil
	}
	inner := msg.msg
	return func() tea.Msg { return inner }
}
