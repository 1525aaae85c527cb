package sandbox_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"treasury/kit/pubkey"
	"treasury/sandbox"
	"treasury/sandbox/contract"
	"treasury/sandbox/sandboxtest"
	"treasury/wire/apierr"
	"treasury/wire/payments"
)

func send(t *testing.T, method, url, body string) (int, []byte) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	req.Header.Set(contract.ProbeHeader, "test")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

func TestControlAPI(t *testing.T) {
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	ctl := srv.Endpoints().Control

	var info sandbox.Info
	if st := sandboxtest.Get(t, ctl+"/info", "", &info); st != 200 {
		t.Fatalf("info: HTTP %d", st)
	}
	if info.Seed != 1 || !info.Frozen || info.Interfaces["wallet"] != "/wallet" || info.Credentials.PaymentsClientID != "sandbox-client" {
		t.Fatalf("info = %+v", info)
	}
	if _, err := pubkey.ParsePEM([]byte(info.WebhookPublicKey)); err != nil {
		t.Fatalf("webhook public key: %v", err)
	}

	// PATCH merges, PUT replaces, bad values are refused with a reason.
	if st, b := send(t, "PATCH", ctl+"/faults", `{"error_rate":0.5}`); st != 200 || !strings.Contains(string(b), `"error_rate":0.5`) {
		t.Fatalf("patch faults: %d %s", st, b)
	}
	if st, _ := send(t, "PATCH", ctl+"/faults", `{"hostile":true}`); st != 200 || srv.Faults().ErrorRate != 0.5 || !srv.Faults().Hostile {
		t.Fatalf("patch did not merge: %d %+v", st, srv.Faults())
	}
	if st, _ := send(t, "PUT", ctl+"/faults", `{"latency":"5ms"}`); st != 200 || srv.Faults().ErrorRate != 0 || time.Duration(srv.Faults().Latency) != 5*time.Millisecond {
		t.Fatalf("put did not replace: %d %+v", st, srv.Faults())
	}
	for _, bad := range []string{`{"error_rate":2}`, `{"latency":"soon"}`, `{"bogus":1}`, `not json`} {
		if st, b := send(t, "PUT", ctl+"/faults", bad); st != 400 || !strings.Contains(string(b), "faults") {
			t.Errorf("PUT faults %s: %d %s, want 400", bad, st, b)
		}
	}

	// The clock moves only when told.
	before := srv.Clock().Now()
	if st, _ := send(t, "POST", ctl+"/clock/advance", `{"by":"90m"}`); st != 200 || !srv.Clock().Now().Equal(before.Add(90*time.Minute)) {
		t.Fatalf("advance: %d, now %v", st, srv.Clock().Now())
	}
	if st, _ := send(t, "POST", ctl+"/clock/advance", `{"by":"-1h"}`); st != 400 {
		t.Fatalf("negative advance: %d, want 400", st)
	}

	// Webhook callbacks must be https.
	if st, _ := send(t, "PUT", ctl+"/webhooks", `{"url":"http://127.0.0.1:1/hook"}`); st != 400 {
		t.Fatalf("plain-http callback accepted: %d", st)
	}
	if st, b := send(t, "PUT", ctl+"/webhooks", `{"url":"https://127.0.0.1:1/hook","duplicate_rate":0.1}`); st != 200 || srv.Webhooks().DuplicateRate != 0.1 {
		t.Fatalf("set webhooks: %d %s", st, b)
	}
	if st, _ := send(t, "GET", ctl+"/nothing", ""); st != 404 {
		t.Fatalf("unknown control path: %d", st)
	}
}

// TestFaultShapes checks that injected faults arrive in each interface's own
// error shape, so clients classify them as the spec says.
func TestFaultShapes(t *testing.T) {
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	ep := srv.Endpoints()
	srv.SetFaults(sandbox.FaultSettings{ErrorRate: 1})
	st, b := send(t, "GET", ep.Auth+payments.PathTokenTest, "")
	if e := apierr.Parse(apierr.Auth, "GET", "", st, b); st != 500 || !strings.Contains(string(b), "server_error") || e.Class != apierr.ClassRetry {
		t.Fatalf("auth 500: %d %s", st, b)
	}
	st, b = send(t, "GET", ep.Payments+payments.PathIdentities, "")
	if e := apierr.Parse(apierr.Payments, "GET", "", st, b); st != 500 || !strings.HasPrefix(e.Code, "SYS_") || e.Type != apierr.TypeSystem || e.Class != apierr.ClassRetry {
		t.Fatalf("payments 500: %d %s", st, b)
	}
	st, b = send(t, "GET", ep.Wallet+"/v2/vaults", "")
	if e := apierr.Parse(apierr.Wallet, "GET", "", st, b); st != 500 || e.GRPCCode != apierr.GRPCInternal || e.RequestID == "" || e.Class != apierr.ClassRetry {
		t.Fatalf("wallet 500: %d %s", st, b)
	}
	st, b = send(t, "GET", ep.Liquidity+"/api/v0/quotes", "")
	var plain apierr.PlainBody
	if json.Unmarshal(b, &plain); st != 500 || plain.Status != 500 {
		t.Fatalf("liquidity 500: %d %s", st, b)
	}
	srv.SetFaults(sandbox.FaultSettings{UnavailableRate: 1})
	st, b = send(t, "GET", ep.Wallet+"/v2/vaults", "")
	if e := apierr.Parse(apierr.Wallet, "GET", "", st, b); st != 503 || e.GRPCCode != apierr.GRPCUnavailable {
		t.Fatalf("wallet 503: %d %s", st, b)
	}
	srv.SetFaults(sandbox.FaultSettings{MalformedRate: 1})
	body, _ := json.Marshal(payments.TokenRequest{GrantType: "client_credentials", ClientID: "sandbox-client", ClientSecret: "sandbox-secret", Audience: "urn:payments-test:sandbox"})
	resp, err := http.Post(ep.Auth+payments.PathToken, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	var tok payments.TokenResponse
	if resp.StatusCode != 200 || json.Unmarshal(raw, &tok) == nil {
		t.Fatalf("malformed fault gave HTTP %d with a valid body %s", resp.StatusCode, raw)
	}
}
