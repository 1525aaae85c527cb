// Package walletsim simulates the wallet interface (spec area D, 2.10, 4.5,
// 5.6, 7.2 and 8) for the sandbox: a token exchange whose tokens carry the
// credential's type and permissions, a seeded world of vaults, wallets,
// balances, transactions (new ones appear and move on over the sandbox
// clock), freezes, policies and limits, an address book, webhooks and
// sweeps, wallet-style pagination and filters, and the gRPC-style error
// object with the reason codes of 7.2.
//
// The world is a function of the seed, the sandbox clock and the requests
// made: it moves forward lazily, on each request, to the clock's time.
//
// Choices where the spec is silent (see also wire/wallet's doc comment):
//   - a wallet's sub-resources (".../settings (under a wallet)" in the
//     spec) are served under one form of the wallet path:
//     /v2/wallets/{walletId}/... by default, /v2/vaults/{vaultId}/wallets/
//     {walletId}/... with Options.NestedWalletPaths (the variant face); the
//     other form is an unknown route (404 without ErrorInfo);
//   - MONITORING credentials read; CONTROLS also create wallets, change
//     settings, manage the address book, webhooks, credentials, and (with
//     policy:* or keylimit:*) policy rules and limits; TRANSACTIONS also
//     send transfers and raw transactions, freeze, unfreeze and trigger
//     sweeps. A permission vault:<id> limits a credential to that vault;
//     others become invisible (404).
//   - ERR000.003: POST /v2/credentials with a permission that is not
//     <resource>:<action>; ERR000.008: an unknown blockchain in an address
//     or a raw-transaction override; ERR000.010: a transfer of an asset the
//     wallet's chain lacks; ERR000.012: a destination that is no chain's
//     address format; ERR000.013: a limit on an unknown asset id;
//     ERR000.014: a raw transaction whose signature is not 65 hex bytes;
//     ERR000.015: a page token that fails its HMAC or belongs to another
//     query; ERR017.001: sweep configuration not found.
//   - Reasons about state (ERR009.106, ERR010.008, ERR006.016, ERR013.021,
//     ERR017.006, ERR020.004) carry gRPC 9 FAILED_PRECONDITION; the other
//     400 reasons carry 3 INVALID_ARGUMENT.
//   - A transfer to the address of a locked custody endpoint is refused at
//     once with gRPC 9 FAILED_PRECONDITION and the chosen reason ERR013.030
//     (address book service; the spec shows no reason for it): a locked
//     endpoint cannot be used in any context, and refusing before the
//     transaction exists tells the operator why, where a policy denial
//     would only show a REJECTED transaction later.
//   - A transfer whose destination is not in the address book, or whose
//     quantity exceeds an active limit, is answered 200 and ends REJECTED
//     with an ERR006.005 problem five sandbox seconds later.
package walletsim

import (
	"crypto/sha256"
	"fmt"
	"net/http"
	"sync"
	"time"

	"treasury/sandbox/internal/simkit"
)

// Credential is a wallet API credential.
type Credential struct {
	ClientID, ClientSecret, Type string
	Permissions                  []string
}

// Options configure the wallet simulator beyond its credentials.
type Options struct {
	// LockedAddress, when set, reports whether an address is that of a
	// locked custody endpoint (and which): a transfer to it is refused with
	// reasonEndpointLocked, as a locked endpoint cannot be used in any
	// context (spec 3.2). It must not call back into the wallet simulator.
	LockedAddress func(address string) (endpointID string, locked bool)
	// NestedWalletPaths serves a wallet's sub-resources (balances,
	// settings, sequence, transactions and everything under them, limits)
	// only under /v2/vaults/{vaultId}/wallets/{walletId}/...; without it
	// they are served only under /v2/wallets/{walletId}/.... The spec writes
	// them ".../settings (under a wallet)", so either form is legal; the
	// other form answers 404 without ErrorInfo, as an unknown route. The
	// wallet itself is served under both /v2/wallets/{walletId} (spec 4.5)
	// and /v2/vaults/{vaultId}/wallets/{walletId}.
	NestedWalletPaths bool
	// Retain is how far back (sandbox time) the simulator keeps settled
	// transactions; see simkit.KeepFrom.
	Retain time.Duration
}

// Sim is the wallet simulator.
type Sim struct {
	env      *simkit.Env
	opts     Options
	chains   chainSet
	tokenKey []byte
	pageKey  []byte
	mux      *http.ServeMux

	mu sync.Mutex
	w  *world
}

// New builds the wallet simulator over a world seeded from env.Seed as it
// stands at the clock's current time.
func New(env *simkit.Env, creds []Credential, opts Options) *Sim {
	key := func(purpose string) []byte {
		h := sha256.Sum256([]byte(fmt.Sprintf("treasury-walletsim|%s|%d", purpose, env.Seed)))
		return h[:]
	}
	start := env.Clock.Now()
	s := &Sim{env: env, opts: opts, chains: newChainSet(), tokenKey: key("token"), pageKey: key("page")}
	s.w = seedWorld(env.Seed, start, append([]Credential(nil), creds...), s.chains)
	s.w.liveNext = start.Add(liveGap)
	s.mux = s.routes()
	return s
}

// Handler serves the wallet interface (paths start with /v2/).
func (s *Sim) Handler() http.Handler { return s.mux }

// Close stops nothing: the world moves on lazily, with no goroutines.
func (s *Sim) Close() error { return nil }
