package doctor

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"treasury/commands/cli/clitest"
	"treasury/commands/sandbox/profiletest"
	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
)

// doctorRun runs `treasury doctor` with args and returns the exit code,
// stdout and stderr.
func doctorRun(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out bytes.Buffer
	e, stderr := clitest.Env(t, &out)
	code := clitest.Run(context.Background(), Command, e, args...)
	return code, out.String(), stderr.String()
}

func writeSecret(t *testing.T, dir, name, value string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(value), 0o600); err != nil {
		t.Fatal(err)
	}
}

func wantLines(t *testing.T, out string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
}

// noSecrets fails when out holds any credential of the sandbox or one of
// extra.
func noSecrets(t *testing.T, out string, extra ...string) {
	t.Helper()
	c := sandbox.DefaultCredentials()
	secrets := append([]string{c.PaymentsClientSecret, c.LiquidityToken, c.CustodyToken}, extra...)
	for _, w := range c.Wallet {
		secrets = append(secrets, w.ClientSecret)
	}
	for _, s := range secrets {
		if s != "" && strings.Contains(out, s) {
			t.Errorf("output shows the secret %q:\n%s", s, out)
		}
	}
}

// nowOptions are the small frozen world of sandboxtest, its clock stopped
// at this host's time: its Date headers agree with the host's clock, so
// the doctor's clock check passes.
func nowOptions() sandbox.Options {
	o := sandboxtest.Options()
	o.Start = time.Now()
	return o
}

// TestDoctorEmbeddedSandbox: with no configuration the doctor starts the
// embedded sandbox and every check that applies passes.
func TestDoctorEmbeddedSandbox(t *testing.T) {
	code, out, stderr := doctorRun(t)
	if code != 0 {
		t.Fatalf("exit %d, want 0\nstdout:\n%s\nstderr:\n%s", code, out, stderr)
	}
	// What the binary is comes first (go test records no commit, and says so).
	if first, _, _ := strings.Cut(out, "\n"); !strings.HasPrefix(first, "treasury ") || !strings.Contains(first, "commit unknown") {
		t.Errorf("the first line is %q, want the build's version and commit", first)
	}
	wantLines(t, out, "profile sandbox (environment sandbox), the embedded sandbox at http://127.0.0.1:",
		"ok   liquidity  http://127.0.0.1:", "ok   auth  bearer token accepted: GET /api/v0/quotes pageSize=1 answered 1 of",
		"ok   auth  client_id sandbox-client: token issued", "GET /v3/identities limit=1 accepted",
		"ok   auth  payments token (client_id sandbox-client) accepted: GET /v2/reports",
		"ok   auth  monitoring client_id monitoring: token issued; GET /v2/vaults pagination.pageSize=1 answered 1 vault",
		"ok   auth  transactions client_id transactions: token issued",
		"ok   auth  bearer token accepted: GET /v1/domains/", "/endpoints limit=1 answered 1 endpoint",
		"ok   key   intents signed as user", ", Ed25519 key SHA256:",
		"ok   read  POST /v3/payments/filter filterRangeType=PAYMENT_STATUS_LAST_UPDATED (the last hour), page.size=1: answered 1 payment; polls read only what changed",
		"ok   tcp   connected to 127.0.0.1:", "--   tls   plain http on loopback",
		"--   port  a free loopback port is taken when the dashboard starts",
		"ok   skew  within 1 s of the servers' Date headers",
		"checks that apply passed")
	if strings.Contains(out, "FAIL") || strings.Contains(out, "WARN") || strings.ContainsAny(out, "✓✗\x1b") {
		t.Errorf("a failure, a warning, a symbol or colour when not on a terminal:\n%s", out)
	}
	noSecrets(t, out+stderr)
}

// TestDoctorSpecFilter: a server that takes only the spec's filter (the
// variant face) refuses the read of the payments changed since a poll; the
// doctor says each poll reads them all, and that is no failure.
func TestDoctorSpecFilter(t *testing.T) {
	o := nowOptions()
	o.Variant = true
	srv := sandboxtest.Listen(t, o)
	code, out, stderr := doctorRun(t, "--config", profiletest.Write(t, srv, clitest.FreeAddr(t), nil))
	if code != 0 {
		t.Fatalf("exit %d, want 0\nstdout:\n%s\nstderr:\n%s", code, out, stderr)
	}
	wantLines(t, out, "ok   read  POST /v3/payments/filter filterRangeType=PAYMENT_STATUS_LAST_UPDATED: not taken by this server; each poll reads every unfinished payment again")
}

