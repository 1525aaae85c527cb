package sandbox

import (
	"bufio"
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"treasury/commands/cli/clitest"
	"treasury/config"
	"treasury/sandbox"
	"treasury/wire/payments"
)

// TestSandboxCommand serves the sandbox on a free port, reads it over
// HTTP, and loads the profile it wrote.
func TestSandboxCommand(t *testing.T) {
	pr, pw := io.Pipe()
	e, stderr := clitest.Env(t, pw)
	profile := filepath.Join(t.TempDir(), "sandbox.yaml")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan int, 1)
	go func() {
		done <- clitest.Run(ctx, Command, e, "--addr", "127.0.0.1:0", "--seed", "7", "--write-profile", profile, "--webhook-listen", "127.0.0.1:18788",
			"--latency", "3ms", "--malformed-rate", "0.25", "--hostile")
		pw.Close()
	}()
	var printed strings.Builder
	urls := map[string]string{}
	sc := bufio.NewScanner(pr)
	for sc.Scan() {
		line := sc.Text()
		printed.WriteString(line + "\n")
		if f := strings.Fields(line); len(f) == 2 && strings.HasPrefix(f[1], "http://127.0.0.1:") {
			urls[f[0]] = f[1]
		}
		if strings.HasPrefix(line, "serving") {
			break
		}
	}
	go io.Copy(io.Discard, pr)
	out := printed.String()
	creds := sandbox.DefaultCredentials()
	for _, want := range []string{creds.PaymentsClientSecret, creds.LiquidityToken, creds.CustodyToken, creds.CustodyDomainID,
		"monitoring-secret", "BEGIN PUBLIC KEY", sandbox.OperatorID(7), profile} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}

	// The control API answers over HTTP, with the seed we asked for.
	resp, err := http.Get(urls["control"] + "/info")
	if err != nil {
		t.Fatalf("GET info: %v (stdout %s, stderr %s)", err, out, stderr)
	}
	var info sandbox.Info
	json.NewDecoder(resp.Body).Decode(&info)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || info.Seed != 7 {
		t.Errorf("GET info: HTTP %d, seed %d", resp.StatusCode, info.Seed)
	}

	// The fault flags are in force, as the control API reports them.
	resp, err = http.Get(urls["control"] + "/faults")
	if err != nil {
		t.Fatal(err)
	}
	var faults sandbox.FaultSettings
	json.NewDecoder(resp.Body).Decode(&faults)
	resp.Body.Close()
	if time.Duration(faults.Latency) != 3*time.Millisecond || faults.MalformedRate != 0.25 || !faults.Hostile {
		t.Errorf("faults %+v, want the flags' latency, malformed rate and hostile strings", faults)
	}

	// The written profile loads and reaches the same sandbox.
	cfg, warns, err := config.Load(config.Options{ConfigFile: profile, Getenv: func(string) string { return "" }})
	if err != nil || len(warns) > 0 {
		t.Fatalf("load written profile: %v %v", err, warns)
	}
	if cfg.Payments.BaseURL != urls["payments"] || cfg.Payments.AuthURL != urls["auth"] || cfg.Custody.UserID != sandbox.OperatorID(7) {
		t.Errorf("profile endpoints %+v, printed %v", cfg.Payments, urls)
	}
	if !cfg.Custody.SigningKey.Public().(ed25519.PublicKey).Equal(sandbox.OperatorKey(7).Public()) {
		t.Error("profile's signing key is not the sandbox operator key")
	}
	if !sandbox.WebhookKey(7).Public().(ed25519.PublicKey).Equal(cfg.Webhooks.PublicKey) {
		t.Error("profile's webhook key is not the sandbox's")
	}
	body, _ := json.Marshal(payments.TokenRequest{GrantType: payments.GrantClientCredential, ClientID: cfg.Payments.ClientID,
		ClientSecret: cfg.Payments.ClientSecret.Reveal(), Audience: cfg.Payments.Audience})
	resp, err = http.Post(cfg.Payments.AuthURL+payments.PathToken, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("token with the profile's credentials: HTTP %d", resp.StatusCode)
	}

	cancel()
	if code := <-done; code != 0 {
		t.Errorf("sandbox exited %d: %s", code, stderr)
	}
	if _, err := http.Get(urls["control"] + "/info"); err == nil {
		t.Error("sandbox still serving after cancel")
	}
}

// TestTwoSandboxesTwoReceivers: two sandboxes started with --write-profile
// and no --webhook-listen deliver to two receivers: a dashboard on one
// never receives the other's notifications (signed with another key).
func TestTwoSandboxesTwoReceivers(t *testing.T) {
	delivered := func(seed string) string {
		pr, pw := io.Pipe()
		e, _ := clitest.Env(t, pw)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			clitest.Run(ctx, Command, e, "--addr", "127.0.0.1:0", "--seed", seed, "--history-payments", "10",
				"--write-profile", filepath.Join(t.TempDir(), "sandbox.yaml"))
			pw.Close()
		}()
		t.Cleanup(func() { cancel(); <-done })
		url := ""
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			if u, ok := strings.CutPrefix(sc.Text(), "webhooks are delivered to "); ok {
				url = u
			}
			if strings.HasPrefix(sc.Text(), "serving") {
				break
			}
		}
		go io.Copy(io.Discard, pr)
		return url
	}
	a, b := delivered("1"), delivered("2")
	if a == "" || b == "" || a == b {
		t.Fatalf("webhooks delivered to %q and %q", a, b)
	}
}
