package ui

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// The help (?) filters as a table does: / types words, and the help
// shows only the keys and the explanations that hold every one of them
// (case aside), under their section; enter keeps the filter, esc clears
// it (a second esc closes the help). It scrolls as the whole help does.

// helpFilter is the help's filter: its input and whether it is typed.
type helpFilter struct {
	input  textinput.Model
	typing bool
}

// helpKey is a key while the help is open: the filter's while it is
// typed, else its keys (/ filter, esc clear then close), the close keys,
// or the pager's.
func (a *helpLayer) helpKey(msg tea.KeyPressMsg) tea.Cmd {
	f := &a.helpFilter
	if f.typing {
		switch {
		case key.Matches(msg, a.keys.FilterKeep):
			f.typing = false
			f.input.Blur()
		case key.Matches(msg, a.keys.FilterClear):
			a.clearHelpFilter()
		default:
			var cmd tea.Cmd
			f.input, cmd = f.input.Update(msg)
			a.helpTop = 0
			return cmd
		}
		return nil
	}
	switch {
	case key.Matches(msg, a.keys.Filter):
		if f.input.Value() == "" {
			f.input = NewInput(a.ctx.Theme, "/", 80, lipgloss.NewStyle())
		}
		f.typing = true
		return f.input.Focus()
	case key.Matches(msg, a.keys.Back) && f.input.Value() != "":
		a.clearHelpFilter()
	case key.Matches(msg, a.keys.Back, a.keys.Help, a.keys.Close):
		a.pop()
	default:
		a.scrollHelp(msg)
	}
	return nil
}

// pasteHelp types pasted text into the help's filter while it is typed.
func (a *helpLayer) pasteHelp(msg tea.PasteMsg) tea.Cmd {
	if !a.helpFilter.typing {
		return nil
	}
	var cmd tea.Cmd
	a.helpFilter.input, cmd = a.helpFilter.input.Update(msg)
	a.helpTop = 0
	return cmd
}

// clearHelpFilter drops the help's filter: the whole help again.
func (a *helpLayer) clearHelpFilter() {
	a.helpFilter = helpFilter{}
	a.helpTop = 0
}

// helpQuery is the help's filter as typed, trimmed.
func (a *helpLayer) helpQuery() string { return strings.TrimSpace(a.helpFilter.input.Value()) }

// helpFiltered is the help's lines that hold every word of q: each
// binding of the view's and the shell's as "key  what it does" under its
// section, and each paragraph of the view's explanation of its figures
// (wrapped to w) that holds them; what matched is counted.
func (a *helpLayer) helpFiltered(q string, w int) []string {
	t := a.ctx.Theme
	words := strings.Fields(strings.ToLower(q))
	holds := func(s string) bool {
		s = strings.ToLower(ansi.Strip(s))
		return !slices.ContainsFunc(words, func(w string) bool { return !strings.Contains(s, w) })
	}
	var out []string
	n, all := 0, 0
	section := func(title string, bs []key.Binding) {
		var lines []string
		width := 0
		for _, b := range bs {
			if b.Enabled() {
				width = max(width, ansi.StringWidth(b.Help().Key))
			}
		}
		for _, b := range bs {
			if !b.Enabled() {
				continue
			}
			all++
			h := b.Help()
			if holds(h.Key + " " + h.Desc) {
				lines = append(lines, "  "+h.Key+strings.Repeat(" ", width-ansi.StringWidth(h.Key))+"  "+t.Muted.Render(h.Desc))
			}
		}
		if len(lines) > 0 {
			n += len(lines)
			out = append(out, t.Title.Render(title))
			out = append(out, lines...)
			out = append(out, "")
		}
	}
	section("Keys — "+a.Active().Title(), slices.Concat(a.Active().Keys(), a.commandBindings()))
	section("Everywhere", a.keys.List())
	if ex, ok := a.Active().(Explainer); ok {
		var lines []string
		for _, p := range ex.Explain() {
			all++
			if holds(p) {
				n++
				lines = append(lines, strings.Split(indent(ansi.Wrap(p, max(w-2, 10), " ")), "\n")...)
			}
		}
		if len(lines) > 0 {
			out = append(append(out, t.Title.Render("How its figures are computed")), lines...)
			out = append(out, "")
		}
	}
	head := fmt.Sprintf("help matching %q: %d of %d", q, n, all)
	if n == 0 {
		head = fmt.Sprintf("help: nothing matches %q (of %d keys and explanations)", q, all)
	}
	return append([]string{t.Muted.Render(head), ""}, out...)
}

// helpFilterLine is the help's last line while it filters or is
// filtered: the input, or the filter kept and how to change it.
func (a *helpLayer) helpFilterLine(w int) string {
	f := a.helpFilter
	if f.typing {
		return ansi.Truncate(f.input.View()+a.ctx.Theme.Muted.Render("  "+a.keys.FilterKeep.Help().Key+" keeps · "+
			a.keys.FilterClear.Help().Key+" clears"), w, "…")
	}
	return ""
}
