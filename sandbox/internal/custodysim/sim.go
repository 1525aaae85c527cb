// Package custodysim simulates the custody address-book interface (spec
// area E, 2.11, 4.6): one domain whose endpoints (aliases of ledger
// addresses, whitelisted or blacklisted, smart contracts with an ABI, some
// locked, one archived) are listed and read under /v1, behind a static
// bearer token, and the signed lock and unlock intents that change them.
//
// The world is a pure function of the seed; intents change it, in the order
// they become due on the sandbox clock, so the same seed, clock and requests
// give the same answers.
//
// Choices where the spec and api-choices.md are silent (errors are
// apierr.PlainBody):
//   - a missing or wrong bearer token is 401; another domain is 404;
//   - the list takes limit 1..custody.MaxLimit (default custody.DefaultLimit,
//     anything else 400), startingAfter (an id of the listing; unknown 400),
//     sortBy createdAt (default), alias or id, sortOrder asc (default) or
//     desc, alias (case-insensitive substring), address (exact, case
//     insensitive), lock (Unlocked, Locked, Archived); count is the number
//     of items on the page; nextStartingAfter, the last id of the page, is
//     absent on the last page; currentStartingAfter echoes startingAfter;
//   - each item is signed by the service: signature is Ed25519 over the JSON
//     of data, signingKey the public key, both base64;
//   - POST /v1/intents: a body that is not {request, signature} or whose
//     request lacks fields, has another type than Propose, or an expiryAt
//     not after now is 400; a signature that is not base64 is 400; an
//     author (or author domain) not among the operators, or a signature
//     that does not verify against the author's key, is 403; a target
//     domain other than ours 404;
//     an unknown endpoint 404; a revision other than the endpoint's current
//     one 409; locking a Locked endpoint, unlocking one that is not Locked,
//     or either on an Archived one is 409 and creates nothing (nothing to
//     approve: the endpoint already is as asked);
//   - an intent id already proposed with the same author, payload type and
//     endpoint answers 202 with the same requestId and changes nothing (a
//     retry, even re-signed with another expiryAt); with anything else 409;
//   - GET .../intents/{intentId} answers the intent and, under endpoint,
//     the current id, revision and lock of the endpoint it refers to, so a
//     locked endpoint is reported as such wherever it is used;
//   - LockedAddress tells the wallet simulator which addresses belong to
//     Locked endpoints: a transfer to one is refused there;
//   - an intent is Pending (0 of 1 approvals) for ApproveAfter, then
//     Approved until ExecuteAfter, when it is Executed: the endpoint's lock
//     changes and its revision and lastModifiedAt move. With
//     customProperties["approval"] == "reject" it is Rejected at
//     ApproveAfter instead. An intent not executed by its expiryAt is
//     Expired. When it executes, an endpoint whose revision moved since the
//     proposal rejects it ("stale revision").
package custodysim

import (
	"crypto/ed25519"
	"net/http"
	"sync"
	"time"

	"treasury/sandbox/internal/simkit"
	"treasury/wire/apierr"
	"treasury/wire/custody"
)

// Dwell times of an intent, in sandbox time.
const (
	ApproveAfter = 2 * time.Second
	ExecuteAfter = 4 * time.Second
)

// Options configure the custody simulator.
type Options struct {
	Token    string
	DomainID string
	// Operators are the users allowed to propose intents, by user id.
	Operators map[string]ed25519.PublicKey
}

// Sim is the custody simulator.
type Sim struct {
	env     *simkit.Env
	opts    Options
	seed    uint64
	key     ed25519.PrivateKey // the service's signing key for listed items
	handler http.Handler

	mu        sync.Mutex
	endpoints []*custody.Endpoint // in creation order
	byID      map[string]*custody.Endpoint
	intents   map[string]*intent
	order     []*intent // in proposal order
}

// New builds the custody simulator.
func New(env *simkit.Env, opts Options) *Sim {
	s := &Sim{env: env, opts: opts, seed: simkit.Mix(env.Seed, simkit.Key("custody")),
		byID: map[string]*custody.Endpoint{}, intents: map[string]*intent{}}
	var ks [ed25519.SeedSize]byte
	r := simkit.Rand(s.seed, simkit.Key("service-key"))
	for i := range ks {
		ks[i] = byte(r.UintN(256))
	}
	s.key = ed25519.NewKeyFromSeed(ks[:])
	s.endpoints = seedEndpoints(s.seed, opts.DomainID, env.Clock.Now())
	for _, e := range s.endpoints {
		s.byID[e.ID] = e
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/domains/{domainId}/endpoints", s.list)
	mux.HandleFunc("GET /v1/domains/{domainId}/endpoints/{endpointId}", s.get)
	mux.HandleFunc("POST /v1/intents", s.propose)
	mux.HandleFunc("GET /v1/domains/{domainId}/intents/{intentId}", s.intent)
	s.handler = simkit.PlainService(env, apierr.Custody, opts.Token, mux)
	return s
}

// Handler serves /v1/... (mounted after the /custody prefix is stripped).
func (s *Sim) Handler() http.Handler { return s.handler }

// Close does nothing: intents move lazily, on requests.
func (s *Sim) Close() error { return nil }

// domain checks the path's domain; it answers 404 and returns false when
// it is not the simulated one.
func (s *Sim) domain(w http.ResponseWriter, r *http.Request) bool {
	if d := r.PathValue("domainId"); d != s.opts.DomainID {
		simkit.PlainError(w, http.StatusNotFound, "no domain "+d)
		return false
	}
	return true
}
