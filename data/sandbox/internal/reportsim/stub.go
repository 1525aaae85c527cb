// Package reportsim simulates the reporting interface (spec area C).
package reportsim

import (
	"treasury/data/sandbox/internal/authsim"
	"treasury/data/sandbox/internal/payworld"
	"treasury/data/sandbox/internal/simkit"
)

// Sim is the reporting simulator.
type Sim struct{ simkit.NotImplemented }

// New builds the reporting simulator over the payments world.
func New(env *simkit.Env, auth *authsim.Issuer, world *payworld.World) *Sim {
	return &Sim{simkit.NotImplemented("reporting")}
}
