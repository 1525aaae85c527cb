package client

import (
	"bytes"
	"encoding/json"
	"testing"

	"treasury/wire/payments"
	"treasury/wire/wiretest"
)

// TestTokenTestShapes reads the object and the array of one object.
func TestTokenTestShapes(t *testing.T) {
	for _, raw := range []string{`{"message":"token_ok","seconds_to_expiry":42}`, ` [{"message":"token_ok","seconds_to_expiry":42}]`} {
		tt, err := decodeTokenTest([]byte(raw))
		if err != nil || tt.Message != "token_ok" || tt.SecondsToExpiry != 42 {
			t.Fatalf("%s: %+v, %v", raw, tt, err)
		}
	}
	for _, raw := range []string{`[]`, `[{},{}]`, `"token_ok"`} {
		if _, err := decodeTokenTest([]byte(raw)); err == nil {
			t.Fatalf("%s: no error", raw)
		}
	}
}

// FuzzTokenTest: the token test's answer, an object or an array of one,
// reads as encoding/json reads it, and fails where it fails; an array of
// any other length fails.
func FuzzTokenTest(f *testing.F) {
	for _, s := range []string{`{"message":"token_ok","seconds_to_expiry":42}`, ` [{"message":"token_ok","seconds_to_expiry":42}] `,
		`[]`, `[{},{}]`, `"token_ok"`, `[{"seconds_to_expiry":"42"}]`, `[{}] x`, `[{}`, `{"message":null}`, `[null]`} {
		f.Add([]byte(s))
	}
	for _, b := range wiretest.Seeds("") {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		got, err := decodeTokenTest(raw)
		var one payments.TokenTest
		var arr []payments.TokenTest
		var want payments.TokenTest
		var ok bool
		if trimmed := bytes.Trim(raw, " \t\r\n"); len(trimmed) > 0 && trimmed[0] == '[' {
			ok = json.Unmarshal(raw, &arr) == nil && len(arr) == 1
			if ok {
				want = arr[0]
			}
		} else {
			ok = json.Unmarshal(raw, &one) == nil
			want = one
		}
		if ok != (err == nil) || ok && got != want {
			t.Fatalf("%q: %+v, %v; encoding/json reads %+v (ok %v)", raw, got, err, want, ok)
		}
	})
}

// TestTokenTestAllocationBounded: a megabyte of array costs what its
// first element does.
func TestTokenTestAllocationBounded(t *testing.T) {
	wiretest.Bounded(t, "", func(b []byte) { _, _ = decodeTokenTest(b) })
}
