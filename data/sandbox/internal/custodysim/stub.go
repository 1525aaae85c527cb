// Package custodysim simulates the custody address-book interface (spec
// area E).
package custodysim

import (
	"crypto/ed25519"

	"treasury/data/sandbox/internal/simkit"
)

// Options configure the custody simulator.
type Options struct {
	Token    string
	DomainID string
	// Operators are the users allowed to propose intents, by user id.
	Operators map[string]ed25519.PublicKey
}

// Sim is the custody simulator.
type Sim struct{ simkit.NotImplemented }

// New builds the custody simulator.
func New(env *simkit.Env, opts Options) *Sim { return &Sim{simkit.NotImplemented("custody")} }
