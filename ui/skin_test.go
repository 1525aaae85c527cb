package ui

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"

	"treasury/config"
)

// TestEverySkinHasEveryColour: each built-in theme the profile may name
// gives every colour a theme file may set, each for both backgrounds.
func TestEverySkinHasEveryColour(t *testing.T) {
	for _, name := range config.ThemeNames() {
		sk, ok := BuiltinSkin(name)
		if !ok {
			t.Errorf("theme %q: not built in", name)
			continue
		}
		for _, c := range config.ThemeColorNames() {
			if p := sk[c]; p.Light == "" || p.Dark == "" {
				t.Errorf("theme %q: colour %s missing", name, c)
			}
		}
		if len(sk) != len(config.ThemeColorNames()) {
			t.Errorf("theme %q: %d colours, want %d", name, len(sk), len(config.ThemeColorNames()))
		}
	}
}

// TestASkinColoursTheThemeAndNoColorWins: a theme file's colour is what
// the styles draw with, on the background it is for; without colours
// (NO_COLOR) nothing is coloured, whatever the skin.
func TestASkinColoursTheThemeAndNoColorWins(t *testing.T) {
	sk := SkinOf("colorblind", map[string][2]string{"ok": {"#010203", "#0a0b0c"}})
	dark := NewTheme(colorprofile.TrueColor, true, sk).OK.Render("ok")
	light := NewTheme(colorprofile.TrueColor, false, sk).OK.Render("ok")
	if !strings.Contains(dark, "38;2;10;11;12") || !strings.Contains(light, "38;2;1;2;3") {
		t.Fatalf("ok drawn %q on dark, %q on light: want the theme file's colours", dark, light)
	}
	if bad := NewTheme(colorprofile.TrueColor, true, sk).Bad.Render("x"); !strings.Contains(bad, "38;2;213;94;0") {
		t.Fatalf("bad drawn %q: want the colour-blind palette's vermillion", bad)
	}
	if plain := NewTheme(colorprofile.NoTTY, true, sk).OK.Render("ok"); plain != "ok" {
		t.Fatalf("NO_COLOR: %q, want plain text", plain)
	}
}

// TestNoColourOutsideTheTheme: no source file but the skins names a
// colour: every colour on screen comes from the theme.
func TestNoColourOutsideTheTheme(t *testing.T) {
	colour := regexp.MustCompile(`"#[0-9a-fA-F]{6}"|lipgloss\.(Color|ANSIColor)\(\s*"|color\.RGBA\{|ansi\.(BasicColor|IndexedColor)\(`)
	allowed := []string{filepath.Join("ui", "skin.go")}
	root := ".."
	var found []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != root || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		if slices.Contains(allowed, rel) || strings.HasPrefix(rel, "sandbox"+string(filepath.Separator)) {
			return nil // the sandbox draws nothing on a terminal
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(b), "\n") {
			if colour.MatchString(line) && !strings.HasPrefix(strings.TrimSpace(line), "//") {
				found = append(found, fmt.Sprintf("%s:%d: %s", rel, i+1, strings.TrimSpace(line)))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) > 0 {
		t.Fatalf("colours outside the theme (ui/skin.go):\n%s", strings.Join(found, "\n"))
	}
}
