package ui

import (
	"charm.land/bubbles/v2/textinput"
	"charm.land/lipgloss/v2"
)

// NewInput is a one-line text input styled by the session's theme: the
// prompt in promptStyle, the text as cells are, and a steady cursor drawn
// in the text (a blinking one would redraw the line twice a second for
// nothing on an SSH link).
func NewInput(t Theme, prompt string, limit int, promptStyle lipgloss.Style) textinput.Model {
	in := textinput.New()
	in.Prompt = prompt
	in.CharLimit = limit
	st := textinput.StyleState{Prompt: promptStyle, Text: t.Cell, Placeholder: t.Muted, Suggestion: t.Muted}
	in.SetStyles(textinput.Styles{Focused: st, Blurred: st, Cursor: textinput.CursorStyle{Blink: false}})
	return in
}
