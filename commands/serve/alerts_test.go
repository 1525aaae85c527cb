package serve

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"treasury/commands/cli/clitest"
	"treasury/config"
	"treasury/process"
	"treasury/wire/money"
)

// TestServePostsAlerts: `treasury serve` with alerts.webhook posts the
// critical alerts of its profile (here, every runway: its critical level
// is set above any) to the hook as Slack takes them, and records the post
// in requests.log without the hook's address.
func TestServePostsAlerts(t *testing.T) {
	got := make(chan string, 10)
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- r.Header.Get("Content-Type") + " " + string(b)
	}))
	defer hook.Close()
	e, _ := clitest.Env(t, io.Discard)
	cfg := config.Builtin()
	cfg.Alerts.Prefunded.Default.RunwayCritical = config.Given(money.MustParse("100000"))
	cfg.Alerts.Prefunded.Default.RunwayWarning = config.Given(money.MustParse("100000"))
	cfg.Alerts.Webhook = &config.AlertWebhook{URL: config.NewSecret(hook.URL + "/services/T0/B0/secret-token"), MinSeverity: "high", PerMinute: 6}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rt, err := process.Open(ctx, e, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	if err := startAlertHook(ctx, rt); err != nil {
		t.Fatal(err)
	}
	select {
	case body := <-got:
		if !strings.HasPrefix(body, `application/json {"text":"treasury sandbox (sandbox):`) || !strings.Contains(body, "HIGH LOW_RUNWAY") {
			t.Errorf("posted %s", body)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no alert posted")
	}
	log := filepath.Join(e.Getenv("XDG_STATE_HOME"), "treasury", "requests.log")
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		b, _ := os.ReadFile(log)
		if strings.Contains(string(b), `"iface":"alert-webhook"`) {
			if strings.Contains(string(b), "secret-token") || !strings.Contains(string(b), `"status":200`) {
				t.Errorf("request log:\n%s", b)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the post is not in %s:\n%s", log, b)
		}
	}
}
