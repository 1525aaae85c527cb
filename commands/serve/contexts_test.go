package serve

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"treasury/commands/cli/clitest"
	"treasury/config"
	"treasury/desk/audit"
	"treasury/process"
)

// TestContextsByRole: over serve, :ctx reaches the served profile's own
// runtime, and another profile only for a role its ssh_roles name; two
// sessions on it share one runtime, closed when the last leaves; every
// refusal and switch is a line of the session log.
func TestContextsByRole(t *testing.T) {
	e, _ := clitest.Env(t, io.Discard)
	file := filepath.Join(t.TempDir(), "config.yaml")
	yaml := "profile: main\nprofiles:\n  main:\n    environment: sandbox\n    embedded_sandbox: {history_payments: 100}\n" +
		"  other:\n    environment: sandbox\n    embedded_sandbox: {seed: 5, history_payments: 100}\n    ssh_roles: [operator]\n"
	if err := os.WriteFile(file, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	o := config.Options{ConfigFile: file, Getenv: e.Getenv}
	o.Profile = "main"
	cfg, _, err := config.Load(o)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	main, err := process.Open(ctx, e, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer main.Close()
	var logged bytes.Buffer
	c := newContexts(ctx, e, o, main, slog.New(slog.NewJSONHandler(&logged, nil)))
	if names := c.Names(); strings.Join(names, ",") != "main,other" {
		t.Fatalf("names %v", names)
	}
	viewer := audit.Who{Via: audit.ViaSSH, User: "ben", Role: "viewer"}
	operator := audit.Who{Via: audit.ViaSSH, User: "ana", Role: "operator"}
	if _, _, err := c.Open(viewer, "other"); err == nil || !strings.Contains(err.Error(), `not by role "viewer"`) {
		t.Fatalf("a viewer switched to other: %v", err)
	} else {
		c.Record(viewer, "main", "other", err)
	}
	if rt, release, err := c.Open(viewer, "main"); err != nil || rt != main {
		t.Fatalf("the served profile: %v", err)
	} else {
		release()
	}
	a, releaseA, err := c.Open(operator, "other")
	if err != nil {
		t.Fatal(err)
	}
	c.Record(operator, "main", "other", nil)
	b, releaseB, err := c.Open(operator, "other")
	if err != nil || a != b || a == main {
		t.Fatalf("a second session on other: %v, same runtime %v", err, a == b)
	}
	url := a.Sandbox.URL
	releaseA()
	releaseA() // once only
	if _, err := http.Get(url); err != nil {
		t.Fatal("other closed while a session is still on it")
	}
	releaseB()
	if _, err := http.Get(url); err == nil {
		t.Error("other still open once every session left it")
	}
	for _, want := range []string{`"msg":"profile switch refused"`, `"role":"viewer"`, `"msg":"profile switch"`, `"to":"other"`} {
		if !strings.Contains(logged.String(), want) {
			t.Errorf("the session log lacks %s:\n%s", want, logged.String())
		}
	}
}
