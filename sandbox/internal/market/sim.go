// Package market simulates the liquidity interface (spec area A): quotes,
// trades and balances under /api/v0, behind a bearer token, with the
// page-number pagination of spec 2.1.
//
// Nothing is stored. Quotes are published about once per pair per second of
// sandbox time; the g-th quote ever published (its "tick") and every field of
// it, rates included, are pure functions of the seed and g, and the rates are
// a smooth random walk (simkit.Walk) of time. So history before the start is
// synthesized on demand, a page of any window costs O(page size), and one
// seed gives the same answers for the same clock and requests. Trades are a
// deterministic subset of the quotes (one per block of ticks); balances drift
// with time as a pure function too.
//
// Choices where the spec and api-choices.md are silent:
//   - history begins HistoryDays before the sandbox clock at New; a window
//     (startTime, endTime) is clamped to [history start, now]; without one it
//     is the whole history; endTime before startTime is a 400;
//   - /trades windows on executedAt; /balances answers the balances as of
//     endTime (now by default), one per asset;
//   - a page number past the last page answers 200 with an empty array,
//     first false (unless page 0) and last true, as page-number envelopes
//     conventionally do: a client that stops at last never asks for it;
//   - pageSize outside 1..liquidity.MaxPageSize, a negative or non-integer
//     pageNumber, and unparsable times are 400; errors are apierr.PlainBody.
package market

import (
	"net/http"
	"time"

	"treasury/sandbox/internal/simkit"
	"treasury/wire/apierr"
	"treasury/wire/liquidity"
)

// HistoryDays is how far before the clock at New the synthesized history
// reaches.
const HistoryDays = 7

// Sim is the liquidity simulator.
type Sim struct {
	env     *simkit.Env
	seed    uint64
	histMs  int64 // first millisecond of history (unix ms)
	pairs   [npairs]pair
	handler http.Handler
}

// New builds the liquidity simulator; clients present token as bearer.
func New(env *simkit.Env, token string) *Sim {
	origin := env.Clock.Now().Truncate(time.Second)
	s := &Sim{env: env, seed: simkit.Mix(env.Seed, simkit.Key("liquidity")),
		histMs: origin.Add(-HistoryDays * 24 * time.Hour).UnixMilli(), pairs: corridors()}
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+liquidity.PathQuotes, serve(s, s.quotesPage))
	mux.HandleFunc("GET "+liquidity.PathTrades, serve(s, s.tradesPage))
	mux.HandleFunc("GET "+liquidity.PathBalances, serve(s, s.balancesPage))
	s.handler = simkit.PlainService(env, apierr.Liquidity, token, mux)
	return s
}

// Handler serves /api/v0/... (mounted after the /liquidity prefix is
// stripped).
func (s *Sim) Handler() http.Handler { return s.handler }

// Close does nothing: the simulator has no background work.
func (s *Sim) Close() error { return nil }
