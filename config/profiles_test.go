package config

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestProfileNames(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(f, []byte("profile: uat\nprofiles:\n  uat:\n    environment: test\n  production:\n    environment: prod\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := ProfileNames(Options{ConfigFile: f}); !slices.Equal(got, []string{"production", "uat"}) {
		t.Errorf("names %q", got)
	}
	env := func(k string) string {
		if k == "XDG_CONFIG_HOME" {
			return filepath.Join(dir, "none")
		}
		return ""
	}
	if got := ProfileNames(Options{Getenv: env}); !slices.Equal(got, []string{SandboxProfile}) {
		t.Errorf("without a file: %q", got)
	}
	if err := os.WriteFile(f, []byte("profiles: [\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := ProfileNames(Options{ConfigFile: f}); got != nil {
		t.Errorf("a broken file: %q", got)
	}
}
