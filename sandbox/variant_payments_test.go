package sandbox_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"treasury/sandbox/sandboxtest"
	"treasury/wire/money"
	"treasury/wire/payments"
)

// TestVariantPayments checks the two faces of payments: the default face
// answers as the vendor's document (checked field by field by the contract
// check of every test), the variant as the spec's wording and another
// legal implementation: amounts as strings, no null txnReference, extras,
// the token test as the spec's object, errors as the spec's flat object,
// sort by CREATED_AT only, GET /v3/payments?internalId=, errors on the
// filter's records, a ledger window that defaults, filter fields beyond
// paymentStates refused naming the field.
func TestVariantPayments(t *testing.T) {
	def, vr := faces(t)
	dtok, vtok := sandboxtest.PaymentsToken(t, def), sandboxtest.PaymentsToken(t, vr)
	dp, vp := def.Endpoints().Payments, vr.Endpoints().Payments
	filter := []byte(`{"filter":{"paymentStates":["COMPLETED","FAILED"]},"page":{"size":60}}`)
	dm := rawObject(t, http.MethodPost, dp+payments.PathFilterV3, dtok, filter, 200)
	vm := rawObject(t, http.MethodPost, vp+payments.PathFilterV3, vtok, filter, 200)
	expectExtras(t, "default filter", dm, "data", false)
	expectExtras(t, "variant filter", vm, "data", true)
	failedWithErrors := 0
	for i, p := range objects(t, vm, "data") {
		d := objects(t, dm, "data")[i]
		for _, side := range [][2]string{{"originator", "sourceAmount"}, {"destination", "destinationAmount"}} {
			dn, isNum := d[side[0]].(map[string]any)[side[1]].(json.Number)
			vs, isStr := p[side[0]].(map[string]any)[side[1]].(string)
			if !isNum || !isStr || !money.MustParse(dn.String()).Equal(money.MustParse(vs)) {
				t.Fatalf("data[%d].%s.%s: default %#v, variant %#v", i, side[0], side[1], dn, vs)
			}
		}
		fee := p["fees"].([]any)[0].(map[string]any)["totalFee"]
		if _, ok := fee.(string); !ok {
			t.Fatalf("data[%d] totalFee %#v, want a string", i, fee)
		}
		// The document's filter records (PaymentV2) carry no errors; the
		// spec words the failure's code as part of the record.
		if _, has := d["errors"]; has {
			t.Fatalf("default data[%d] carries errors: %v", i, d)
		}
		if p["paymentState"] == "FAILED" {
			if errs, _ := p["errors"].([]any); len(errs) == 0 {
				t.Fatalf("variant FAILED data[%d] without errors: %v", i, p)
			}
			failedWithErrors++
		}
	}
	if failedWithErrors == 0 {
		t.Fatal("no FAILED payment among the first page")
	}

	// The spec's lookup and sort, only in the variant; the document's, only
	// in the default face.
	st, _, _ := sandboxtest.Send(t, http.MethodGet, dp+payments.PathPayments+"?internalId=INV-0000001", dtok, nil)
	vl := rawObject(t, http.MethodGet, vp+payments.PathPayments+"?internalId=INV-0000001", vtok, nil, 200)
	if st != http.StatusMethodNotAllowed || len(objects(t, vl, "data")) != 1 {
		t.Fatalf("GET /v3/payments?internalId=: default HTTP %d, variant %v", st, vl)
	}
	for _, c := range []struct {
		field            string
		defWant, varWant int
	}{{"CREATED_AT", 400, 200}, {"initiatedAt", 200, 400}, {"lastStateUpdatedAt", 200, 400}} {
		body := []byte(`{"sort":{"sortField":"` + c.field + `","sortDirection":"DESC"},"page":{"size":5}}`)
		ds, _, db := sandboxtest.Send(t, http.MethodPost, dp+payments.PathFilterV3, dtok, body)
		vs, _, vb := sandboxtest.Send(t, http.MethodPost, vp+payments.PathFilterV3, vtok, body)
		if ds != c.defWant || vs != c.varWant {
			t.Fatalf("sortField %s: default HTTP %d, variant %d; want %d and %d", c.field, ds, vs, c.defWant, c.varWant)
		}
		for _, r := range []struct {
			st int
			b  []byte
		}{{ds, db}, {vs, vb}} {
			if r.st == 400 && !bytes.Contains(r.b, []byte("sortField")) {
				t.Fatalf("sortField %s refused without naming the field: %s", c.field, r.b)
			}
		}
	}
	// A payment id that is not a uuid: the document refuses it (400), the
	// spec face looks it up (404).
	ds, _, _ := sandboxtest.Send(t, http.MethodGet, dp+payments.PathPaymentV3+"INV-0000001", dtok, nil)
	vs, _, _ := sandboxtest.Send(t, http.MethodGet, vp+payments.PathPaymentV3+"INV-0000001", vtok, nil)
	if ds != 400 || vs != 404 {
		t.Fatalf("GET /v3/payments/INV-0000001: default HTTP %d, variant %d; want 400 and 404", ds, vs)
	}
	// An identity without instruments: the document's 404, the spec face's
	// empty list.
	orig := def.Info().Samples["originator_identity_id"]
	ds, _, _ = sandboxtest.Send(t, http.MethodGet, dp+payments.PathIdentities+"/"+orig+payments.SuffixInstruments, dtok, nil)
	vi := rawObject(t, http.MethodGet, vp+payments.PathIdentities+"/"+orig+payments.SuffixInstruments, vtok, nil, 200)
	if ds != 404 || len(objects(t, vi, "data")) != 0 {
		t.Fatalf("instruments of an originator: default HTTP %d, variant %v", ds, vi)
	}

	// The ledger: the document requires a dated window, the variant
	// defaults it.
	window := "&start-dttm=2000-01-01T00:00:00Z&end-dttm=2100-01-01T00:00:00Z"
	ledger := "?currency=USD&page-size=50"
	if st, _, _ := sandboxtest.Send(t, http.MethodGet, dp+payments.PathLedger+ledger, dtok, nil); st != 400 {
		t.Fatalf("default ledger without a window: HTTP %d, want 400", st)
	}
	dl := rawObject(t, http.MethodGet, dp+payments.PathLedger+ledger+window, dtok, nil, 200)
	vl = rawObject(t, http.MethodGet, vp+payments.PathLedger+ledger, vtok, nil, 200)
	expectExtras(t, "variant ledger", vl, "statementTransactions", true)
	nulls := 0
	for i, x := range objects(t, vl, "statementTransactions") {
		d := objects(t, dl, "statementTransactions")[i]
		if ref, has := d["txnReference"]; has && ref == nil {
			if op := d["operation"]; op == "RESERVE" || op == "DEBIT" {
				t.Fatalf("default ledger[%d]: %s without txnReference", i, op)
			}
			if _, has := x["txnReference"]; has && d["txnSource"] == "BANK" {
				t.Fatalf("ledger[%d]: txnReference present in the variant for a bank credit: %v", i, x)
			}
			nulls++
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
	vb := rawObject(t, http.MethodGet, vp+payments.PathBalances, vtok, nil, 200)
	for _, b := range objects(t, vb, "balances") {
		if _, ok := b["availableBalance"].(string); !ok {
			t.Fatalf("balance %v: availableBalance is not a string", b)
		}
	}

	// The token test: the document's array of one object, the spec's object.
	_, _, dt := rawJSON(t, http.MethodGet, def.Endpoints().Auth+payments.PathTokenTest, dtok, nil)
	_, _, vt := rawJSON(t, http.MethodGet, vr.Endpoints().Auth+payments.PathTokenTest, vtok, nil)
	arr, ok := dt.([]any)
	if obj, isObj := vt.(map[string]any); !isObj || obj["message"] != "token_ok" || !ok || len(arr) != 1 || arr[0].(map[string]any)["message"] != "token_ok" {
		t.Fatalf("token test: default %v, variant %v", dt, vt)
	}

	// Errors are the spec's flat object in the variant, in payments, auth
	// and reporting alike.
	for what, url := range map[string]string{
		"payments 404": vp + "/v3/payments/00000000-0000-4000-8000-000000000000",
		"auth 401":     vr.Endpoints().Auth + payments.PathTokenTest,
	} {
		tok := vtok
		if strings.HasPrefix(what, "auth") {
			tok = ""
		}
		st, _, v := rawJSON(t, http.MethodGet, url, tok, nil)
		m, _ := v.(map[string]any)
		if _, wrapped := m["errors"]; st < 400 || wrapped || m["status"] != json.Number(itoa(st)) || m["code"] == nil || m["timestamp"] == nil {
			t.Fatalf("%s: HTTP %d %v, want the flat {code, type, status, timestamp...}", what, st, v)
		}
	}

	// Filter fields beyond paymentStates: accepted by default, refused by
	// the variant with the field named.
	for field, val := range map[string]string{"paymentIds": `["00000000-0000-4000-8000-000000000000"]`, "internalId": `"INV-0000001"`,
		"afterTimestamp": `"2026-11-01T00:00:00Z"`, "beforeTimestamp": `"2026-11-01T00:00:00Z"`, "destinationCurrencies": `["EUR"]`} {
		body := []byte(`{"filter":{"paymentStates":["COMPLETED"],"` + field + `":` + val + `}}`)
		if st := sandboxtest.Do(t, http.MethodPost, dp+payments.PathFilterV3, dtok, json.RawMessage(body), nil); st != 200 {
			t.Fatalf("default filter.%s: HTTP %d", field, st)
		}
		for _, path := range []string{payments.PathFilterV3, payments.PathFilterV2} {
			st, _, v := rawJSON(t, http.MethodPost, vp+path, vtok, body)
			e, _ := v.(map[string]any)
			if code, _ := e["code"].(string); st != 400 || !strings.HasPrefix(code, "USR_") || !strings.Contains(e["description"].(string), "filter."+field) {
				t.Fatalf("variant %s filter.%s: HTTP %d %v, want USR_ naming the field", path, field, st, v)
			}
		}
	}
	// Without a token the 401 comes first; a body without Content-Type is
	// read as JSON (the document refuses it: 415).
	st, _, _ = sandboxtest.Send(t, http.MethodPost, vp+payments.PathFilterV3, "", []byte(`{"filter":{"internalId":"x"}}`))
	if st != 401 {
		t.Fatalf("variant filter without a token: HTTP %d, want 401", st)
	}
}
