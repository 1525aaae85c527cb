package variant

import (
	"encoding/json"
	"net/http"
	"strings"
)

// CustodyMaxLimit is the variant's limit cap on the endpoint list (the spec
// does not show one; the default face's is 100, as api-choices.md says).
const CustodyMaxLimit = 50

// custody ignores sortBy and sortOrder, reshapes endpoint data (createdBy
// as an object, customProperties of mixed types, the ABI as a JSON array,
// "" for the description of an endpoint without a listing) and signs it
// again, and answers errors as problem details.
type custody struct {
	base
	cfg Config
}

// before drops sortBy and sortOrder: this implementation does not sort on
// request, and a strict reader of the spec may not either.
func (custody) before(w http.ResponseWriter, r *http.Request) (*http.Request, bool) {
	q := r.URL.Query()
	if !q.Has("sortBy") && !q.Has("sortOrder") {
		return r, false
	}
	q.Del("sortBy")
	q.Del("sortOrder")
	r2 := r.Clone(r.Context())
	r2.URL.RawQuery = q.Encode()
	return r2, false
}

func (c custody) success(r *http.Request, v any) any {
	top, ok := v.(*object)
	if !ok {
		return v
	}
	signed := []*object{top}
	for _, it := range asArray(mustGet(top, "items")) {
		if o, ok := it.(*object); ok {
			signed = append(signed, o)
		}
	}
	for _, item := range signed {
		data := item.child("data")
		if data == nil {
			continue
		}
		self := r.URL.Path
		if id, _ := data.str("id"); strings.HasSuffix(self, "/endpoints") {
			self += "/" + id
		}
		endpointData(data, self)
		if c.cfg.SignCustody != nil {
			item.set("signature", c.cfg.SignCustody(marshal(data)))
		}
	}
	decorate(v, r.URL.Path)
	return v
}

func mustGet(o *object, key string) any {
	v, _ := o.get(key)
	return v
}

// endpointData reshapes the data of an endpoint.
func endpointData(d *object, self string) {
	if meta := d.child("metadata"); meta != nil {
		if by, ok := meta.str("createdBy"); ok {
			meta.set("createdBy", obj("id", by, "name", "Custody administrator"))
		}
		props := meta.child("customProperties")
		if props == nil {
			props = &object{}
			meta.set("customProperties", props)
		}
		if _, listed := props.get("listing"); !listed {
			meta.set("description", "")
		}
		props.set("tier", json.Number("3"))
		props.set("reviewed", true)
	}
	if params := d.child("parameters"); params != nil {
		if abi, ok := params.str("ABI"); ok && strings.HasPrefix(strings.TrimSpace(abi), "[") {
			if arr, err := parse([]byte(abi)); err == nil {
				params.set("ABI", arr)
			}
		}
	}
	extras(d, self)
}

func (custody) failure(status int, h http.Header, v any) any { return problem(status, h, v) }
