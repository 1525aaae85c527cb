// Package contract checks exchanges with the payments interface against the
// vendor's published OpenAPI document of it (reference/, Apache 2.0): the
// contract production servers keep. The sandbox agreeing with the client
// proves nothing; both agreeing with this document is what the tests hold
// them to.
//
// Check judges one exchange (a request and the answer it got):
//   - an operation the document does not have (GET /v3/payments, any /v2
//     payments path) must be refused with 404 or 405;
//   - a request the document refuses (a missing start-dttm, a non-uuid
//     paymentId, a sortField it does not list, a page size above its
//     maximum) must be refused with a 4xx, never served;
//   - an answer with a status the operation declares must match the
//     declared body, field by field (types, formats, required fields,
//     patterns, the closed value lists).
//
// A request is the client's unless it carries ProbeHeader: the tests' own
// hand-made requests (sandboxtest.Send) set it, so that a test may send
// what the document refuses to see the sandbox refuse it, while a request
// of the client that the document refuses is a violation even when the
// sandbox refused it too.
//
// Two readings make the document checkable as published, and both make it
// stricter, never looser:
//   - its info.version (2026.03) is a YAML number; it is read as the text
//     it is meant to be;
//   - value sets the document closes in words ("If an unsupported value is
//     provided, the request fails") but lists only as x-enumDescriptions
//     (PaymentSortFieldV2, PaymentFilterRangeTypeV2, PaymentStateV2, the
//     ledger's operation, txnSource and status, ...) are checked as enums:
//     the sandbox may send, and the client may ask for, only the values the
//     document lists. (Clients still accept values they do not know: real
//     services add states over time.)
//
// Only tests import this package: the binary does not carry the document
// or the validator.
package contract

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/dlclark/regexp2"
	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"go.yaml.in/yaml/v3"
)

//go:embed reference/payments-direct-openapi.yml
var document []byte

// ProbeHeader marks a request a test made by hand (see the package doc).
const ProbeHeader = "X-Sandbox-Probe"

// Document is the loaded, routable payments document.
type Document struct {
	doc    *openapi3.T
	router routers.Router
}

// load reads the embedded document once per test binary: it is immutable
// once loaded, and loading takes about 80 ms, which every sandbox of every
// test would otherwise pay.
var load = sync.OnceValues(func() (*Document, error) { return parse(document) })

// Load returns the payments document.
func Load() (*Document, error) { return load() }

func parse(src []byte) (*Document, error) {
	var tree map[string]any
	if err := yaml.Unmarshal(src, &tree); err != nil {
		return nil, fmt.Errorf("contract: read the document: %w", err)
	}
	if info, ok := tree["info"].(map[string]any); ok {
		info["version"] = fmt.Sprint(info["version"])
	}
	js, err := json.Marshal(tree)
	if err != nil {
		return nil, fmt.Errorf("contract: document to JSON: %w", err)
	}
	doc, err := openapi3.NewLoader().LoadFromData(js)
	if err != nil {
		return nil, fmt.Errorf("contract: load the document: %w", err)
	}
	// The document's own examples do not all match its schemas (the error
	// status is a string with the example 400); they are not the contract.
	if err := doc.Validate(context.Background(), openapi3.DisableExamplesValidation(), openapi3.SetRegexCompiler(perlRegexp)); err != nil {
		return nil, fmt.Errorf("contract: the document is not valid OpenAPI: %w", err)
	}
	closeEnums(doc)
	// Route by path alone: the servers of the document are the vendor's
	// hosts; the sandbox serves the same paths under its own base URL.
	doc.Servers = openapi3.Servers{{URL: "/"}}
	r, err := gorillamux.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("contract: route the document: %w", err)
	}
	return &Document{doc: doc, router: r}, nil
}

// closeEnums turns the value lists of x-enumDescriptions into enums on
// string schemas that have none (see the package doc).
func closeEnums(doc *openapi3.T) {
	seen := map[*openapi3.Schema]bool{}
	var walk func(s *openapi3.Schema)
	walk = func(s *openapi3.Schema) {
		if s == nil || seen[s] {
			return
		}
		seen[s] = true
		if s.Type.Is(openapi3.TypeString) && len(s.Enum) == 0 {
			if m, ok := s.Extensions["x-enumDescriptions"].(map[string]any); ok && len(m) > 0 {
				keys := make([]string, 0, len(m))
				for k := range m {
					keys = append(keys, k)
				}
				slices.Sort(keys)
				for _, k := range keys {
					s.Enum = append(s.Enum, k)
				}
			}
		}
		for _, p := range s.Properties {
			walk(p.Value)
		}
		if s.Items != nil {
			walk(s.Items.Value)
		}
		for _, l := range [][]*openapi3.SchemaRef{s.AllOf, s.AnyOf, s.OneOf} {
			for _, x := range l {
				walk(x.Value)
			}
		}
		if s.AdditionalProperties.Schema != nil {
			walk(s.AdditionalProperties.Schema.Value)
		}
	}
	for _, s := range doc.Components.Schemas {
		walk(s.Value)
	}
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			for _, p := range op.Parameters {
				if p.Value != nil && p.Value.Schema != nil {
					walk(p.Value.Schema.Value)
				}
			}
			if op.RequestBody != nil && op.RequestBody.Value != nil {
				for _, mt := range op.RequestBody.Value.Content {
					walk(mt.Schema.Value)
				}
			}
			for _, r := range op.Responses.Map() {
				if r.Value == nil {
					continue
				}
				for _, mt := range r.Value.Content {
					if mt.Schema != nil {
						walk(mt.Schema.Value)
					}
				}
			}
		}
	}
}