// TestDoctorWrongSecrets: a wrong payments secret, a wrong wallet secret
// and an unknown custody domain each fail with the guidance of wire/apierr
// and exit 1; the secrets, wrong or right, are never printed.
func TestDoctorWrongSecrets(t *testing.T) {
	srv := sandboxtest.Listen(t, nowOptions())
	domain := srv.Credentials().CustodyDomainID
	path := profiletest.Write(t, srv, clitest.FreeAddr(t), func(yaml, secrets string) string {
		writeSecret(t, secrets, "payments_client_secret", "wrong-payments-secret")
		writeSecret(t, secrets, "wallet_client_secret", "wrong-wallet-secret")
		return strings.ReplaceAll(yaml, domain, "00000000-0000-4000-8000-00000000dead")
	})
	code, out, stderr := doctorRun(t, "--config", path)
	if code != 1 {
		t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, out, stderr)
	}
	wantLines(t, out,
		"FAIL payments", "FAIL auth  client_id sandbox-client: auth POST /v2/oauth/token: HTTP 401",
		"what to do: The payments token issuer refused the credentials (HTTP 401): check the client secret (profiles.local-sandbox.payments.client_secret_env or client_secret_file)",
		"FAIL reporting", "FAIL auth  payments token (client_id sandbox-client): auth POST /v2/oauth/token: HTTP 401",
		"FAIL auth  monitoring client_id monitoring: wallet POST /v2/credentials/oauth/token: HTTP 400 ERR000.020",
		"what to do: The wallet token exchange refused the client id or secret",
		"ok   auth  controls client_id controls: token issued",
		"FAIL auth  bearer token for domain 00000000-0000-4000-8000-00000000dead: custody GET /v1/domains/00000000-0000-4000-8000-00000000dead/endpoints: HTTP 404",
		"what to do: The custody service does not know this domain, or the token may not see it. Check profiles.local-sandbox.custody.domain_id",
		"ok   auth  bearer token accepted: GET /api/v0/quotes", // liquidity's token is right
		"4 of ", "checks failed: payments auth, reporting auth, wallet auth, custody auth")
	wantLines(t, stderr, "treasury: doctor: 4 checks failed")
	noSecrets(t, out+stderr, "wrong-payments-secret", "wrong-wallet-secret")
}

// TestDoctorWrongStaticTokens: a refused liquidity or custody token (a
// static bearer token from the profile) gets the guidance that names its
// settings, the words the dashboard shows for the same 401, never the OAuth
// advice of fetching a new token or checking client credentials.
func TestDoctorWrongStaticTokens(t *testing.T) {
	srv := sandboxtest.Listen(t, nowOptions())
	path := profiletest.Write(t, srv, clitest.FreeAddr(t), func(yaml, secrets string) string {
		writeSecret(t, secrets, "liquidity_token", "wrong-liquidity-token")
		writeSecret(t, secrets, "custody_token", "wrong-custody-token")
		return yaml
	})
	code, out, stderr := doctorRun(t, "--config", path)
	if code != 1 {
		t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, out, stderr)
	}
	wantLines(t, out,
		"what to do: The liquidity interface refused the profile's bearer token (HTTP 401): a static token is not renewed, so the request is not retried. Check profiles.local-sandbox.liquidity.token_env or token_file",
		"what to do: The custody interface refused the profile's bearer token (HTTP 401): a static token is not renewed, so the request is not retried. Check profiles.local-sandbox.custody.token_env or token_file",
		"checks failed: liquidity auth, custody auth")
	if strings.Contains(out, "client credentials") || strings.Contains(out, "new token is fetched") {
		t.Errorf("OAuth advice for a static token:\n%s", out)
	}
	noSecrets(t, out+stderr, "wrong-liquidity-token", "wrong-custody-token")
}

// TestDoctorUnreachable: every interface on a closed loopback port: the
// connection is refused, named, with the guidance to check the base URL,
// and no request is tried.
func TestDoctorUnreachable(t *testing.T) {
	srv := sandboxtest.Listen(t, nowOptions())
	closed := "http://" + clitest.FreeAddr(t)
	path := profiletest.Write(t, srv, clitest.FreeAddr(t), func(yaml, _ string) string {
		return strings.ReplaceAll(yaml, srv.URL, closed)
	})
	code, out, stderr := doctorRun(t, "--config", path)
	if code != 1 {
		t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, out, stderr)
	}
	host := strings.TrimPrefix(closed, "http://")
	wantLines(t, out, "FAIL liquidity  "+closed+"/liquidity",
		"FAIL tcp   "+host+": connection refused",
		"what to do: The interface could not be reached: not retried. Check profiles.local-sandbox.liquidity.base_url and the network",
		"Check profiles.local-sandbox.custody.base_url",
		"--   auth  not tried: the address cannot be reached",
		"--   skew  no server answered")
	if n := strings.Count(out, "connection refused"); n != 5 {
		t.Errorf("%d refused connections named, want one per interface:\n%s", n, out)
	}
}

// TestDoctorWebhookPortInUse: the receiver's port is held by a listener
// of this test: the doctor names the address and this process.
func TestDoctorWebhookPortInUse(t *testing.T) {
	srv := sandboxtest.Listen(t, nowOptions())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	addr := ln.Addr().String()
	path := profiletest.Write(t, srv, addr, nil)
	code, out, stderr := doctorRun(t, "--config", path)
	if code != 1 {
		t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, out, stderr)
	}
	wantLines(t, out, "FAIL webhooks   "+addr,
		fmt.Sprintf("FAIL port  %s is in use by", addr), fmt.Sprintf("(pid %d): payment states come from polling alone", os.Getpid()),
		"what to do: Stop the process that holds it", "profiles.local-sandbox.webhooks.listen",
		"ok   cert  the receiver's certificate localhost expires in 36", // a year
		"ok   key   notifications verified with the Ed25519 key SHA256:",
		"webhook signatures are accepted within 5m0s",
		"1 of ", "checks failed: webhooks port")
}

