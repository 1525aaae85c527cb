// Package reportsim simulates the reporting interface (spec area C, 2.4 to
// 2.6, 4.4): the pre-generated payment reports of the previous two months
// and the month to date, in types PAYMENT_OPS and RECON and formats CSV and
// JSON, built from the payments world so their rows are the world's
// payments (RECON: one line per ledger transaction of a payment).
//
// Paths follow api-choices.md: GET /v2/reports, GET /v2/reports/{id} and
// GET /v2/reports/download/{id}. Every operation takes the payments bearer
// token with scope reports:read (spec 5.1), checked by the payments token
// issuer exactly as the payments simulator does; other errors (400 for an
// id that is not a uuid or a report not yet ready, 404 for an unknown
// report or path, spec 7.3) are payments error objects.
//
// A report is generated at 00:00 UTC on the sandbox clock and is READY a
// minute later (PENDING before). Its rows are the world as of its
// generation: the payments created in its period and their states and
// ledger transactions at that instant. Ids and content depend only on the
// seed and the clock.
package reportsim

import (
	"net/http"
	"strings"

	"treasury/sandbox/internal/authsim"
	"treasury/sandbox/internal/payworld"
	"treasury/sandbox/internal/simkit"
	"treasury/wire/apierr"
	"treasury/wire/reporting"
)

// authorizer is the part of authsim.Issuer the simulator uses.
type authorizer interface {
	Authorize(w http.ResponseWriter, r *http.Request, scope string) (authsim.Claims, bool)
}

// Sim is the reporting simulator. It is safe for concurrent use.
type Sim struct {
	env   *simkit.Env
	auth  authorizer
	world *payworld.World
	cache *cache
}

// New builds the reporting simulator over the payments world. auth checks
// tokens; when nil every request is served (unit tests of the simulator
// only).
func New(env *simkit.Env, auth *authsim.Issuer, world *payworld.World) *Sim {
	s := &Sim{env: env, world: world, cache: newCache()}
	if auth != nil {
		s.auth = auth
	}
	return s
}

// Handler serves the reporting interface (paths relative to its base URL).
func (s *Sim) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+reporting.PathReports, s.guard(s.list))
	mux.HandleFunc("GET "+reporting.PathReports+"/{id}", s.guard(s.get))
	mux.HandleFunc("GET "+reporting.PathDownload+"{id}", s.guard(s.download))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		s.fail(w, http.StatusNotFound, "USR_002", apierr.TypeNotFound, "Resource Not Found",
			"No operation "+r.Method+" "+simkit.Quoted(r.URL.Path)+" on the reporting interface.")
	})
	return mux
}

// Close does nothing: the simulator has no background work.
func (s *Sim) Close() error { return nil }

// guard checks the bearer token and the reports:read scope.
func (s *Sim) guard(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.auth != nil {
			if _, ok := s.auth.Authorize(w, r, authsim.ScopeReportsRead); !ok {
				return
			}
		}
		h(w, r)
	}
}

func (s *Sim) list(w http.ResponseWriter, r *http.Request) {
	out := reporting.ReportList{Reports: []reporting.Report{}}
	for _, e := range s.catalog(s.env.Clock.Now()) {
		out.Reports = append(out.Reports, e.record(""))
	}
	simkit.WriteJSON(w, http.StatusOK, out)
}

func (s *Sim) get(w http.ResponseWriter, r *http.Request) {
	e, ok := s.find(w, r)
	if !ok {
		return
	}
	link := ""
	if e.ready {
		link = baseURL(r) + reporting.PathDownload + e.id
	}
	simkit.WriteJSON(w, http.StatusOK, e.record(link))
}

func (s *Sim) download(w http.ResponseWriter, r *http.Request) {
	e, ok := s.find(w, r)
	if !ok {
		return
	}
	if !e.ready {
		s.fail(w, http.StatusBadRequest, "USR_001", apierr.TypeUser, "Bad Request",
			"The report "+e.id+" is still being generated; it is normally available at 00:01 UTC.")
		return
	}
	s.serveContent(w, e)
}

// find looks the path's report up among the current ones, answering 400
// or 404 itself.
func (s *Sim) find(w http.ResponseWriter, r *http.Request) (entry, bool) {
	id := strings.ToLower(r.PathValue("id"))
	if !simkit.IsUUID(id) {
		s.fail(w, http.StatusBadRequest, "USR_001", apierr.TypeUser, "Bad Request",
			"The report id "+simkit.Quoted(r.PathValue("id"))+" is not a uuid.")
		return entry{}, false
	}
	for _, e := range s.catalog(s.env.Clock.Now()) {
		if e.id == id {
			return e, true
		}
	}
	s.fail(w, http.StatusNotFound, "USR_002", apierr.TypeNotFound, "Resource Not Found",
		"No report with id "+simkit.Quoted(id)+" was found.")
	return entry{}, false
}

func (s *Sim) fail(w http.ResponseWriter, status int, code, typ, title, desc string) {
	simkit.WriteShaped(w, simkit.ShapeFlat, s.env.Clock.Now(), simkit.Failure{Status: status, Code: code, Type: typ, Title: title, Description: desc})
}

// baseURL is the interface's base address as the client reached it: the
// request's scheme and host and the prefix the sandbox stripped.
func baseURL(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	uri := r.RequestURI
	if i := strings.IndexByte(uri, '?'); i >= 0 {
		uri = uri[:i]
	}
	prefix := strings.TrimSuffix(uri, r.URL.EscapedPath())
	if prefix == uri {
		prefix = ""
	}
	return scheme + "://" + r.Host + prefix
}
