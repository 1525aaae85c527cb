package sandbox_test

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"slices"
	"testing"

	"treasury/sandbox/sandboxtest"
	"treasury/wire/custody"
)

// TestVariantCustody checks the custody variant: limit capped at 50 (the
// default face keeps 100), sortBy and sortOrder ignored, createdBy as an
// object, customProperties of mixed types, the ABI as a JSON array, ""
// descriptions where there is no listing, extras, signatures over the
// reshaped data, and problem details for errors.
func TestVariantCustody(t *testing.T) {
	def, vr := faces(t)
	c := def.Credentials()
	list := "/v1/domains/" + c.CustodyDomainID + "/endpoints"
	st, h, b := sandboxtest.Send(t, http.MethodGet, vr.Endpoints().Custody+list+"?limit=51", c.CustodyToken, nil)
	expectProblem(t, "variant limit 51", st, h, b, 400, "limit")
	if st := sandboxtest.Get(t, def.Endpoints().Custody+list+"?limit=100", c.CustodyToken, nil); st != 200 {
		t.Fatalf("default limit 100: HTTP %d", st)
	}
	st, h, b = sandboxtest.Send(t, http.MethodGet, vr.Endpoints().Custody+"/v1/domains/nope/endpoints", c.CustodyToken, nil)
	expectProblem(t, "variant unknown domain", st, h, b, 404, "nope")

	// sortBy and sortOrder: refused or obeyed by default, ignored here.
	st, _, b = sandboxtest.Send(t, http.MethodGet, def.Endpoints().Custody+list+"?sortBy=bogus", c.CustodyToken, nil)
	sandboxtest.ExpectPlain(t, "default sortBy bogus", st, b, 400)
	ids := func(url string) []string {
		var p struct {
			Items []struct{ Data struct{ ID string } }
		}
		if st := sandboxtest.Get(t, url, c.CustodyToken, &p); st != 200 {
			t.Fatalf("GET %s: HTTP %d", url, st)
		}
		var out []string
		for _, it := range p.Items {
			out = append(out, it.Data.ID)
		}
		return out
	}
	plain := ids(vr.Endpoints().Custody + list + "?limit=50")
	for _, q := range []string{"?limit=50&sortBy=alias&sortOrder=desc", "?limit=50&sortBy=bogus&sortOrder=sideways"} {
		if got := ids(vr.Endpoints().Custody + list + q); !slices.Equal(got, plain) {
			t.Fatalf("variant %s changed the order", q)
		}
	}
	if slices.Equal(ids(def.Endpoints().Custody+list+"?limit=50&sortBy=alias&sortOrder=desc"), plain) {
		t.Fatal("the default face ignores sortBy too: the check above proves nothing")
	}

	var page struct {
		Items []struct {
			Data       json.RawMessage
			Signature  string
			SigningKey string
		}
	}
	vm := rawObject(t, http.MethodGet, vr.Endpoints().Custody+list+"?limit=50", c.CustodyToken, nil, 200)
	expectExtras(t, "variant endpoints", vm, "items", true)
	sandboxtest.Get(t, vr.Endpoints().Custody+list+"?limit=50", c.CustodyToken, &page)
	var abi, blank, listed int
	for i, it := range page.Items {
		key, _ := base64.StdEncoding.DecodeString(it.SigningKey)
		sig, _ := base64.StdEncoding.DecodeString(it.Signature)
		if len(key) != ed25519.PublicKeySize || !ed25519.Verify(key, it.Data, sig) {
			t.Fatalf("item %d: the signature does not verify over the data as sent", i)
		}
		dec := json.NewDecoder(bytes.NewReader(it.Data))
		dec.UseNumber()
		var d map[string]any
		dec.Decode(&d)
		if !hasExtras(d) {
			t.Fatalf("item %d data lacks the extras: %v", i, d)
		}
		meta := d["metadata"].(map[string]any)
		by, _ := meta["createdBy"].(map[string]any)
		if by["id"] == "" || by["name"] == "" {
			t.Fatalf("item %d createdBy %#v, want {id, name}", i, meta["createdBy"])
		}
		props := meta["customProperties"].(map[string]any)
		if props["tier"] != json.Number("3") || props["reviewed"] != true {
			t.Fatalf("item %d customProperties %v", i, props)
		}
		if l, has := props["listing"]; has {
			listed++
			if _, ok := l.(string); !ok || meta["description"] == "" {
				t.Fatalf("item %d: listing %#v, description %#v", i, l, meta["description"])
			}
		} else if meta["description"] == "" {
			blank++
		} else {
			t.Fatalf("item %d has no listing but a description %#v", i, meta["description"])
		}
		if p, ok := d["parameters"].(map[string]any); ok {
			if a, ok := p["ABI"].([]any); !ok || len(a) == 0 {
				t.Fatalf("item %d ABI %#v, want a JSON array", i, p["ABI"])
			}
			abi++
		}
	}
	if abi == 0 || blank == 0 || listed == 0 {
		t.Fatalf("the first 50 endpoints lack a case: %d with an ABI, %d blank descriptions, %d listed", abi, blank, listed)
	}

	// GET one is reshaped and signed the same way; the default face's ABI is
	// a string and its createdBy a string.
	id := page.Items[0].Data
	var first struct{ ID string }
	json.Unmarshal(id, &first)
	var one struct {
		Data      json.RawMessage
		Signature string
	}
	sandboxtest.Get(t, vr.Endpoints().Custody+list+"/"+first.ID, c.CustodyToken, &one)
	sig, _ := base64.StdEncoding.DecodeString(one.Signature)
	if !bytes.Equal(one.Data, id) || !ed25519.Verify(ed25519.PublicKey(mustB64(t, page.Items[0].SigningKey)), one.Data, sig) {
		t.Fatalf("GET one: data %s, want %s with a valid signature", one.Data, id)
	}
	var d custody.SignedEndpoint
	sandboxtest.Get(t, def.Endpoints().Custody+list+"/"+first.ID, c.CustodyToken, &d)
	if d.Data.Metadata.CreatedBy == "" {
		t.Fatal("default createdBy is not a string")
	}
}

func mustB64(t *testing.T, s string) []byte {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
