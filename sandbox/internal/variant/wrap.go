package variant

import (
	"encoding/json"
	"mime"
	"net/http"
	"time"

	"treasury/wire/apierr"
)

// Config is what the variant needs from the sandbox.
type Config struct {
	// Now is the sandbox clock: the timestamp of the payments errors the
	// variant writes itself.
	Now func() time.Time
	// SignCustody signs the exact bytes of an endpoint's data as the custody
	// service does, returning the base64 signature: the variant reshapes
	// data, so it signs it again.
	SignCustody func(data []byte) string
}

// face is the variant of one interface. Every method may assume the
// request reached the interface (the prefix is stripped).
type face interface {
	// before may rewrite the request, or answer it itself (true).
	before(w http.ResponseWriter, r *http.Request) (*http.Request, bool)
	// plan decides what to do with an answer when it starts.
	plan(r *http.Request, status int, h http.Header) plan
	// success reshapes the JSON document of a 2xx answer.
	success(r *http.Request, v any) any
	// failure reshapes the JSON document of an error answer; it may change
	// the headers (Content-Type).
	failure(status int, h http.Header, v any) any
}

// Wrap returns next answering as the variant face of iface: requests that
// the variant serves on other paths are rewritten, and JSON answers are
// reshaped. Interfaces without a variant are returned as they are.
func Wrap(iface apierr.Interface, cfg Config, next http.Handler) http.Handler {
	var f face
	switch iface {
	case apierr.Liquidity:
		f = liquidity{}
	case apierr.Auth:
		f = auth{cfg: cfg}
	case apierr.Payments:
		f = payments{cfg: cfg}
	case apierr.Reporting:
		f = reporting{cfg: cfg}
	case apierr.Wallet:
		f = wallet{}
	case apierr.Custody:
		f = custody{cfg: cfg}
	default:
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r, answered := f.before(w, r)
		if answered {
			return
		}
		c := newCapture(w, func(status int, h http.Header) plan { return f.plan(r, status, h) })
		next.ServeHTTP(c, r)
		status, body, ok := c.finish()
		if !ok {
			return
		}
		c.write(status, reshape(f, r, status, w.Header(), body))
	})
}

// reshape rewrites a buffered JSON answer; a body that is not JSON (the
// malformed-body fault) is left as it is.
func reshape(f face, r *http.Request, status int, h http.Header, body []byte) []byte {
	v, err := parse(body)
	if err != nil {
		return body
	}
	if status >= http.StatusBadRequest {
		return marshal(f.failure(status, h, v))
	}
	return marshal(f.success(r, v))
}

// isJSON reports whether a Content-Type is JSON.
func isJSON(h http.Header) bool {
	mt, _, err := mime.ParseMediaType(h.Get("Content-Type"))
	return err == nil && mt == "application/json"
}

// jsonPlan buffers JSON answers and passes the rest.
func jsonPlan(h http.Header) plan {
	if isJSON(h) {
		return plan{mode: buffered}
	}
	return plan{mode: passed}
}

// base is the part of a face that most interfaces share.
type base struct{}

func (base) before(w http.ResponseWriter, r *http.Request) (*http.Request, bool) { return r, false }
func (base) plan(r *http.Request, status int, h http.Header) plan                { return jsonPlan(h) }

// extras are the fields the variant adds to every record and envelope: a
// schema version, hypermedia links, tags and a nested extension, none of
// which the spec shows and all of which a tolerant reader ignores.
func extras(o *object, self string) {
	o.set("schemaVersion", json.Number("2"))
	o.set("_links", obj("self", obj("href", self)))
	o.set("tags", []any{"a"})
	o.set("extension", obj("nested", obj("x", json.Number("1"))))
}

// decorate adds the extras to the envelope (the top object) and to every
// record (each object in an array member of the envelope). A top object
// without arrays is a single record.
func decorate(v any, self string) {
	top, ok := v.(*object)
	if !ok {
		return
	}
	for _, m := range top.members {
		if a, ok := m.val.([]any); ok {
			for _, x := range a {
				if rec, ok := x.(*object); ok {
					extras(rec, self)
				}
			}
		}
	}
	extras(top, self)
}
