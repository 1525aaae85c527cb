package custodysim

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"time"

	"treasury/sandbox/internal/simkit"
	"treasury/wire/custody"
)

// intent is a proposed lock or unlock and what the simulator needs to move
// it on.
type intent struct {
	rec       custody.Intent
	requestID string
	expiry    time.Time
	reject    bool
	n         int // its place among the intents accepted (Proposed)
}

// propose answers POST /v1/intents.
func (s *Sim) propose(w http.ResponseWriter, r *http.Request) {
	if ct, ok := simkit.JSONBody(r); !ok {
		simkit.PlainUnsupportedMedia(w, ct)
		return
	}
	var body custody.IntentBody
	if err := simkit.ReadJSON(r, &body); err != nil || len(body.Request) == 0 || body.Signature == "" {
		simkit.PlainError(w, http.StatusBadRequest, "the body must be {request, signature}")
		return
	}
	var req custody.IntentRequest
	if err := json.Unmarshal(body.Request, &req); err != nil {
		simkit.PlainError(w, http.StatusBadRequest, "request is not an intent: "+err.Error())
		return
	}
	now := s.env.Clock.Now()
	if msg := validate(req, now); msg != "" {
		simkit.PlainError(w, http.StatusBadRequest, msg)
		return
	}
	sig, err := base64.StdEncoding.DecodeString(body.Signature)
	if err != nil {
		simkit.PlainError(w, http.StatusBadRequest, "signature is not base64")
		return
	}
	key, known := s.opts.Operators[req.Author.ID]
	if !known || req.Author.DomainID != s.opts.DomainID {
		simkit.PlainError(w, http.StatusForbidden, "author "+req.Author.ID+" is not an operator of domain "+req.Author.DomainID)
		return
	}
	if !ed25519.Verify(key, bytes.TrimSpace(body.Request), sig) {
		simkit.PlainError(w, http.StatusForbidden, "the signature does not verify with the key of author "+req.Author.ID)
		return
	}
	if req.TargetDomainID != s.opts.DomainID {
		simkit.PlainError(w, http.StatusNotFound, "no domain "+req.TargetDomainID)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.settle(now)
	if prev, ok := s.intents[req.ID]; ok {
		if prev.rec.Author.ID != req.Author.ID || prev.rec.Payload.Type != req.Payload.Type ||
			prev.rec.Payload.Reference.ID != req.Payload.Reference.ID {
			simkit.PlainError(w, http.StatusConflict, "intent id "+req.ID+" was already used for another intent")
			return
		}
		simkit.WriteJSON(w, http.StatusAccepted, custody.IntentAccepted{RequestID: prev.requestID})
		return
	}
	e, ok := s.byID[req.Payload.Reference.ID]
	if !ok {
		simkit.PlainError(w, http.StatusNotFound, "no endpoint "+req.Payload.Reference.ID+" in this domain")
		return
	}
	if e.Metadata.Revision != req.Payload.Reference.Revision {
		simkit.PlainError(w, http.StatusConflict, "the endpoint is at another revision: read it again")
		return
	}
	if msg := conflict(e.Lock, req.Payload.Type); msg != "" {
		simkit.PlainError(w, http.StatusConflict, msg)
		return
	}
	it := &intent{requestID: simkit.UUIDOf(s.seed, simkit.Key("intent-request"), simkit.Key(req.ID)),
		expiry: req.ExpiryAt, reject: req.CustomProperties["approval"] == "reject",
		rec: custody.Intent{ID: req.ID, DomainID: s.opts.DomainID, Status: custody.IntentPending,
			Payload: req.Payload, Author: req.Author, ApprovalsNeeded: 1, CreatedAt: now, UpdatedAt: now}}
	it.n = len(s.intents) + 1
	s.intents[req.ID] = it
	s.order = append(s.order, it)
	simkit.WriteJSON(w, http.StatusAccepted, custody.IntentAccepted{RequestID: it.requestID})
}

// validate returns what is wrong with an intent request, or "".
func validate(req custody.IntentRequest, now time.Time) string {
	switch {
	case req.Type != custody.RequestType:
		return "request.type must be " + custody.RequestType
	case strings.TrimSpace(req.ID) == "" || len(req.ID) > 128:
		return "request.id must be 1 to 128 characters"
	case req.Author.ID == "" || req.Author.DomainID == "":
		return "request.author needs id and domainId"
	case req.TargetDomainID == "":
		return "request.targetDomainId is required"
	case req.Payload.Type != custody.PayloadLock && req.Payload.Type != custody.PayloadUnlock:
		return "request.payload.type must be " + custody.PayloadLock + " or " + custody.PayloadUnlock
	case req.Payload.Reference.ID == "":
		return "request.payload.reference.id is required"
	case !req.ExpiryAt.After(now):
		return "request.expiryAt must be in the future"
	}
	return ""
}

// conflict says why a lock or unlock does not apply to an endpoint in lock
// state, or "".
func conflict(lock, payload string) string {
	switch {
	case lock == custody.LockArchived:
		return "the endpoint is Archived"
	case payload == custody.PayloadLock && lock == custody.LockLocked:
		return "the endpoint is already Locked"
	case payload == custody.PayloadUnlock && lock != custody.LockLocked:
		return "the endpoint is not Locked"
	}
	return ""
}

// intent answers GET /v1/domains/{domainId}/intents/{intentId}: the intent
// and the current state of the endpoint it refers to.
func (s *Sim) intent(w http.ResponseWriter, r *http.Request) {
	if !s.domain(w, r) {
		return
	}
	id := r.PathValue("intentId")
	s.mu.Lock()
	s.settle(s.env.Clock.Now())
	it, ok := s.intents[id]
	var view intentView
	if ok {
		view = intentView{Intent: it.rec, Endpoint: s.endpointState(it.rec.Payload.Reference.ID)}
	}
	s.mu.Unlock()
	if !ok {
		simkit.PlainError(w, http.StatusNotFound, "no intent "+id+" in this domain")
		return
	}
	simkit.WriteJSON(w, http.StatusOK, view)
}

// settle moves every open intent on to now, in proposal order (which is the
// order they fall due, as every intent waits as long). The caller holds
// s.mu.
func (s *Sim) settle(now time.Time) {
	open := s.order[:0]
	for _, it := range s.order {
		s.step(it, now)
		if !it.rec.Terminal() {
			open = append(open, it)
		}
	}
	clear(s.order[len(open):])
	s.order = open
}

// step moves one intent on to now.
func (s *Sim) step(it *intent, now time.Time) {
	approve := it.rec.CreatedAt.Add(ApproveAfter)
	execute := it.rec.CreatedAt.Add(ExecuteAfter)
	set := func(status string, at time.Time, reason string) {
		it.rec.Status, it.rec.UpdatedAt, it.rec.Reason = status, at, reason
	}
	if it.reject {
		switch {
		case it.expiry.Before(approve) && !now.Before(it.expiry):
			set(custody.IntentExpired, it.expiry, "not approved before expiryAt")
		case !approve.After(it.expiry) && !now.Before(approve):
			set(custody.IntentRejected, approve, "rejected by an approver")
		}
		return
	}
	if it.expiry.Before(execute) && !now.Before(it.expiry) {
		set(custody.IntentExpired, it.expiry, "not executed before expiryAt")
		return
	}
	if !now.Before(approve) && it.rec.Status == custody.IntentPending {
		it.rec.Approvals = 1
		set(custody.IntentApproved, approve, "")
	}
	if now.Before(execute) {
		return
	}
	e := s.byID[it.rec.Payload.Reference.ID]
	if e.Metadata.Revision != it.rec.Payload.Reference.Revision || conflict(e.Lock, it.rec.Payload.Type) != "" {
		set(custody.IntentRejected, execute, "stale revision: the endpoint changed since the proposal")
		return
	}
	e.Lock = custody.LockLocked
	if it.rec.Payload.Type == custody.PayloadUnlock {
		e.Lock = custody.LockUnlocked
	}
	e.Metadata.Revision++
	e.Metadata.LastModifiedAt = execute
	set(custody.IntentExecuted, execute, "")
}

// Proposed is one intent the simulator accepted: its id (the caller's
// key), the endpoint and payload type, its status now, Order its place
// among them.
type Proposed struct {
	ID, Endpoint, Type, Status string
	Order                      int
}

// Proposed lists every intent accepted, in the order proposed: the ground
// truth a soak compares the audit log with.
func (s *Sim) Proposed() []Proposed {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.settle(s.env.Clock.Now())
	out := make([]Proposed, 0, len(s.intents))
	for _, it := range s.intents {
		out = append(out, Proposed{ID: it.rec.ID, Endpoint: it.rec.Payload.Reference.ID, Type: it.rec.Payload.Type, Status: it.rec.Status, Order: it.n})
	}
	slices.SortFunc(out, func(a, b Proposed) int { return a.Order - b.Order })
	return out
}
