package ui

import (
	"fmt"
	"image/color"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
)

// Theme holds every style of the dashboard, built for one session's colour
// profile and background so colours follow that terminal (dark or light
// background, 16, 256 or 24-bit colours, NO_COLOR). Each colour is
// converted to the profile once, here, not on every frame. Nothing here is
// package-level: every SSH session has a theme of its own.
type Theme struct {
	// Dark says the theme is for a dark background: what keeps styles of
	// its own (a table) takes them again when the session's theme is for
	// the other one (the terminal answered).
	Dark bool

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

// NewTheme builds the theme for a colour profile and background. A profile
// without colours (NO_COLOR, TERM=dumb: see ColorProfile) gets plain text
// with no attributes at all; what the styles would mark is then marked by
// characters (Context.Plain).
func NewTheme(p colorprofile.Profile, dark bool, pal Skin) Theme {
	if pal == nil {
		pal, _ = BuiltinSkin("default")
	}
	c := func(name string) color.Color {
		pair := pal[name]
		v := pair.Light
		if dark {
			v = pair.Dark
		}
		return p.Convert(lipgloss.Color(v))
	}
	s := lipgloss.NewStyle
	t := Theme{Dark: dark}
	t.Title = s().Bold(true).Foreground(c("title"))
	t.Muted = s().Foreground(c("muted"))
	t.Bold = s().Bold(true)
	t.Accent = s().Foreground(c("accent"))
	t.OK = s().Foreground(c("ok"))
	t.Warn = s().Foreground(c("warn"))
	t.Bad = s().Foreground(c("bad")).Bold(true)
	t.Stale = s().Foreground(c("warn")).Italic(true)
	t.BadgeTest = s().Bold(true).Foreground(c("badge_text")).Background(c("badge_test")).Padding(0, 1)
	t.BadgeProd = s().Bold(true).Blink(false).Reverse(true).Foreground(c("bad")).Padding(0, 1)
	t.BadgeRO = s().Bold(true).Foreground(c("badge_text")).Background(c("badge_ro")).Padding(0, 1)
	t.Tab = s().Foreground(c("muted")).Padding(0, 1)
	t.TabActive = s().Bold(true).Underline(true).Foreground(c("title")).Padding(0, 1)
	t.FlashInfo = s().Foreground(c("ok"))
	t.FlashError = s().Foreground(c("bad")).Bold(true)
	t.Border = s().Border(lipgloss.RoundedBorder()).BorderForeground(c("border"))
	t.Dialog = s().Border(lipgloss.DoubleBorder()).BorderForeground(c("bad")).Padding(1, 2)
	t.DialogTitle = s().Bold(true).Foreground(c("bad"))
	t.Button = s().Padding(0, 2).Foreground(c("button"))
	t.ButtonFocus = s().Padding(0, 2).Bold(true).Reverse(true)
	t.ButtonDanger = s().Padding(0, 2).Bold(true).Reverse(true).Foreground(c("bad"))
	t.Key = s().Bold(true).Foreground(c("accent"))
	t.KeyDesc = s().Foreground(c("muted"))
	t.Header = s().Bold(true).Foreground(c("title"))
	t.Cell = s()
	t.Selected = s().Reverse(true)
	t.Changed = s().Foreground(c("warn")).Bold(true)
	t.Dim = s().Foreground(c("muted"))
	for i := 1; i <= 6; i++ {
		t.Series = append(t.Series, s().Foreground(c(fmt.Sprint("series", i))))
	}
	if p <= colorprofile.NoTTY {
		t.plain()
	}
	return t
}

// plain strips every colour and text attribute, keeping layout (padding,
// borders).
func (t *Theme) plain() {
	for _, st := range []*lipgloss.Style{&t.Title, &t.Muted, &t.Bold, &t.Accent, &t.OK, &t.Warn, &t.Bad, &t.Stale,
		&t.BadgeTest, &t.BadgeProd, &t.BadgeRO, &t.Tab, &t.TabActive, &t.FlashInfo, &t.FlashError,
		&t.Border, &t.Dialog, &t.DialogTitle, &t.Button, &t.ButtonFocus, &t.ButtonDanger, &t.Key, &t.KeyDesc,
		&t.Header, &t.Cell, &t.Selected, &t.Changed, &t.Dim} {
		*st = Plain(*st)
	}
	for i := range t.Series {
		t.Series[i] = Plain(t.Series[i])
	}
}

// Plain is st without colours or text attributes.
func Plain(st lipgloss.Style) lipgloss.Style {
	return st.UnsetForeground().UnsetBackground().UnsetBorderForeground().UnsetBorderBackground().
		UnsetBold().UnsetItalic().UnsetUnderline().UnsetStrikethrough().UnsetReverse().UnsetBlink().UnsetFaint()
}
