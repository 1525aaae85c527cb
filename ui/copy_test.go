package ui

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"treasury/ui/uitest"

	tea "charm.land/bubbletea/v2"
)

// TestCopyPerSession: the id goes to the session's own terminal: plain
// OSC 52; wrapped for tmux's passthrough too when the session's TERM names
// tmux (an SSH client inside tmux); a dumb terminal gets the id in a
// dialog instead, and C shows it in one anywhere.
func TestCopyPerSession(t *testing.T) {
	for _, c := range []struct {
		term   string
		plain  bool
		tmux   bool
		dialog bool
	}{
		{"xterm-256color", true, false, false},
		{"tmux-256color", true, true, false},
		{"screen", true, true, false},
		{"dumb", false, false, true},
	} {
		ctx := testContext("test", false)
		ctx.Terminal, ctx.Term = true, c.term
		v := &listView{name: "alpha", rows: []string{"pay-1", "pay-2"}}
		a := NewApp(ctx, v)
		a.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		got := written(run(a.copySelected()))
		// OSC 52 gets no answer: the flash says the id was sent, never
		// that it was copied.
		if flash := a.flash.Text; c.plain && (strings.Contains(flash, "copied") ||
			!strings.Contains(flash, "sent pay-1 to your terminal's clipboard (OSC 52; if it did not arrive, C shows it)")) {
			t.Errorf("%s: flash %q claims a copy OSC 52 cannot know of", c.term, flash)
		}
		if plain := strings.Contains(got, "\x1b]52;c;cGF5LTE=\x07"); plain != c.plain {
			t.Errorf("%s: plain OSC 52 %v in %q", c.term, plain, got)
		}
		if tmux := strings.Contains(got, "\x1bPtmux;"); tmux != c.tmux {
			t.Errorf("%s: tmux passthrough %v in %q", c.term, tmux, got)
		}
		if dialog := a.overlayKind() == rawOverlay && strings.Contains(a.shownRaw().view(), "pay-1"); dialog != c.dialog {
			t.Errorf("%s: dialog %v", c.term, dialog)
		}
		a.closeOverlays()
		a.Update(uitest.Key("C"))
		if a.overlayKind() != rawOverlay || !strings.Contains(a.shownRaw().view(), "pay-1") {
			t.Errorf("%s: C did not show the id", c.term)
		}
	}
}

// TestCopyLocalTmux: inside a local tmux the flash says "copied" only once
// tmux set-buffer exited 0; until then, and when it fails, it says the id
// was sent by OSC 52, with set-buffer's error.
func TestCopyLocalTmux(t *testing.T) {
	defer func(f func(string) error) { tmuxSetBuffer = f }(tmuxSetBuffer)
	for _, fail := range []error{nil, errors.New("exit status 1")} {
		var set []string
		tmuxSetBuffer = func(s string) error { set = append(set, s); return fail }
		ctx := testContext("test", false)
		ctx.Terminal, ctx.Term, ctx.LocalTmux = true, "tmux-256color", true
		a := NewApp(ctx, &listView{name: "alpha", rows: []string{"pay-1"}})
		a.Update(tea.WindowSizeMsg{Width: 120, Height: 24})
		cmd := a.copySelected()
		if strings.Contains(a.flash.Text, "copied") || !strings.Contains(a.flash.Text, "sent pay-1") {
			t.Errorf("before set-buffer answered: flash %q", a.flash.Text)
		}
		var flash tea.Msg
		for _, m := range run(cmd) {
			if f, ok := m.(Flash); ok {
				flash = f
			}
		}
		if flash == nil {
			t.Fatal("no tmux set-buffer")
		}
		a.Update(flash)
		switch {
		case len(set) != 1 || set[0] != "pay-1":
			t.Errorf("set-buffer got %q", set)
		case fail == nil && a.flash.Text != "copied pay-1 to tmux's buffer (C shows it to select by hand)":
			t.Errorf("set-buffer exit 0: flash %q", a.flash.Text)
		case fail != nil && (strings.Contains(a.flash.Text, "copied") || !strings.Contains(a.flash.Text, "sent pay-1") ||
			a.flash.Err == nil || !strings.Contains(a.flash.Err.Error(), "exit status 1")):
			t.Errorf("set-buffer failed: flash %+v", a.flash)
		}
	}
}

// TestSaveCSVNamesTheFullPath: ctrl+s writes the table's CSV in the
// session's save folder and the flash names the file by its full path,
// whatever folder the session was given (here a relative one).
func TestSaveCSVNamesTheFullPath(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	ctx := testContext("test", false)
	ctx.SaveDir = "exports"
	app := NewApp(ctx, &listView{name: "alpha", rows: []string{"a-1"}})
	app.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	cmd := app.saveCSV()
	if cmd == nil {
		t.Fatal("nothing saved")
	}
	f, ok := cmd().(Flash)
	if !ok || f.Err != nil {
		t.Fatalf("flash %+v", f)
	}
	name, found := strings.CutPrefix(f.Text, "saved ")
	if !found || !filepath.IsAbs(name) || filepath.Dir(name) != filepath.Join(dir, "exports") {
		t.Fatalf("the flash says %q, not the full path in %s", f.Text, filepath.Join(dir, "exports"))
	}
	if _, err := os.Stat(name); err != nil {
		t.Fatal(err)
	}
}
