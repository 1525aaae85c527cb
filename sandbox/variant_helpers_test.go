package sandbox_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"

	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
)

// faces starts a default and a variant sandbox on the same seed.
func faces(t *testing.T) (def, vr *sandbox.Server) {
	t.Helper()
	return sandboxtest.Listen(t, sandboxtest.Options()), sandboxtest.Listen(t, sandboxtest.VariantOptions())
}

// rawJSON sends a request and decodes the answer as generic JSON with
// numbers kept as json.Number, so that a test sees the wire types.
func rawJSON(t *testing.T, method, url, tok string, body []byte) (int, http.Header, any) {
	t.Helper()
	st, h, b := sandboxtest.Send(t, method, url, tok, body)
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%s %s: HTTP %d, body is not JSON (%v): %.300s", method, url, st, err, b)
	}
	return st, h, v
}

// rawObject is rawJSON of an answer that must be a JSON object of status
// want.
func rawObject(t *testing.T, method, url, tok string, body []byte, want int) map[string]any {
	t.Helper()
	st, _, v := rawJSON(t, method, url, tok, body)
	m, ok := v.(map[string]any)
	if st != want || !ok {
		t.Fatalf("%s %s: HTTP %d %v, want an object of status %d", method, url, st, v, want)
	}
	return m
}

// objects returns the objects of array key of m.
func objects(t *testing.T, m map[string]any, key string) []map[string]any {
	t.Helper()
	a, ok := m[key].([]any)
	if !ok {
		t.Fatalf("%s is not an array in %v", key, m)
	}
	out := make([]map[string]any, len(a))
	for i, x := range a {
		if out[i], ok = x.(map[string]any); !ok {
			t.Fatalf("%s[%d] is not an object: %v", key, i, x)
		}
	}
	return out
}

// hasExtras reports whether an object carries the variant's extra fields.
func hasExtras(m map[string]any) bool {
	links, _ := m["_links"].(map[string]any)
	tags, _ := m["tags"].([]any)
	ext, _ := m["extension"].(map[string]any)
	nested, _ := ext["nested"].(map[string]any)
	return m["schemaVersion"] == json.Number("2") && links["self"] != nil && len(tags) == 1 && nested["x"] == json.Number("1")
}

// expectExtras fails unless the envelope and each record of key carry the
// extras in the variant, and none does in the default face.
func expectExtras(t *testing.T, what string, env map[string]any, key string, variant bool) {
	t.Helper()
	recs := []map[string]any{env}
	if key != "" {
		recs = append(recs, objects(t, env, key)...)
	}
	for i, r := range recs {
		if hasExtras(r) != variant {
			t.Fatalf("%s: object %d extras = %v, want %v: %v", what, i, hasExtras(r), variant, r)
		}
	}
}

// expectProblem fails unless an answer is RFC 7807 problem details of
// status want whose detail contains a text.
func expectProblem(t *testing.T, what string, st int, h http.Header, body []byte, want int, detail string) {
	t.Helper()
	var p struct {
		Type, Title, Detail string
		Status              int
	}
	if err := json.Unmarshal(body, &p); err != nil || st != want || p.Status != want || p.Type == "" || p.Title == "" ||
		h.Get("Content-Type") != "application/problem+json" || !bytes.Contains([]byte(p.Detail), []byte(detail)) {
		t.Fatalf("%s: HTTP %d %s %s, want problem+json %d with %q", what, st, h.Get("Content-Type"), body, want, detail)
	}
}
