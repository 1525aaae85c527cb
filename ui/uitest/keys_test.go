package uitest

import "testing"

func TestKeyString(t *testing.T) {
	for _, s := range []string{"enter", "esc", "tab", "shift+tab", "ctrl+c", "ctrl+s", "down", "up", "pgdown", "pgup", "backspace", "space", "?", "W", "C", "1", ":", "/", "y", "left", "home", "end", "ctrl+u", "alt+x"} {
		if got := Key(s).String(); got != s {
			t.Errorf("Key(%q).String() = %q", s, got)
		}
	}
}
