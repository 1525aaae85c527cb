package sshserve

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// TestParseAuthorizedKeys: each line's role (viewer unless said) and who
// the key is for people: its name= option, else its comment.
func TestParseAuthorizedKeys(t *testing.T) {
	a, b, c := newTestKey(t, "a@host"), newTestKey(t, ""), newTestKey(t, "c@laptop")
	keys, err := parseAuthorizedKeys("keys", []byte(strings.Join([]string{
		"# operators",
		"",
		`restrict,role="operator" ` + a.line,
		"  " + b.line + "  ",
		`role="operator",name="Carla Diaz" ` + c.line,
	}, "\n")))
	if err != nil {
		t.Fatal(err)
	}
	ka := keys[string(a.signer.PublicKey().Marshal())]
	kb := keys[string(b.signer.PublicKey().Marshal())]
	kc := keys[string(c.signer.PublicKey().Marshal())]
	if ka.role != RoleOperator || ka.line != 3 || ka.comment != "a@host" || ka.name != "a@host" {
		t.Errorf("a: %+v", ka)
	}
	if kb.role != RoleViewer || kb.line != 4 || kb.name != "" {
		t.Errorf("b: %+v", kb)
	}
	if kc.role != RoleOperator || kc.name != "Carla Diaz" || kc.comment != "c@laptop" {
		t.Errorf("c: %+v", kc)
	}
}

func TestParseAuthorizedKeysFaultsNameFileAndLine(t *testing.T) {
	a := newTestKey(t, "a")
	for _, c := range []struct {
		name, content, want string
	}{
		{"garbage", "# c\nssh-ed25519 AAAA!!\n", "keys:2:"},
		{"bad role", `role="admin" ` + a.line, `keys:1: role "admin"`},
		{"empty name", `name="" ` + a.line, `keys:1: name="" names nobody`},
		{"from is not ignored", `from="10.0.0.1" ` + a.line, `keys:1: option "from"`},
		{"command is not ignored", `command="ls" ` + a.line, `keys:1: option "command"`},
		{"duplicate", a.line + "\n" + `role=operator ` + a.line, "keys:2: key " + a.fingerprint() + " is already listed on line 1"},
		{"empty", "# nobody\n", "keys: no keys"},
	} {
		_, err := parseAuthorizedKeys("keys", []byte(c.content))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
}

func TestNewValidatesAndNamesTheFile(t *testing.T) {
	dir := t.TempDir()
	model := func(context.Context, Session) (tea.Model, func(), error) { return nil, nil, nil }
	keys := filepath.Join(dir, "authorized_keys")
	host := filepath.Join(dir, "host")
	a := newTestKey(t, "a")
	writeFile(t, keys, "\n"+a.line+"\nnot a key\n")

	_, err := New(Options{HostKeyFile: host, AuthorizedKeysFile: keys, NewModel: model})
	if err == nil || !strings.Contains(err.Error(), keys+":3:") {
		t.Fatalf("bad keys file: %v, want it named with line 3", err)
	}
	if _, err := New(Options{HostKeyFile: host, AuthorizedKeysFile: filepath.Join(dir, "missing"), NewModel: model}); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("missing keys file: %v", err)
	}
	if _, err := New(Options{HostKeyFile: host, AuthorizedKeysFile: keys}); err == nil {
		t.Error("New without NewModel succeeded")
	}

	writeFile(t, keys, a.line+"\n")
	s, err := New(Options{HostKeyFile: host, AuthorizedKeysFile: keys, NewModel: model})
	if err != nil {
		t.Fatal(err)
	}
	if s.opts.Listen != ":2222" || s.opts.MaxSessions != 20 || s.opts.IdleTimeout != DefaultIdleTimeout {
		t.Errorf("defaults: %+v", s.opts)
	}
	fi, err := os.Stat(host)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("host key created with mode %04o, want 0600", fi.Mode().Perm())
	}
	first := hostPublicKey(t, host)
	if _, err := New(Options{HostKeyFile: host, AuthorizedKeysFile: keys, NewModel: model}); err != nil {
		t.Fatal(err)
	}
	if again := hostPublicKey(t, host); string(again.Marshal()) != string(first.Marshal()) {
		t.Error("the host key changed when the file existed")
	}

	if err := os.Chmod(host, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := New(Options{HostKeyFile: host, AuthorizedKeysFile: keys, NewModel: model}); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Errorf("readable host key: %v, want refused", err)
	}
	writeFile(t, filepath.Join(dir, "junk"), "junk")
	if _, err := New(Options{HostKeyFile: filepath.Join(dir, "junk"), AuthorizedKeysFile: keys, NewModel: model}); err == nil || !strings.Contains(err.Error(), "junk") {
		t.Errorf("junk host key: %v", err)
	}
}