// perlRegexp compiles the document's patterns, which use look-around and
// back-references (the identity name patterns), beyond Go's RE2.
func perlRegexp(expr string) (openapi3.RegexMatcher, error) {
	re, err := regexp2.Compile(expr, regexp2.Unicode)
	if err != nil {
		return nil, err
	}
	return perlMatcher{re}, nil
}

type perlMatcher struct{ re *regexp2.Regexp }

func (m perlMatcher) MatchString(s string) bool {
	ok, err := m.re.MatchString(s)
	return ok && err == nil
}

// Exchange is one request and the answer it got. Path is relative to the
// interface's base URL (/v3/payments/filter), with its query.
type Exchange struct {
	Method      string
	Path        string
	Header      http.Header
	Body        []byte
	Status      int
	RespHeader  http.Header
	RespBody    []byte
	Description string // what to call the exchange in a violation; Method and Path when empty
}

// options are the validator's: uuid ids are checked (the document's
// paymentId is one), bearer auth is present when the operation needs it.
func options() *openapi3filter.Options {
	return &openapi3filter.Options{
		MultiError: true,
		AuthenticationFunc: func(_ context.Context, in *openapi3filter.AuthenticationInput) error {
			h := in.RequestValidationInput.Request.Header.Get("Authorization")
			switch in.SecurityScheme.Scheme {
			case "bearer":
				if !strings.HasPrefix(h, "Bearer ") || len(h) == len("Bearer ") {
					return errors.New("no bearer token")
				}
			case "basic":
				// The token operation's Basic header is optional: its own
				// parameter says so (required: false; the credentials may
				// come in the body instead).
				if h != "" && !strings.HasPrefix(h, "Basic ") {
					return errors.New("an Authorization header that is not Basic credentials")
				}
			}
			return nil
		},
		RegexCompiler: perlRegexp,
		SchemaValidationOptions: []openapi3.SchemaValidationOption{
			openapi3.SetSchemaRegexCompiler(perlRegexp),
			openapi3.WithStringFormatValidator("uuid", openapi3.NewRegexpFormatValidator(openapi3.FormatOfStringForUUIDOfRFC9562)),
		},
	}
}

// Check returns what is wrong with x against the document, nil when
// nothing is.
func (d *Document) Check(x Exchange) error {
	name := x.Description
	if name == "" {
		name = x.Method + " " + x.Path
	}
	probe := x.Header.Get(ProbeHeader) != ""
	req, err := http.NewRequest(x.Method, x.Path, bytes.NewReader(x.Body))
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	req.Header = x.Header.Clone()
	route, params, err := d.router.FindRoute(req)
	if err != nil {
		var errs []string
		if !probe {
			errs = append(errs, "the client sent an operation the document does not have ("+err.Error()+")")
		}
		if x.Status != http.StatusNotFound && x.Status != http.StatusMethodNotAllowed {
			errs = append(errs, fmt.Sprintf("the document has no such operation, yet the sandbox answered %d, not 404 or 405", x.Status))
		}
		return violation(name, errs)
	}
	opts := options()
	in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: opts}
	var errs []string
	if rerr := openapi3filter.ValidateRequest(context.Background(), in); rerr != nil {
		if !probe {
			errs = append(errs, "the client sent a request the document refuses: "+oneLine(rerr))
		}
		if x.Status < 400 || x.Status >= 500 {
			errs = append(errs, fmt.Sprintf("the document refuses the request (%s), yet the sandbox answered %d, not a 4xx", oneLine(rerr), x.Status))
		}
	}
	out := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in, Status: x.Status, Header: x.RespHeader,
		Body: io.NopCloser(bytes.NewReader(x.RespBody)), Options: opts,
	}
	if rerr := openapi3filter.ValidateResponse(context.Background(), out); rerr != nil {
		errs = append(errs, fmt.Sprintf("answer %d does not match the document: %s; body %.400s", x.Status, oneLine(rerr), x.RespBody))
	}
	return violation(name, errs)
}

func violation(name string, errs []string) error {
	if len(errs) == 0 {
		return nil
	}
	return fmt.Errorf("%s: %s", name, strings.Join(errs, "; "))
}

// oneLine squeezes a validator's error (which quotes schemas over many
// lines) into its first lines' meaning.
func oneLine(err error) string {
	var parts []string
	for _, l := range strings.Split(err.Error(), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || l == "Schema:" || l == "Value:" || strings.HasPrefix(l, "{") || strings.HasPrefix(l, "}") || strings.HasPrefix(l, "\"") || strings.HasPrefix(l, "[") || strings.HasPrefix(l, "]") {
			continue
		}
		parts = append(parts, l)
	}
	const max = 600
	out := strings.Join(parts, " | ")
	if len(out) > max {
		out = out[:max] + "…"
	}
	return out
}

// Properties lists the properties of a component schema of the document
// as dotted paths, nested objects and the objects of arrays included
// ("payoutExecutionDetails.trackingReferences.referenceType"): what a
// server that uses the whole schema sends on some record.
func (d *Document) Properties(schema string) []string {
	ref, ok := d.doc.Components.Schemas[schema]
	if !ok || ref.Value == nil {
		return nil
	}
	var out []string
	seen := map[*openapi3.Schema]bool{}
	var walk func(s *openapi3.Schema, prefix string)
	walk = func(s *openapi3.Schema, prefix string) {
		if s == nil || seen[s] {
			return
		}
		seen[s] = true
		defer delete(seen, s)
		if s.Items != nil {
			walk(s.Items.Value, prefix)
			return
		}
		names := make([]string, 0, len(s.Properties))
		for n := range s.Properties {
			names = append(names, n)
		}
		slices.Sort(names)
		for _, n := range names {
			out = append(out, prefix+n)
			walk(s.Properties[n].Value, prefix+n+".")
		}
	}
	walk(ref.Value, "")
	return out
}
