package config

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The default keymap has no two actions read in one place on one key,
// and none on a view's number.
func TestDefaultKeymapHasNoCollision(t *testing.T) {
	if c := DefaultKeymap().Collisions(); len(c) > 0 {
		t.Fatalf("collisions: %+v", c)
	}
	seen := map[string]bool{}
	for _, a := range KeyActions() {
		if seen[a.Name] || len(a.Keys) == 0 || len(a.Places) == 0 || a.Help == "" {
			t.Errorf("action %+v: a name of its own, keys, places and help", a)
		}
		seen[a.Name] = true
	}
}

// keys: rebinds any action; its keys replace the defaults and help's
// label follows. An unknown action, a key that is none, a collision with
// another action read in the same place (on a view's number too), and a
// custom command on a key rebound to an action stop the start with the
// file and line.
func TestKeysRebind(t *testing.T) {
	parse := func(keys string) (*Config, error) {
		cfg, _, err := Parse(filepath.Join(t.TempDir(), "config.yaml"), []byte(profileYAML(payments+"    keys:\n"+keys)), "", goodEnv.get)
		return cfg, err
	}
	cfg, err := parse("      freeze: F\n      unfreeze: [ctrl+u, alt+f]\n      half_page_up: ctrl+k\n      quit: ctrl+q\n")
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.Keys.Keys("freeze"); !slices.Equal(got, []string{"F"}) {
		t.Errorf("freeze: %v", got)
	}
	if got := cfg.Keys.Label("unfreeze"); got != "ctrl+u/alt+f" {
		t.Errorf("unfreeze's label: %q", got)
	}
	if got := cfg.Keys.Keys("quit"); !slices.Equal(got, []string{"ctrl+q"}) || !slices.Contains(cfg.Keys.Keys("lock"), "l") {
		t.Errorf("quit %v; lock keeps its default %v", got, cfg.Keys.Keys("lock"))
	}
	for keys, want := range map[string]string{
		"      freez: F\n":                        `config.yaml:6:7: profiles.p.keys.freez: no action "freez": one of`,
		"      freeze: ctrl+\n":                   `"ctrl+" is not a key`,
		"      freeze: []\n":                      `give at least one key`,
		"      freeze: q\n":                       `profiles.p.keys.freeze: "q" is the key of quit and of freeze, both read on the wallets view`,
		"      lock: f\n":                         ``, // lock is the address book's, freeze the wallets': no collision
		"      mark: \"1\"\n":                     `"1" is the key of mark and of the view numbers`,
		"      dialog_close: tab\n":               `"tab" is the key of dialog_next and of dialog_close, both read on the dialog`,
		"      palette_close: q\n":                ``, // the palette takes every key: q is text there
		"      window: [w, P]\n":                  `"P" is the key of window and of pin_pair, both read on the quotes view`,
		"      save_report: x\n      window: x\n": ``, // the reports view has no window
	} {
		_, err := parse(keys)
		switch {
		case want == "" && err != nil:
			t.Errorf("%s: %v", keys, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%s: %v, want %q", keys, err, want)
		}
	}
	_, _, err = Parse(filepath.Join(t.TempDir(), "config.yaml"), []byte(profileYAML(payments+
		"    keys:\n      freeze: ctrl+t\n    commands:\n      - {name: t, key: ctrl+t, views: [wallets], program: /bin/true}\n")), "", goodEnv.get)
	if err == nil || !strings.Contains(err.Error(), `"ctrl+t" is the dashboard's own key on the wallets view`) {
		t.Errorf("a command on a key rebound to freeze: %v", err)
	}
}

// Where two actions' keys meet: the shell's everywhere, a table's and a
// detail page's never together, a view's keys on its pages, a view's
// table-only keys never on a detail page, a modal place only itself.
func TestPlacesMeet(t *testing.T) {
	for _, c := range []struct {
		p, q Place
		want bool
	}{
		{"*", "*", true}, {"*", "table", true}, {"*", "wallets", true}, {"*", "dialog", false},
		{"table", "detail", false}, {"table", "table", true}, {"table", "wallets", true}, {"detail", "wallets", true},
		{"table", "quotes/table", true}, {"detail", "quotes/table", false}, {"quotes", "quotes/table", true},
		{"wallets", "quotes", false}, {"dialog", "dialog", true}, {"dialog", "palette", false}, {"wallets", "wallets", true},
	} {
		for _, pq := range [][2]Place{{c.p, c.q}, {c.q, c.p}} {
			if _, got := meets([]Place{pq[0]}, []Place{pq[1]}); got != c.want {
				t.Errorf("%s meets %s: %v, want %v", pq[0], pq[1], got, c.want)
			}
		}
	}
}
