package contract

import (
	"net/http"
	"slices"
	"strings"
	"testing"
)

const okPayment = `{"paymentId":"7ea3399c-1234-4678-8d8f-d320ea406630","paymentState":"FAILED","originator":{"sourceCurrency":"USD","sourceAmount":7.75E7},` +
	`"errors":[{"code":"USR_031","type":"USER_ERROR","title":"t","description":"d","timestamp":"2026-11-16T09:30:00Z"}]}`

func jsonType() http.Header { return http.Header{"Content-Type": {"application/json"}} }

func auth() http.Header {
	return http.Header{"Authorization": {"Bearer t"}, "Content-Type": {"application/json"}}
}

func probe() http.Header {
	h := auth()
	h.Set(ProbeHeader, "test")
	return h
}

// TestCheckFindsWhatTheDocumentRefuses: the checker is not a rubber stamp:
// each exchange below breaks the document in one way and is named, and
// the exchanges that keep it pass.
func TestCheckFindsWhatTheDocumentRefuses(t *testing.T) {
	d, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	filter := func(sort string) []byte {
		return []byte(`{"sort":{"sortField":"` + sort + `","sortDirection":"DESC"},"page":{"size":10}}`)
	}
	for _, c := range []struct {
		name string
		x    Exchange
		want string // "" when the exchange keeps the document
	}{
		{"a payment read by id", Exchange{Method: "GET", Path: "/v3/payments/7ea3399c-1234-4678-8d8f-d320ea406630", Header: auth(),
			Status: 200, RespHeader: jsonType(), RespBody: []byte(okPayment)}, ""},
		{"the client sorts by the spec's CREATED_AT", Exchange{Method: "POST", Path: "/v3/payments/filter", Header: auth(), Body: filter("CREATED_AT"),
			Status: 400, RespHeader: jsonType()}, "the client sent a request the document refuses"},
		{"a test's CREATED_AT, refused", Exchange{Method: "POST", Path: "/v3/payments/filter", Header: probe(), Body: filter("CREATED_AT"),
			Status: 400, RespHeader: jsonType(), RespBody: []byte(`{"status":"400","errors":{"code":"USR_001","type":"X","title":"t","description":"d","timestamp":"2026-11-16T09:30:00Z"}}`)}, ""},
		{"a test's CREATED_AT, served", Exchange{Method: "POST", Path: "/v3/payments/filter", Header: probe(), Body: filter("CREATED_AT"),
			Status: 200, RespHeader: jsonType(), RespBody: []byte(`{"data":[]}`)}, "yet the sandbox answered 200"},
		{"an error status as a number", Exchange{Method: "POST", Path: "/v3/payments/filter", Header: probe(), Body: filter("initiatedAt"),
			Status: 400, RespHeader: jsonType(), RespBody: []byte(`{"status":400,"errors":{"code":"USR_001","type":"X","title":"t","description":"d","timestamp":"2026-11-16T09:30:00Z"}}`)}, `Error at "/status"`},
		{"the spec's GET /v3/payments answered", Exchange{Method: "GET", Path: "/v3/payments?internalId=INV-1", Header: probe(),
			Status: 200, RespHeader: jsonType(), RespBody: []byte(`{"data":[]}`)}, "the document has no such operation"},
		{"the spec's GET /v3/payments refused", Exchange{Method: "GET", Path: "/v3/payments?internalId=INV-1", Header: probe(),
			Status: 405, RespHeader: jsonType(), RespBody: []byte(`{}`)}, ""},
		{"a state the document does not list", Exchange{Method: "GET", Path: "/v3/payments/7ea3399c-1234-4678-8d8f-d320ea406630", Header: auth(),
			Status: 200, RespHeader: jsonType(), RespBody: []byte(strings.Replace(okPayment, "FAILED", "EXECUTING", 1))}, "allowed values"},
		{"a ledger without its window", Exchange{Method: "GET", Path: "/v2/ledger-transactions?currency=USD&page-size=10", Header: auth(),
			Status: 400, RespHeader: jsonType()}, `"start-dttm"`},
		{"an identity without version", Exchange{Method: "GET", Path: "/v3/identities?limit=1", Header: auth(), Status: 200, RespHeader: jsonType(),
			RespBody: []byte(`{"data":[{"identityId":"a","identityType":"BUSINESS","paymentRole":"ORIGINATOR","createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-01-01T00:00:00Z","identityState":"ACTIVE","schemaVersion":"1.0.0"}]}`)},
			`"version" is missing`},
		{"a payment id that is not a uuid", Exchange{Method: "GET", Path: "/v3/payments/INV-0000001", Header: auth(), Status: 400, RespHeader: jsonType()},
			`format "uuid"`},
	} {
		err := d.Check(c.x)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want a violation saying %q", c.name, err, c.want)
		}
	}
}

// TestProperties lists a schema's nested properties.
func TestProperties(t *testing.T) {
	d, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	ps := d.Properties("PaymentWithDetailsV2")
	for _, want := range []string{"paymentId", "initiatedAt", "originator.sourceAmount", "fees.feeBreakdown.feeName",
		"payoutExecutionDetails.trackingReferences.referenceType", "destination.selectedPaymentRail", "errors.code"} {
		if !slices.Contains(ps, want) {
			t.Errorf("no %s among %v", want, ps)
		}
	}
}
