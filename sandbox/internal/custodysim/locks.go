package custodysim

import (
	"crypto/ed25519"
	"encoding/base64"
	"strings"

	"treasury/wire/custody"
)

// EndpointState is the state of the endpoint an intent refers to, as it is
// now: an intent answer carries it, so that a locked endpoint is reported as
// such wherever it is used (spec 3.2: a locked endpoint cannot be used in any
// context).
type EndpointState struct {
	ID       string `json:"id"`
	Revision int    `json:"revision"`
	Lock     string `json:"lock"`
}

// intentView is the answer of GET .../intents/{intentId}: the intent and
// the current state of its endpoint (a field the client records do not
// carry; a tolerant reader ignores it).
type intentView struct {
	custody.Intent
	Endpoint *EndpointState `json:"endpoint,omitempty"`
}

// endpointState is the state of endpoint id, nil when there is none. The
// caller holds s.mu.
func (s *Sim) endpointState(id string) *EndpointState {
	e, ok := s.byID[id]
	if !ok {
		return nil
	}
	return &EndpointState{ID: e.ID, Revision: e.Metadata.Revision, Lock: e.Lock}
}

// LockedAddress reports whether address is the address of a Locked endpoint
// of the domain now, and which. Addresses compare without regard to case
// (EVM hex addresses are case-insensitive; the other formats' cases never
// collide in the sandbox). The wallet simulator asks it before it accepts a
// transfer: a locked endpoint cannot be used in any context (spec 1, E).
func (s *Sim) LockedAddress(address string) (endpointID string, locked bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.settle(s.env.Clock.Now())
	for _, e := range s.endpoints {
		if e.Lock == custody.LockLocked && strings.EqualFold(e.Address, address) {
			return e.ID, true
		}
	}
	return "", false
}

// Sign is the service's signature, base64, over the exact bytes of an
// endpoint's data: what every listed item carries. The variant face signs
// the data it reshapes with it.
func (s *Sim) Sign(data []byte) string {
	return base64.StdEncoding.EncodeToString(ed25519.Sign(s.key, data))
}
