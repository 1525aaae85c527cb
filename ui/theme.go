package ui

import "github.com/charmbracelet/lipgloss"

// Theme holds every style of the dashboard, built from one session's
// renderer so colours follow that terminal (dark or light background, colour
// profile, NO_COLOR). Nothing here is package-level: a style made from the
// default renderer would use the server's colours in every SSH session.
type Theme struct {
	R *lipgloss.Renderer

	Title, Muted, Bold, Accent        lipgloss.Style
	OK, Warn, Bad, Stale              lipgloss.Style
	BadgeTest, BadgeProd, BadgeRO     lipgloss.Style
	Tab, TabActive                    lipgloss.Style
	FlashInfo, FlashError             lipgloss.Style
	Border, Dialog, DialogTitle       lipgloss.Style
	Button, ButtonFocus, ButtonDanger lipgloss.Style
	Key, KeyDesc                      lipgloss.Style
	// Table styles, for the table widget.
	Header, Cell, Selected, Changed, Dim lipgloss.Style
	// Chart line colours, one per series.
	Series []lipgloss.Style
}

// NewTheme builds the theme for a renderer. With an ASCII profile (NO_COLOR,
// TERM=dumb) every style degrades to plain text plus bold/reverse where the
// meaning would otherwise be lost.
func NewTheme(r *lipgloss.Renderer) Theme {
	c := func(light, dark string) lipgloss.AdaptiveColor {
		return lipgloss.AdaptiveColor{Light: light, Dark: dark}
	}
	s := r.NewStyle
	t := Theme{R: r}
	t.Title = s().Bold(true).Foreground(c("#1f4e8c", "#7aa2f7"))
	t.Muted = s().Foreground(c("#6b6b6b", "#8a8a8a"))
	t.Bold = s().Bold(true)
	t.Accent = s().Foreground(c("#7c3aed", "#bb9af7"))
	t.OK = s().Foreground(c("#15803d", "#9ece6a"))
	t.Warn = s().Foreground(c("#a16207", "#e0af68"))
	t.Bad = s().Foreground(c("#b91c1c", "#f7768e")).Bold(true)
	t.Stale = s().Foreground(c("#a16207", "#e0af68")).Italic(true)
	t.BadgeTest = s().Bold(true).Foreground(c("#ffffff", "#1a1b26")).Background(c("#15803d", "#9ece6a")).Padding(0, 1)
	t.BadgeProd = s().Bold(true).Blink(false).Reverse(true).Foreground(c("#b91c1c", "#f7768e")).Padding(0, 1)
	t.BadgeRO = s().Bold(true).Foreground(c("#ffffff", "#1a1b26")).Background(c("#6b6b6b", "#a9b1d6")).Padding(0, 1)
	t.Tab = s().Foreground(c("#6b6b6b", "#8a8a8a")).Padding(0, 1)
	t.TabActive = s().Bold(true).Underline(true).Foreground(c("#1f4e8c", "#7aa2f7")).Padding(0, 1)
	t.FlashInfo = s().Foreground(c("#15803d", "#9ece6a"))
	t.FlashError = s().Foreground(c("#b91c1c", "#f7768e")).Bold(true)
	t.Border = s().Border(lipgloss.RoundedBorder()).BorderForeground(c("#9ca3af", "#414868"))
	t.Dialog = s().Border(lipgloss.DoubleBorder()).BorderForeground(c("#b91c1c", "#f7768e")).Padding(1, 2)
	t.DialogTitle = s().Bold(true).Foreground(c("#b91c1c", "#f7768e"))
	t.Button = s().Padding(0, 2).Foreground(c("#374151", "#c0caf5"))
	t.ButtonFocus = s().Padding(0, 2).Bold(true).Reverse(true)
	t.ButtonDanger = s().Padding(0, 2).Bold(true).Reverse(true).Foreground(c("#b91c1c", "#f7768e"))
	t.Key = s().Bold(true).Foreground(c("#7c3aed", "#bb9af7"))
	t.KeyDesc = s().Foreground(c("#6b6b6b", "#8a8a8a"))
	t.Header = s().Bold(true).Foreground(c("#1f4e8c", "#7aa2f7"))
	t.Cell = s()
	t.Selected = s().Reverse(true)
	t.Changed = s().Foreground(c("#a16207", "#e0af68")).Bold(true)
	t.Dim = s().Foreground(c("#6b6b6b", "#8a8a8a"))
	for _, col := range []lipgloss.AdaptiveColor{c("#1f4e8c", "#7aa2f7"), c("#15803d", "#9ece6a"), c("#a16207", "#e0af68"),
		c("#7c3aed", "#bb9af7"), c("#b91c1c", "#f7768e"), c("#0e7490", "#7dcfff")} {
		t.Series = append(t.Series, s().Foreground(col))
	}
	return t
}
