package sandbox_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
	"treasury/wire/apierr"
	"treasury/wire/payments"
	"treasury/wire/reporting"
	"treasury/wire/wallet"
)

// TestSpec7_UnavailableBodies checks that an injected 503 arrives in each
// interface's own error model: the payments error object (SYS_, type
// SYSTEM_ERROR, status 503) for payments, auth and reporting; gRPC 14
// UNAVAILABLE with ErrorInfo and RequestInfo for wallet; the plain body for
// liquidity and custody.
func TestSpec7_UnavailableBodies(t *testing.T) {
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	ep := srv.Endpoints()
	if err := srv.SetFaults(sandbox.FaultSettings{UnavailableRate: 1}); err != nil {
		t.Fatal(err)
	}
	st, h, b := sandboxtest.Send(t, http.MethodGet, ep.Auth+payments.PathTokenTest, "", nil)
	var oe sandboxtest.PayErr
	if json.Unmarshal(b, &oe); st != 503 || oe.OAuth != "temporarily_unavailable" || h.Get("Retry-After") == "" {
		t.Fatalf("auth 503: HTTP %d Retry-After %q %s, want OAuth's temporarily_unavailable", st, h.Get("Retry-After"), b)
	}
	for name, url := range map[string]string{
		"payments":  ep.Payments + payments.PathIdentities,
		"reporting": ep.Reporting + reporting.PathReports,
	} {
		st, h, b := sandboxtest.Send(t, http.MethodGet, url, "", nil)
		e := expectPayments(t, name+" 503", st, b, 503, "SYS_002", apierr.TypeSystem)
		if h.Get("Retry-After") == "" || apierr.Parse(apierr.Payments, "GET", "", st, b).Class != apierr.ClassRetry || e.Title == "" {
			t.Fatalf("%s 503: Retry-After %q, body %s", name, h.Get("Retry-After"), b)
		}
	}
	st, _, b = sandboxtest.Send(t, http.MethodGet, ep.Wallet+wallet.PathVaults, "", nil)
	expectWallet(t, "wallet 503", st, b, apierr.GRPCUnavailable, "ERR000.021")
	for name, url := range map[string]string{"liquidity": ep.Liquidity + "/api/v0/quotes", "custody": ep.Custody + "/v1/domains/x/endpoints"} {
		st, _, b := sandboxtest.Send(t, http.MethodGet, url, "", nil)
		sandboxtest.ExpectPlain(t, name+" 503", st, b, 503)
	}
}
