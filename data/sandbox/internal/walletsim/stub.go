// Package walletsim simulates the wallet interface (spec area D).
package walletsim

import "treasury/data/sandbox/internal/simkit"

// Credential is a wallet API credential.
type Credential struct {
	ClientID, ClientSecret, Type string
	Permissions                  []string
}

// Sim is the wallet simulator.
type Sim struct{ simkit.NotImplemented }

// New builds the wallet simulator.
func New(env *simkit.Env, creds []Credential) *Sim { return &Sim{simkit.NotImplemented("wallet")} }
