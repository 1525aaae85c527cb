package simkit

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"
)

// FaultSettings are the faults the sandbox injects, switchable by flags and
// at runtime (GET and PUT /_sandbox/faults). Rates are shares of requests in
// [0, 1]. The zero value injects nothing.
type FaultSettings struct {
	// Latency is added to every request (Latency plus up to LatencyJitter).
	Latency       Duration `json:"latency"`
	LatencyJitter Duration `json:"latency_jitter"`
	// Path, when set, limits the request faults (latencies, 500s, 503s,
	// malformed bodies) to the requests whose path holds it: "/trigger",
	// "/freeze".
	Path string `json:"path,omitempty"`
	// AnswerLatency is added after a request is served, before its answer
	// is sent: the request is applied (a freeze, a trigger), and its
	// answer comes late, or never if the client gives up or dies first.
	AnswerLatency Duration `json:"answer_latency"`
	// ErrorRate answers with a 500: SYS_ for payments, auth and reporting,
	// gRPC 13 INTERNAL for wallet, a plain 500 for liquidity and custody.
	ErrorRate float64 `json:"error_rate"`
	// UnavailableRate answers with a 503 (gRPC 14 UNAVAILABLE for wallet).
	UnavailableRate float64 `json:"unavailable_rate"`
	// MalformedRate answers 200 with a body that is not valid JSON.
	MalformedRate float64 `json:"malformed_rate"`
	// TokenLifetime, when set, makes tokens die this long after issue (sandbox
	// time) although expires_in still says 3600: early token expiry.
	TokenLifetime Duration `json:"token_lifetime"`
	// Hostile puts escape sequences, control and bidi characters into names,
	// aliases and descriptions.
	Hostile bool `json:"hostile"`
}

// Validate reports a setting out of range.
func (f FaultSettings) Validate() error {
	for name, r := range map[string]float64{"error_rate": f.ErrorRate, "unavailable_rate": f.UnavailableRate, "malformed_rate": f.MalformedRate} {
		if r < 0 || r > 1 {
			return fmt.Errorf("%s must be between 0 and 1, got %v", name, r)
		}
	}
	if f.Latency < 0 || f.LatencyJitter < 0 || f.AnswerLatency < 0 || f.TokenLifetime < 0 {
		return fmt.Errorf("durations must not be negative")
	}
	return nil
}

// Faults holds the current FaultSettings.
type Faults struct {
	mu sync.RWMutex
	s  FaultSettings
}

// NewFaults starts with s.
func NewFaults(s FaultSettings) *Faults { return &Faults{s: s} }

// Get returns the current settings.
func (f *Faults) Get() FaultSettings {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return f.s
}

// Set replaces the settings.
func (f *Faults) Set(s FaultSettings) error {
	if err := s.Validate(); err != nil {
		return err
	}
	f.mu.Lock()
	f.s = s
	f.mu.Unlock()
	return nil
}

// Hostile reports whether hostile strings are on.
func (f *Faults) Hostile() bool { return f.Get().Hostile }

// TokenLifetime is the early-expiry lifetime, or 0 when off.
func (f *Faults) TokenLifetime() time.Duration { return time.Duration(f.Get().TokenLifetime) }

// Roll reports true with probability p (fault decisions need no seed: they
// depend on request timing anyway).
func Roll(p float64) bool { return p > 0 && rand.Float64() < p }

// Duration is a time.Duration that reads and writes JSON as "250ms".
type Duration time.Duration

// MarshalJSON writes the duration as a Go duration string.
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

// UnmarshalJSON reads "250ms", "2s" or a number of nanoseconds.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		var n int64
		if err := json.Unmarshal(b, &n); err != nil {
			return fmt.Errorf("duration must be a string like \"250ms\"")
		}
		*d = Duration(n)
		return nil
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("duration %q: %v", s, err)
	}
	*d = Duration(v)
	return nil
}
