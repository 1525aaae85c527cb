package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestThemeIsABuiltInOrAFile: theme: names a built-in skin or a theme
// file beside the configuration; its colours are read for both
// backgrounds; an unknown theme, colour name or value stops the start
// with the file and line.
func TestThemeIsABuiltInOrAFile(t *testing.T) {
	dir := t.TempDir()
	parse := func(theme string) (*Config, error) {
		cfg, _, err := Parse(filepath.Join(dir, "config.yaml"), []byte(profileYAML(payments+"    theme: "+theme+"\n")), "", goodEnv.get)
		return cfg, err
	}
	if cfg, err := parse("colorblind"); err != nil || cfg.Theme.Name != "colorblind" || len(cfg.Theme.Colors) != 0 {
		t.Fatalf("a built-in: %+v, %v", cfg, err)
	}
	if _, err := parse("solarized"); err == nil || !strings.Contains(err.Error(), `config.yaml:5`) || !strings.Contains(err.Error(), `no such theme "solarized"`) {
		t.Fatalf("an unknown theme: %v", err)
	}
	file := filepath.Join(dir, "desk.yaml")
	if err := os.WriteFile(file, []byte("base: dark\ncolors:\n  ok: \"#00aa00\"\n  bad: {light: \"#aa0000\", dark: \"#ff5555\"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := parse("desk.yaml")
	if err != nil || cfg.Theme.Name != "dark" || cfg.Theme.Colors["ok"] != [2]string{"#00aa00", "#00aa00"} ||
		cfg.Theme.Colors["bad"] != [2]string{"#aa0000", "#ff5555"} {
		t.Fatalf("a theme file: %+v, %v", cfg.Theme, err)
	}
	for body, want := range map[string]string{
		"colors:\n  okay: \"#00aa00\"\n":         `desk.yaml:2:3: colors.okay: no such colour "okay"`,
		"colors:\n  ok: green\n":                 `desk.yaml:2:7: colors.ok: a colour is "#rrggbb"`,
		"base: neon\n":                           `desk.yaml:1:7: base: no such theme "neon"`,
		"colors:\n  bad: {light: \"#aa0000\"}\n": `desk.yaml:2:8: colors.bad: both light: and dark: are needed`,
	} {
		if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := parse("desk.yaml"); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", body, err, want)
		}
	}
}
