// Package uitest builds the input messages tests send to the shell, views
// and widgets: key presses named as bubbletea names them.
package uitest

import (
	"strings"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
)

// named are the keys tests press by name.
var named = map[string]rune{
	"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab, "down": tea.KeyDown, "up": tea.KeyUp,
	"left": tea.KeyLeft, "right": tea.KeyRight, "home": tea.KeyHome, "end": tea.KeyEnd,
	"pgdown": tea.KeyPgDown, "pgup": tea.KeyPgUp, "backspace": tea.KeyBackspace, "delete": tea.KeyDelete,
	"space": tea.KeySpace,
}

// Key is one key press as its String names it: "enter", "esc", "tab",
// "shift+tab", "ctrl+c", "down", "space", "?", "W"; any other text is
// typed as one press of all its runes (what a text input inserts whole).
// Key(s).String() == s for every name it knows.
func Key(s string) tea.KeyPressMsg {
	var mod tea.KeyMod
	name := s
	for {
		switch {
		case strings.HasPrefix(name, "ctrl+") && len(name) > len("ctrl+"):
			mod |= tea.ModCtrl
			name = name[len("ctrl+"):]
			continue
		case strings.HasPrefix(name, "alt+") && len(name) > len("alt+"):
			mod |= tea.ModAlt
			name = name[len("alt+"):]
			continue
		case strings.HasPrefix(name, "shift+") && len(name) > len("shift+"):
			mod |= tea.ModShift
			name = name[len("shift+"):]
			continue
		}
		break
	}
	if code, ok := named[name]; ok {
		k := tea.KeyPressMsg{Code: code, Mod: mod}
		if code == tea.KeySpace && mod == 0 {
			k.Text = " "
		}
		return k
	}
	r, size := utf8.DecodeRuneInString(name)
	if mod != 0 && size == len(name) {
		return tea.KeyPressMsg{Code: r, Mod: mod}
	}
	r, _ = utf8.DecodeRuneInString(s)
	k := tea.KeyPressMsg{Code: r, Text: s}
	if lower := []rune(strings.ToLower(s)); len(lower) == 1 && lower[0] != r {
		k.Code, k.ShiftedCode, k.Mod = lower[0], r, tea.ModShift
	}
	return k
}

// Keys are the presses of each rune of s, one by one, as a person types.
func Keys(s string) []tea.KeyPressMsg {
	var out []tea.KeyPressMsg
	for _, r := range s {
		out = append(out, Key(string(r)))
	}
	return out
}
