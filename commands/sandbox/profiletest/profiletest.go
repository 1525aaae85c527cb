// Package profiletest writes, for tests, the profile of a running sandbox
// as `treasury sandbox --write-profile` does.
package profiletest

import (
	"os"
	"path/filepath"
	"testing"

	sandboxcmd "treasury/commands/sandbox"
	"treasury/kit/pubkey"
	"treasury/sandbox"
)

// Write writes the profile of a running sandbox (what `treasury
// sandbox --write-profile` writes) with its receiver on listen, lets
// change edit its text and its secrets directory, and returns its path.
func Write(t testing.TB, srv *sandbox.Server, listen string, change func(yaml, secrets string) string) string {
	t.Helper()
	pubPEM, err := pubkey.MarshalPEM(srv.WebhookPublicKey())
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "sandbox.yaml")
	w, err := sandboxcmd.WriteProfile(srv, path, "", listen, pubPEM)
	if err != nil {
		t.Fatal(err)
	}
	if change != nil {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(change(string(b), w.SecretsDir)), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return path
}
