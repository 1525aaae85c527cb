package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// :save appends a saved view to the profile's searches in its file: a
// section made after the profile's last line the first time, an item
// after the last one then; every other line is kept byte for byte (the
// comments, the other profile); the file reads back with the view; a
// title given twice, a profile the file lacks and no file at all are
// refused, the file unchanged.
func TestSaveSearchKeepsTheFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "config.yaml")
	orig := "# the team's profiles\nprofiles:\n  ops:            # the bastion's\n    environment: sandbox\n    mouse: true   # clicks\n\n  other:\n    environment: sandbox\n    searches:\n      - title: Mine\n        search: \"state:FAILED\"   # keep me\n"
	if err := os.WriteFile(file, []byte(orig), 0o640); err != nil {
		t.Fatal(err)
	}
	line, err := SaveSearch(file, "ops", Search{Title: "Cold locks", View: "addressbook", Search: "lock:Locked", Columns: []string{"alias", "lock"}, Sort: "alias", SortDesc: true})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(file)
	for _, keep := range []string{"# the team's profiles\n", "  ops:            # the bastion's\n", "    mouse: true   # clicks\n",
		"      - title: Mine\n        search: \"state:FAILED\"   # keep me\n"} {
		if !strings.Contains(string(got), keep) {
			t.Errorf("lost %q:\n%s", keep, got)
		}
	}
	if l := strings.Split(string(got), "\n"); line < 1 || !strings.Contains(l[line-1], "title: Cold locks") {
		t.Errorf("line %d is %q:\n%s", line, l[max(line-1, 0)], got)
	}
	if _, err := SaveSearch(file, "ops", Search{Title: "Payments late", View: "payments", Window: "7d"}); err != nil {
		t.Fatal(err)
	}
	if _, err := SaveSearch(file, "other", Search{Title: "Theirs", View: "quotes"}); err != nil {
		t.Fatal(err)
	}
	cfg, _, err := Parse(file, mustRead(t, file), "ops", goodEnv.get)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Searches) != 2 || cfg.Searches[0].Title != "Cold locks" || cfg.Searches[0].Sort != "alias" || !cfg.Searches[0].SortDesc ||
		strings.Join(cfg.Searches[0].Columns, ",") != "alias,lock" || cfg.Searches[1].Window != "7d" {
		t.Fatalf("read back: %+v", cfg.Searches)
	}
	other, _, err := Parse(file, mustRead(t, file), "other", goodEnv.get)
	if err != nil || len(other.Searches) != 2 || other.Searches[1].Title != "Theirs" {
		t.Fatalf("the other profile: %+v %v", other, err)
	}
	before := mustRead(t, file)
	for _, c := range []struct {
		file, profile, title string
	}{{file, "ops", "cold LOCKS"}, {file, "nobody", "x"}, {"", "ops", "x"}} {
		if _, err := SaveSearch(c.file, c.profile, Search{Title: c.title, View: "quotes"}); !errors.Is(err, ErrNotSaved) {
			t.Errorf("%s %s %q: %v, want refused", c.file, c.profile, c.title, err)
		}
	}
	if string(mustRead(t, file)) != string(before) {
		t.Error("a refused save changed the file")
	}
}

func mustRead(t *testing.T, file string) []byte {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