// TestDoctorTimeout: a server that accepts connections but never answers
// fails the request with the timeout and its guidance, within --timeout.
func TestDoctorTimeout(t *testing.T) {
	srv := sandboxtest.Listen(t, nowOptions())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() { // accept and hold every connection, answering nothing
		var held []net.Conn
		defer func() {
			for _, c := range held {
				c.Close()
			}
		}()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			held = append(held, c)
		}
	}()
	silent := "http://" + ln.Addr().String()
	path := profiletest.Write(t, srv, clitest.FreeAddr(t), func(yaml, _ string) string {
		return strings.Replace(yaml, srv.URL+"/liquidity", silent+"/liquidity", 1)
	})
	var buf bytes.Buffer
	e, errBuf := clitest.Env(t, &buf)
	code := clitest.Run(context.Background(), Command, e, "--config", path, "--timeout", "300ms")
	out, stderr := buf.String(), errBuf.String()
	if code != 1 {
		t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, out, stderr)
	}
	wantLines(t, out, "each check bounded by 300ms",
		"ok   tcp   connected to "+ln.Addr().String(),
		"FAIL auth  bearer token: liquidity GET "+silent+"/liquidity/api/v0/quotes: no answer within 300ms",
		"what to do: The interface accepted the connection but did not answer in time",
		"1 of ", "checks failed: liquidity auth")
}

func TestDoctorUsage(t *testing.T) {
	for _, args := range [][]string{{"--timeout", "0"}, {"--timeout", "soon"}, {"extra"}} {
		var out bytes.Buffer
		e, stderr := clitest.Env(t, &out)
		if code := clitest.Run(context.Background(), Command, e, args...); code != 2 || out.Len() > 0 {
			t.Errorf("doctor %v: exit %d, stdout %q, stderr %q; want 2 and nothing", args, code, out.String(), stderr)
		}
	}
	var out bytes.Buffer
	e, stderr := clitest.Env(t, &out)
	if code := clitest.Run(context.Background(), Command, e, "--help"); code != 0 || !strings.Contains(stderr.String(), "exit status:") {
		t.Errorf("doctor --help: exit %d, stderr %q", code, stderr)
	}
}

// TestDoctorMarks: symbols in colour on a terminal; words with NO_COLOR,
// TERM=dumb or when not a terminal.
func TestDoctorMarks(t *testing.T) {
	env := func(vars map[string]string) func(string) string { return func(k string) string { return vars[k] } }
	for _, tc := range []struct {
		terminal bool
		vars     map[string]string
		want     bool
	}{
		{true, map[string]string{"TERM": "xterm-256color"}, true},
		{true, map[string]string{"TERM": "xterm-256color", "NO_COLOR": "1"}, false},
		{true, map[string]string{"TERM": "dumb"}, false},
		{true, map[string]string{}, false},
		{false, map[string]string{"TERM": "xterm-256color"}, false},
	} {
		if got := fancyMarks(tc.terminal, env(tc.vars)); got != tc.want {
			t.Errorf("terminal %v, env %v: fancy %v, want %v", tc.terminal, tc.vars, got, tc.want)
		}
	}
}

func TestWrapWords(t *testing.T) {
	got := wrapWords("bearer token accepted: GET /v1/domains/7b0b6f9e-3f7a-4d47-9a52-2a4c1d7e0001/endpoints limit=1", 30)
	want := []string{"bearer token accepted: GET", "/v1/domains/7b0b6f9e-3f7a-4d47-9a52-2a4c1d7e0001/endpoints", "limit=1"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestDoctorPlatformClockAhead: against a sandbox whose clock runs ten
// minutes ahead of this host's (as a --speed 10 sandbox after a minute),
// the doctor names the offset from the Date headers and, per interface,
// where the newest record stands against the Date of its answer.
func TestDoctorPlatformClockAhead(t *testing.T) {
	o := sandboxtest.Options()
	o.Frozen, o.Start, o.Speed = false, time.Now().Add(10*time.Minute), 1
	srv := sandboxtest.Listen(t, o)
	path := profiletest.Write(t, srv, clitest.FreeAddr(t), nil)
	_, out, stderr := doctorRun(t, "--config", path)
	wantLines(t, out, "skew  this host's clock is 10m", "behind the",
		"records liquidity: the newest quote is stamped ahead of this host's clock by 10m",
		"records payments: the newest payment is stamped")
	if strings.Contains(out, "ahead of the Date") {
		t.Errorf("a record said to be ahead of its own answer's Date:\n%s\n%s", out, stderr)
	}
}
