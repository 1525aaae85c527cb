package client

import "testing"

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
