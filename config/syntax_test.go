package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A configuration file that is not valid YAML is named at file:line:col
// of the fault, the line of the mistake (not the line after it), and what
// is wrong in words.
func TestSyntaxErrorsNameTheFault(t *testing.T) {
	for _, tc := range []struct {
		name, yaml string
		want       string
	}{
		{"a tab", "profile: a\nprofiles:\n  a:\n\tenvironment: test\n",
			":4:1: not valid YAML: a tab: YAML indents with spaces only"},
		{"a key without its colon", "profile: a\nprofiles:\n  a\n    environment: test\n",
			`:3:4: not valid YAML: "a" has no ':' after it, so the line after it is read as more of it`},
		{"a value without its colon", "profile: a\nprofiles:\n  a:\n    environment test\n    refresh: 5s\n",
			`:4:21: not valid YAML: "environment test" has no ':' after it, so the line after it is read as more of it`},
		{"an unclosed quote", "profile: \"a\nprofiles:\n  a:\n    environment: test\n",
			":5:1: not valid YAML: found unexpected end of stream (while scanning a quoted scalar that starts at 1:10)"},
		{"a key indented wrong", "profile: a\nprofiles:\n  a:\n    environment: test\n   refresh: 5s\n",
			":5:4: not valid YAML: did not find expected key (while parsing a block mapping that starts at 3:3)"},
		{"two colons", "profile: a: b\n", ":1:11: not valid YAML: mapping values are not allowed in this context"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "config.yaml")
			if err := os.WriteFile(file, []byte(tc.yaml), 0o600); err != nil {
				t.Fatal(err)
			}
			_, _, err := Parse(file, []byte(tc.yaml), "", func(string) string { return "" })
			if err == nil || err.Error() != file+tc.want {
				t.Fatalf("got  %v\nwant %s", err, file+tc.want)
			}
		})
	}
}

// A key the file should not have, or a value of the wrong kind, is named
// at its line and column too.
func TestDecodeErrorsNameLineAndColumn(t *testing.T) {
	yaml := "profile: a\nprofiles:\n  a:\n    environment: test\n    refesh: 5s\n    mouse: [1]\n"
	file := filepath.Join(t.TempDir(), "config.yaml")
	_, _, err := Parse(file, []byte(yaml), "", func(string) string { return "" })
	var es Errors
	if !errors.As(err, &es) || len(es) != 2 {
		t.Fatalf("%v", err)
	}
	if got := es[0].Error(); !strings.HasPrefix(got, file+":5:5: profiles.a.refesh: unknown key") {
		t.Errorf("unknown key: %s", got)
	}
	if got := es[1].Error(); !strings.HasPrefix(got, file+":6:12: profiles.a.mouse: must be a single value") {
		t.Errorf("wrong kind: %s", got)
	}
}
