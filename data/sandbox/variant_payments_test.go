package sandbox_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"treasury/data/payments"
	"treasury/data/sandbox/sandboxtest"
)

// TestVariantPayments checks the payments variant: amounts as strings, no
// null txnReference, extras, the token test as an array of one object,
// errors wrapped as {status, errors: [...]}, and filter fields beyond
// paymentStates refused naming the field.
func TestVariantPayments(t *testing.T) {
	def, vr := faces(t)
	dtok, vtok := sandboxtest.PaymentsToken(t, def), sandboxtest.PaymentsToken(t, vr)
	filter := []byte(`{"filter":{"paymentStates":["COMPLETED","FAILED"]},"page":{"size":10}}`)
	dm := rawObject(t, http.MethodPost, def.Endpoints().Payments+payments.PathFilterV3, dtok, filter, 200)
	vm := rawObject(t, http.MethodPost, vr.Endpoints().Payments+payments.PathFilterV3, vtok, filter, 200)
	expectExtras(t, "default filter", dm, "data", false)
	expectExtras(t, "variant filter", vm, "data", true)
	for i, p := range objects(t, vm, "data") {
		d := objects(t, dm, "data")[i]
		for _, side := range [][2]string{{"originator", "sourceAmount"}, {"destination", "destinationAmount"}} {
			dn := d[side[0]].(map[string]any)[side[1]]
			vs := p[side[0]].(map[string]any)[side[1]]
			if _, ok := dn.(json.Number); !ok || vs != string(dn.(json.Number)) {
				t.Fatalf("data[%d].%s.%s: default %#v, variant %#v", i, side[0], side[1], dn, vs)
			}
		}
		fee := p["fees"].([]any)[0].(map[string]any)["totalFee"]
		if _, ok := fee.(string); !ok {
			t.Fatalf("data[%d] totalFee %#v, want a string", i, fee)
		}
	}

	ledger := "?currency=USD&page-size=50"
	dl := rawObject(t, http.MethodGet, def.Endpoints().Payments+payments.PathLedger+ledger, dtok, nil, 200)
	vl := rawObject(t, http.MethodGet, vr.Endpoints().Payments+payments.PathLedger+ledger, vtok, nil, 200)
	expectExtras(t, "variant ledger", vl, "statementTransactions", true)
	nulls := 0
	for i, x := range objects(t, vl, "statementTransactions") {
		d := objects(t, dl, "statementTransactions")[i]
		if ref, has := d["txnReference"]; has && ref == nil {
			nulls++
			if _, has := x["txnReference"]; has {
				t.Fatalf("ledger[%d]: txnReference present in the variant although null by default: %v", i, x)
			}
		}
		for _, k := range []string{"amount", "availableBalanceBefore", "availableBalanceAfter"} {
			if _, ok := x[k].(string); !ok {
				t.Fatalf("ledger[%d].%s = %#v, want a string", i, k, x[k])
			}
		}
	}
	if nulls == 0 {
		t.Fatal("no ledger record with a null txnReference in the default face")
	}
	vb := rawObject(t, http.MethodGet, vr.Endpoints().Payments+payments.PathBalances, vtok, nil, 200)
	for _, b := range objects(t, vb, "balances") {
		if _, ok := b["availableBalance"].(string); !ok {
			t.Fatalf("balance %v: availableBalance is not a string", b)
		}
	}

	// The token test answers an array of one object.
	_, _, dt := rawJSON(t, http.MethodGet, def.Endpoints().Auth+payments.PathTokenTest, dtok, nil)
	_, _, vt := rawJSON(t, http.MethodGet, vr.Endpoints().Auth+payments.PathTokenTest, vtok, nil)
	arr, ok := vt.([]any)
	if _, isObj := dt.(map[string]any); !isObj || !ok || len(arr) != 1 || arr[0].(map[string]any)["message"] != "token_ok" {
		t.Fatalf("token test: default %v, variant %v", dt, vt)
	}

	// Errors are wrapped, in payments, auth and reporting alike.
	for what, url := range map[string]string{
		"payments 404":  vr.Endpoints().Payments + "/v3/payments/00000000-0000-4000-8000-000000000000",
		"auth 401":      vr.Endpoints().Auth + payments.PathTokenTest,
		"reporting 400": vr.Endpoints().Reporting + "/v2/reports/not-a-uuid",
	} {
		tok := vtok
		if strings.HasPrefix(what, "auth") {
			tok = ""
		}
		st, _, v := rawJSON(t, http.MethodGet, url, tok, nil)
		m, _ := v.(map[string]any)
		errs, _ := m["errors"].([]any)
		if st < 400 || m["status"] != json.Number(itoa(st)) || len(errs) != 1 || errs[0].(map[string]any)["code"] == nil {
			t.Fatalf("%s: HTTP %d %v, want {status, errors: [{code...}]}", what, st, v)
		}
	}

	// Filter fields beyond paymentStates: accepted by default, refused by
	// the variant with the field named.
	for field, val := range map[string]string{"paymentIds": `["x"]`, "internalId": `"INV-0000001"`,
		"afterTimestamp": `"2026-11-01T00:00:00Z"`, "beforeTimestamp": `"2026-11-01T00:00:00Z"`, "destinationCurrencies": `["EUR"]`} {
		body := []byte(`{"filter":{"paymentStates":["COMPLETED"],"` + field + `":` + val + `}}`)
		if st := sandboxtest.Do(t, http.MethodPost, def.Endpoints().Payments+payments.PathFilterV3, dtok, json.RawMessage(body), nil); st != 200 {
			t.Fatalf("default filter.%s: HTTP %d", field, st)
		}
		for _, path := range []string{payments.PathFilterV3, payments.PathFilterV2} {
			st, _, v := rawJSON(t, http.MethodPost, vr.Endpoints().Payments+path, vtok, body)
			m, _ := v.(map[string]any)
			errs, _ := m["errors"].([]any)
			if st != 400 || len(errs) != 1 {
				t.Fatalf("variant %s filter.%s: HTTP %d %v", path, field, st, v)
			}
			e := errs[0].(map[string]any)
			if code, _ := e["code"].(string); !strings.HasPrefix(code, "USR_") || !strings.Contains(e["description"].(string), "filter."+field) {
				t.Fatalf("variant %s filter.%s: %v, want USR_ naming the field", path, field, e)
			}
		}
	}
	// Without a token the 401 comes first.
	st, _, _ := sandboxtest.Send(t, http.MethodPost, vr.Endpoints().Payments+payments.PathFilterV3, "", []byte(`{"filter":{"internalId":"x"}}`))
	if st != 401 {
		t.Fatalf("variant filter without a token: HTTP %d, want 401", st)
	}
}
