package config

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestCommandsAreChecked: a custom command needs a name, a key that is
// not the dashboard's own, known views and roles, and well-formed fields;
// each problem names the file and line.
func TestCommandsAreChecked(t *testing.T) {
	parse := func(cmds string) (*Config, error) {
		cfg, _, err := Parse(filepath.Join(t.TempDir(), "config.yaml"), []byte(profileYAML(payments+"    commands:\n"+cmds)), "", goodEnv.get)
		return cfg, err
	}
	cfg, err := parse("      - {name: ticket, key: ctrl+t, views: [payments], program: /bin/echo, args: [\"{paymentId}\", \"{state}\"], ssh_roles: [operator]}\n")
	if err != nil || len(cfg.Commands) != 1 || cfg.Commands[0].Key != "ctrl+t" || cfg.Commands[0].Args[0] != "{paymentId}" {
		t.Fatalf("a good command: %+v, %v", cfg.Commands, err)
	}
	if cfg, err := parse("      - {name: all, key: ctrl+o, program: /bin/true}\n"); err != nil || len(cfg.Commands[0].Views) != 12 {
		t.Fatalf("a command of every view: %+v, %v", cfg, err)
	}
	for cmds, want := range map[string]string{
		"      - {name: x, key: q, program: /bin/true}\n":                                                          `config.yaml:6:19: profiles.p.commands[0].key: "q" is the dashboard's own key`,
		"      - {name: x, key: ctrl+o, views: [paymnts], program: /bin/true}\n":                                   `no view "paymnts"`,
		"      - {name: x, key: ctrl+o, program: /bin/true, args: [\"{pay ment}\"]}\n":                             `{pay ment} is no field name`,
		"      - {name: x, key: ctrl+o, program: /bin/true, ssh_roles: [admin]}\n":                                 `no role "admin"`,
		"      - {key: ctrl+o, program: /bin/true}\n":                                                              `name`,
		"      - {name: x, key: ctrl+o, program: /bin/true}\n      - {name: y, key: ctrl+o, program: /bin/true}\n": `"ctrl+o" runs x on the overview view too`,
	} {
		if _, err := parse(cmds); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", cmds, err, want)
		}
	}
}
