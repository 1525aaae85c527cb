package payworld

import "treasury/data/sandbox/internal/simkit"

// World is the payments world.
type World struct{ simkit.NotImplemented }

// New builds the payments world.
func New(env *simkit.Env, opts Options) (*World, error) {
	return &World{simkit.NotImplemented("payments")}, nil
}

// Samples names records worth knowing for manual tests (for example
// "foreign_payment_id", a payment of another organization).
func (w *World) Samples() map[string]string { return nil }
