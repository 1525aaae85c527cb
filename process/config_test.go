package process_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"treasury/commands/cli/clitest"
	"treasury/commands/sandbox/profiletest"
	"treasury/config"
	"treasury/process"
	"treasury/sandbox/sandboxtest"
)

// A secret file others can read is said where the dashboard's screen does
// not cover it: an alert every session shows, and a line in the log (it
// is on stderr too, from the loading). The secret itself is in neither.
func TestReadableSecretFileIsAnAlertAndALogLine(t *testing.T) {
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	c := srv.Credentials()
	path := profiletest.Write(t, srv, "127.0.0.1:0", func(yaml, secrets string) string {
		if err := os.Chmod(filepath.Join(secrets, "payments_client_secret"), 0o644); err != nil {
			t.Fatal(err)
		}
		return yaml
	})
	cfg, warns, err := config.Load(config.Options{ConfigFile: path, Getenv: func(string) string { return "" }})
	if err != nil || len(warns) != 1 {
		t.Fatalf("load: %v, warnings %v", err, warns)
	}
	e, _ := clitest.Env(t, io.Discard)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rt, err := process.Open(ctx, e, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	found := false
	for _, a := range rt.Platform.Store.Alerts() {
		if a.Code == "CONFIG" && strings.Contains(a.Title, "payments_client_secret") && strings.Contains(a.Title, "chmod 600") {
			found = true
		}
		if strings.Contains(a.Title, c.PaymentsClientSecret) {
			t.Fatalf("an alert shows the secret: %q", a.Title)
		}
	}
	if !found {
		t.Fatalf("alerts %+v, want the readable secret file", rt.Platform.Store.Alerts())
	}
	logged(t, rt, "readable by group or others")
	if b, _ := os.ReadFile(filepath.Join(rt.StateDir, "requests.log")); strings.Contains(string(b), c.PaymentsClientSecret) {
		t.Fatal("the log holds the secret")
	}
}
