// Package market simulates the liquidity interface (spec area A).
package market

import "treasury/data/sandbox/internal/simkit"

// Sim is the liquidity simulator.
type Sim struct{ simkit.NotImplemented }

// New builds the liquidity simulator; clients present token as bearer.
func New(env *simkit.Env, token string) *Sim { return &Sim{simkit.NotImplemented("liquidity")} }
