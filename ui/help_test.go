package ui

import (
	"fmt"
	"strings"
	"testing"

	"treasury/config"
	"treasury/ui/uitest"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

// keyedView is a list view with many bindings, some of whose help keys
// are wider in bytes than in cells ("←/→", "↑/k").
type keyedView struct{ listView }

func (v *keyedView) Keys() []key.Binding {
	b := func(keys []string, k, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(k, desc))
	}
	return []key.Binding{
		b([]string{"enter"}, "enter", "open"),
		b([]string{"f"}, "f", "freeze the transaction"),
		b([]string{"u"}, "u", "unfreeze the transaction"),
		b([]string{"left", "right"}, "←/→", "other pane"),
		b([]string{"up", "k"}, "↑/k", "scroll up"),
		b([]string{"down", "j"}, "↓/j", "scroll down"),
		b([]string{"pgdown", " "}, "pgdn/space", "page down"),
		b([]string{"ctrl+u"}, "ctrl+u", "half a page up"),
		key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "never shown"), key.WithDisabled()),
	}
}

// helpFrame is the frame with the help open, in a colour profile, at a size.
func helpFrame(p colorprofile.Profile, w, h int) (string, *App) {
	ctx := testContext("test", false)
	ctx.Colors, ctx.Dark = p, true
	ctx.Theme = NewTheme(p, true, nil)
	app := NewApp(ctx, &keyedView{listView{name: "alpha", rows: []string{"a-1"}}})
	app.Update(tea.WindowSizeMsg{Width: w, Height: h})
	app.Update(uitest.Key("?"))
	return app.Frame(), app
}

// TestHelpGolden: "?" at 120x40 and 80x24, without colour (NO_COLOR) and
// in ANSI256.
func TestHelpGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		p    colorprofile.Profile
		w, h int
	}{
		{"Ascii120x40", colorprofile.NoTTY, 120, 40}, {"Ascii80x24", colorprofile.NoTTY, 80, 24},
		{"ANSI256_120x40", colorprofile.ANSI256, 120, 40}, {"ANSI256_80x24", colorprofile.ANSI256, 80, 24},
	} {
		t.Run(tc.name, func(t *testing.T) {
			frame, _ := helpFrame(tc.p, tc.w, tc.h)
			golden.RequireEqual(t, []byte(frame))
		})
	}
}

// TestHelpColumnsAlign: in every profile and size, the description of
// every binding starts in the same column as the others of its column of
// keys, counted in cells once the colours are stripped; no line is wider
// than the terminal; a disabled binding is not listed.
func TestHelpColumnsAlign(t *testing.T) {
	for _, p := range []colorprofile.Profile{colorprofile.NoTTY, colorprofile.ANSI256, colorprofile.TrueColor} {
		for _, size := range [][2]int{{120, 40}, {80, 24}} {
			t.Run(fmt.Sprintf("%v/%dx%d", p, size[0], size[1]), func(t *testing.T) {
				frame, app := helpFrame(p, size[0], size[1])
				lines := strings.Split(ansi.Strip(frame), "\n")
				for i, l := range lines {
					if w := ansi.StringWidth(l); w > size[0] {
						t.Errorf("line %d is %d cells wide: %q", i, w, l)
					}
				}
				if strings.Contains(frame, "never shown") {
					t.Error("a disabled binding is listed")
				}
				for _, group := range [][]key.Binding{app.Active().Keys()[:8], app.keys.List()} {
					// The column a description starts at, by the cell
					// after its key, for each line holding a key: all of
					// a column's keys are padded to one width.
					cols := map[int]int{} // key's column → description's column
					for _, b := range group {
						found := false
						for _, l := range lines {
							desc := " " + b.Help().Desc
							j := strings.Index(l, b.Help().Key+" ")
							if j < 0 || !strings.Contains(l[j:], desc) {
								continue
							}
							kc := ansi.StringWidth(l[:j])
							dc := ansi.StringWidth(l[:j+strings.Index(l[j:], desc)+1])
							if prev, ok := cols[kc]; ok && prev != dc {
								t.Errorf("%q: description at cell %d, others of its column at %d:\n%s", b.Help().Key, dc, prev, ansi.Strip(frame))
							}
							cols[kc] = dc
							found = true
							break
						}
						if !found {
							t.Errorf("%q %q is not in the help", b.Help().Key, b.Help().Desc)
						}
					}
				}
			})
		}
	}
}

// TestOverlayKeysAreDistinct: each overlay takes keys of its own, none
// of them twice: the dialog, the palette, the pager with its closing
// keys, the filter input.
func TestOverlayKeysAreDistinct(t *testing.T) {
	var km config.Keymap
	k, d, p, g := DefaultKeys(km), DefaultDialogKeys(km), DefaultPaletteKeys(km), DefaultPagerKeys(km)
	for name, bs := range map[string][]key.Binding{
		"dialog":  {d.Next, d.Prev, d.Switch, d.Enter, d.Close},
		"palette": {p.Close, p.Complete, p.Next, p.Prev, p.Run},
		"pager":   {g.Up, g.Down, g.PageUp, g.PageDown, k.Back, k.Close, k.Raw},
		"help":    {k.Back, k.Help, k.Close},
		"filter":  {k.FilterKeep, k.FilterClear},
		"shell":   k.List(),
	} {
		seen := map[string]string{}
		for _, b := range bs {
			for _, s := range b.Keys() {
				if o, ok := seen[s]; ok {
					t.Errorf("%s: key %s is both %q and %q", name, s, o, b.Help().Desc)
				}
				seen[s] = b.Help().Desc
			}
		}
	}
}

