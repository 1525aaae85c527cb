package ui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// written is what a program writes to its terminal for ms, besides
// frames: the clipboard (OSC 52, tea.SetClipboard) and raw sequences
// (tea.Raw).
func written(ms []tea.Msg) string {
	var b strings.Builder
	for _, msg := range ms {
		switch msg := msg.(type) {
		case tea.RawMsg:
			b.WriteString(fmt.Sprint(msg.Msg))
		default:
			if fmt.Sprintf("%T", msg) == "tea.setClipboardMsg" {
				b.WriteString(ansi.SetSystemClipboard(fmt.Sprint(msg)))
			}
		}
	}
	return b.String()
}
