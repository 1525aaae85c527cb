package apierr

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestSpec7_1_PaymentsBodyShapes(t *testing.T) {
	flat := `{"code":"USR_067","type":"USER_ERROR","status":402,"timestamp":"2026-11-02T10:00:00Z","title":"Insufficient balance","description":"Add funds."}`
	wrappedObj := `{"status":402,"errors":` + flat + `}`
	wrappedArr := `{"status":402,"errors":[` + flat + `]}`
	for name, body := range map[string]string{"flat": flat, "wrapped object": wrappedObj, "wrapped array": wrappedArr} {
		t.Run(name, func(t *testing.T) {
			e := Parse(Payments, "POST", "/v3/payments", 402, []byte(body))
			if e.Code != "USR_067" || e.Type != TypeUser || e.Title != "Insufficient balance" || e.Message != "Add funds." || e.Timestamp != "2026-11-02T10:00:00Z" {
				t.Fatalf("parsed %+v", e)
			}
			if e.Class != ClassResolve {
				t.Fatalf("class = %v, want %v", e.Class, ClassResolve)
			}
		})
	}
}

func TestSpec7_1_Classification(t *testing.T) {
	cases := []struct {
		status int
		code   string
		typ    string
		want   Class
	}{
		{400, "USR_001", TypeUser, ClassFixRequest},
		{415, "USR_010", TypeUser, ClassFixRequest},
		{404, "USR_002", TypeNotFound, ClassNotFound},
		{402, "USR_062", TypeUser, ClassResolve},
		{402, "USR_067", TypeUser, ClassResolve},
		{401, "AUTH_001", TypeAuth, ClassRefreshAuth},
		{401, "AUTH_003", TypeAuth, ClassRefreshAuth},
		{403, "AUTH_002", TypeAuth, ClassForbidden},
		{403, "AUTH_051", TypeAuth, ClassForbidden},
		{500, "SYS_001", TypeSystem, ClassRetry},
		{500, "CFG_001", TypeConfiguration, ClassOperator},
		// The code decides, not the HTTP status alone.
		{500, "CFG_009", "", ClassOperator},
		{503, "", "", ClassRetry},
	}
	for _, c := range cases {
		body, _ := json.Marshal(PaymentsBody{Code: c.code, Type: c.typ, Status: c.status, Title: "t"})
		if c.code == "" {
			body = []byte("<html>gateway</html>")
		}
		e := Parse(Payments, "GET", "/x", c.status, body)
		if e.Class != c.want {
			t.Errorf("%d %s: class %v, want %v", c.status, c.code, e.Class, c.want)
		}
		if e.Guidance() == "" {
			t.Errorf("%d %s: no guidance", c.status, c.code)
		}
	}
	if !ClassRetry.Retryable() || ClassOperator.Retryable() || ClassFixRequest.Retryable() || ClassRefreshAuth.Retryable() {
		t.Fatal("only transient classes are retried with backoff")
	}
}

func TestSpec7_2_WalletBody(t *testing.T) {
	body, _ := json.Marshal(WalletBody{Code: GRPCFailedPrecondition, Message: "cannot freeze",
		Details: []WalletDetail{ErrorInfo("ERR010.008", "wallet.example"), RequestInfo("req-1")}})
	// ErrorInfo always carries metadata, as the spec's object does.
	if !strings.Contains(string(body), `"metadata":{}`) || !strings.Contains(string(body), `"@type":"type.googleapis.com/google.rpc.ErrorInfo"`) {
		t.Fatalf("wallet body = %s", body)
	}
	e := Parse(Wallet, "PUT", "/v2/x/freeze", 400, body)
	if e.Code != "ERR010.008" || e.GRPCCode != 9 || e.Type != "FAILED_PRECONDITION" || e.Domain != "wallet.example" || e.RequestID != "req-1" || e.Class != ClassState {
		t.Fatalf("parsed %+v", e)
	}
	if !strings.Contains(e.Guidance(), "freezing") {
		t.Fatalf("guidance for ERR010.008 = %q", e.Guidance())
	}
	cases := map[int]Class{3: ClassFixRequest, 5: ClassNotFound, 6: ClassConflict, 7: ClassForbidden, 9: ClassState,
		12: ClassFixRequest, 13: ClassRetry, 14: ClassRetry, 16: ClassRefreshAuth}
	for code, want := range cases {
		b, _ := json.Marshal(WalletBody{Code: code, Message: "m"})
		if got := Parse(Wallet, "GET", "/", GRPCHTTPStatus(code), b).Class; got != want {
			t.Errorf("gRPC %d: class %v, want %v", code, got, want)
		}
	}
	// A 401 is only code 16 and Unauthorized.
	e = Parse(Wallet, "GET", "/v2/vaults", 401, []byte(`{"code":16,"message":"Unauthorized"}`))
	if e.Class != ClassRefreshAuth || e.Code != "" || e.Message != "Unauthorized" {
		t.Fatalf("401 parsed %+v", e)
	}
}

func TestPlainAndJunkBodies(t *testing.T) {
	e := Parse(Liquidity, "GET", "/api/v0/quotes", 400, []byte(`{"status":400,"error":"Bad Request","message":"pageSize above 1000"}`))
	if e.Message != "pageSize above 1000" || e.Class != ClassFixRequest {
		t.Fatalf("plain parsed %+v", e)
	}
	long := strings.Repeat("x", 500) + "\nsecond line"
	e = Parse(Custody, "GET", "/v1", 502, []byte(long))
	if e.Class != ClassRetry || len(e.Message) > 210 || strings.Contains(e.Message, "second") {
		t.Fatalf("junk body gave %q (class %v)", e.Message, e.Class)
	}
	if msg := e.Error(); !strings.Contains(msg, "custody GET /v1: HTTP 502") {
		t.Fatalf("Error() = %q", msg)
	}
}

// A 401 gets the advice of the interface's auth kind: a static bearer token
// (liquidity, custody) names the profile's token settings and is not said
// to be renewed; the OAuth interfaces keep the refresh advice.
func TestUnauthorizedGuidanceByAuthKind(t *testing.T) {
	for _, c := range []struct {
		iface     Interface
		key, want string
	}{
		{Liquidity, "profiles.uat.liquidity", "Check profiles.uat.liquidity.token_env or token_file"},
		{Custody, "profiles.uat.custody", "Check profiles.uat.custody.token_env or token_file"},
		{Liquidity, "", "Check the liquidity token_env or token_file of the profile"},
		{Wallet, "profiles.uat.wallet", "a new token is fetched and the request retried once"},
		{Reporting, "profiles.uat.reporting", "a new token is fetched and the request retried once"},
	} {
		e := &Error{Interface: c.iface, Method: "GET", Path: "/x", HTTPStatus: 401, Class: ClassRefreshAuth, ConfigKey: c.key}
		g := e.Guidance()
		if !strings.Contains(g, c.want) {
			t.Errorf("%s %q: guidance %q, want %q", c.iface, c.key, g, c.want)
		}
		if c.iface.StaticToken() && (strings.Contains(g, "client credentials") || strings.Contains(g, "new token is fetched")) {
			t.Errorf("%s: OAuth advice for a static token: %q", c.iface, g)
		}
	}
}