// The shell's keys rebound in the profile (keys:) are those ? lists and
// the footer shows, and the old ones do nothing.
func TestHelpShowsReboundKeys(t *testing.T) {
	parsed, _, err := config.Parse("config.yaml", []byte("profiles:\n  s:\n    environment: sandbox\n    keys:\n      help: f1\n      palette: ctrl+p\n      quit: ctrl+q\n"), "s", nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := testContext("test", false)
	ctx.Keys = parsed.Keys
	app := NewApp(ctx, &keyedView{listView{name: "alpha", rows: []string{"a-1"}}})
	app.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	app.Update(uitest.Key("?"))
	if strings.Contains(app.Frame(), "Everywhere") {
		t.Fatal("? still opens the help")
	}
	if _, cmd := app.Update(uitest.Key("q")); cmd != nil {
		if _, quit := cmd().(tea.QuitMsg); quit {
			t.Fatal("q still quits")
		}
	}
	app.Update(uitest.Key("f1"))
	golden.RequireEqual(t, []byte(app.Frame()))
}

// A binding from the keymap, as a view makes one when it draws a hint.
func BenchmarkKey(b *testing.B) {
	ctx := testContext("test", false)
	b.ReportAllocs()
	for b.Loop() {
		_ = ctx.Key("open").Help().Key
	}
}

// TestHelpScrolls: a help taller than the terminal shows its first lines
// and says which; the pager's keys scroll it to its last line (how to
// close it), and no further; opened again, it starts at the top.
func TestHelpScrolls(t *testing.T) {
	frame, app := helpFrame(colorprofile.NoTTY, 60, 12)
	plain := ansi.Strip(frame)
	if !strings.Contains(plain, "lines 1–") || strings.Contains(plain, "closes this help") {
		t.Fatalf("the help's first page does not say it scrolls:\n%s", plain)
	}
	for range 20 {
		app.Update(uitest.Key("pgdown"))
	}
	end := ansi.Strip(app.Frame())
	if !strings.Contains(end, "closes this help") || !strings.Contains(end, "lines ") {
		t.Fatalf("scrolled to the end, the help does not show its last line:\n%s", end)
	}
	app.Update(uitest.Key("down"))
	if again := ansi.Strip(app.Frame()); again != end {
		t.Errorf("scrolled past its end:\n%s", again)
	}
	app.Update(uitest.Key("?"))
	app.Update(uitest.Key("?"))
	if top := ansi.Strip(app.Frame()); !strings.Contains(top, "lines 1–") {
		t.Errorf("opened again, not at the top:\n%s", top)
	}
}

// TestHelpFilters: / in the help types words, and the help shows only the
// bindings that hold them, under their section, and how many of all; the
// explanation of figures is filtered by paragraph; enter keeps the filter
// (the pager's keys scroll again, ? closes), esc clears it, a second esc
// closes the help; at 80x24 a filter that matches more than fits scrolls.
func TestHelpFilters(t *testing.T) {
	_, app := helpFrame(colorprofile.NoTTY, 80, 24)
	for _, k := range []string{"/", "f", "r", "e", "e"} {
		app.Update(uitest.Key(k))
	}
	typed := ansi.Strip(app.Frame())
	if !strings.Contains(typed, "freeze the transaction") || !strings.Contains(typed, "unfreeze the transaction") ||
		strings.Contains(typed, "other pane") || strings.Contains(typed, "page down") || !strings.Contains(typed, `help matching "free": 2 of`) ||
		!strings.Contains(typed, "/free") {
		t.Fatalf("filtered by free:\n%s", typed)
	}
	app.Update(uitest.Key("enter"))
	kept := ansi.Strip(app.Frame())
	if !strings.Contains(kept, "freeze the transaction") || strings.Contains(kept, "/free") {
		t.Fatalf("enter keeps the filter, the input closed:\n%s", kept)
	}
	app.Update(uitest.Key("esc"))
	whole := ansi.Strip(app.Frame())
	if !strings.Contains(whole, "other pane") || strings.Contains(whole, "help matching") {
		t.Fatalf("esc clears the filter:\n%s", whole)
	}
	app.Update(uitest.Key("esc"))
	if strings.Contains(ansi.Strip(app.Frame()), "other pane") {
		t.Fatal("a second esc does not close the help")
	}
	// Nothing matches: said, with what was searched.
	app.Update(uitest.Key("?"))
	for _, k := range []string{"/", "z", "q", "x"} {
		app.Update(uitest.Key(k))
	}
	if none := ansi.Strip(app.Frame()); !strings.Contains(none, `nothing matches "zqx"`) {
		t.Fatalf("no match:\n%s", none)
	}
	// A filter matching more than fits 80x24 scrolls, its input on the
	// last line while typed.
	for range 3 {
		app.Update(uitest.Key("backspace"))
	}
	app.Update(uitest.Key("e"))
	many := strings.Split(ansi.Strip(app.Frame()), "\n")
	if len(many) > 24 || !strings.Contains(many[len(many)-1], "/e") && !strings.Contains(strings.Join(many, "\n"), "/e") {
		t.Fatalf("typing e at 80x24:\n%s", strings.Join(many, "\n"))
	}
	app.Update(uitest.Key("enter"))
	if kept := ansi.Strip(app.Frame()); !strings.Contains(kept, "lines 1–") {
		t.Fatalf("a long filtered help does not say it scrolls:\n%s", kept)
	}
}
