package sandbox_test

import (
	"encoding/json"
	"slices"
	"testing"

	"treasury/sandbox/contract"
	"treasury/sandbox/sandboxtest"
	"treasury/wire/payments"
)

// TestPaymentsCoverTheDocument: every property of PaymentWithDetailsV2,
// optional ones included, is on some payment the sandbox answers by id, so
// the client meets each field production may send (QUOTED without
// initiatedAt, JIT funding, taxes, payout execution details with tracking
// references, a crypto payout's hash and network...).
func TestPaymentsCoverTheDocument(t *testing.T) {
	e := payStart(t, nil)
	doc, err := contract.Load()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var walk func(v any, prefix string)
	walk = func(v any, prefix string) {
		switch x := v.(type) {
		case map[string]any:
			for k, c := range x {
				seen[prefix+k] = true
				walk(c, prefix+k+".")
			}
		case []any:
			for _, c := range x {
				walk(c, prefix)
			}
		}
	}
	for _, p := range payFilterAll(t, e, payments.Filter{}, 100) {
		st, _, body := sandboxtest.Send(t, "GET", e.base+payments.PathPaymentV3+p.PaymentID, e.tok, nil)
		var v any
		if err := json.Unmarshal(body, &v); st != 200 || err != nil {
			t.Fatalf("GET %s: HTTP %d %v", p.PaymentID, st, err)
		}
		walk(v, "")
	}
	props := doc.Properties("PaymentWithDetailsV2")
	if len(props) < 40 {
		t.Fatalf("only %d properties read from the document: %v", len(props), props)
	}
	var missing []string
	for _, prop := range props {
		if !seen[prop] {
			missing = append(missing, prop)
		}
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		t.Errorf("properties of PaymentWithDetailsV2 on no payment of the sandbox: %v", missing)
	}
}
