// Package auth provides the bearer tokens the platform's interfaces require
// (spec part 5): a client-credentials token source for the payments
// interface (JSON body with audience, 4.2), a token source for the wallet
// interface (/v2/credentials/oauth/token), and static tokens for the
// liquidity and custody interfaces, whose issuing the spec does not show.
//
// Tokens and client secrets are held in Secret, which never prints: fmt,
// log/slog and encoding/json all see "[redacted]". Only Reveal gives the
// value, and only the transport calls it, to set the Authorization header.
package auth

import (
	"context"
	"log/slog"
)

// Secret is a credential (client secret, bearer token) that never prints.
type Secret struct{ v string }

// NewSecret wraps s.
func NewSecret(s string) Secret { return Secret{v: s} }

// Reveal returns the secret's value. Call it only to put the value on the
// wire.
func (s Secret) Reveal() string { return s.v }

// IsZero reports whether the secret is empty.
func (s Secret) IsZero() bool { return s.v == "" }

// Equal reports whether two secrets hold the same value.
func (s Secret) Equal(o Secret) bool { return s.v == o.v }

const redacted = "[redacted]"

// String hides the value.
func (s Secret) String() string {
	if s.v == "" {
		return ""
	}
	return redacted
}

// GoString hides the value from %#v.
func (s Secret) GoString() string { return "auth.Secret{" + redacted + "}" }

// LogValue hides the value from log/slog.
func (s Secret) LogValue() slog.Value { return slog.StringValue(s.String()) }

// MarshalJSON hides the value from encoding/json.
func (s Secret) MarshalJSON() ([]byte, error) { return []byte(`"` + s.String() + `"`), nil }

// MarshalText hides the value from text encoders.
func (s Secret) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Source gives the bearer token of an interface.
type Source interface {
	// Token returns a token that is valid now.
	Token(ctx context.Context) (Secret, error)
	// Invalidate drops tok after the interface answered 401, so the next
	// Token fetches a new one; a tok that is no longer current is ignored
	// (another caller already refreshed). It reports whether a new token
	// can be obtained at all: false for a static token, whose 401 must not
	// be retried.
	Invalidate(tok Secret) bool
}

// Static is a fixed bearer token from the profile (liquidity, custody).
type Static struct{ tok Secret }

// NewStatic returns a source that always gives tok.
func NewStatic(tok Secret) *Static { return &Static{tok: tok} }

// Token returns the fixed token.
func (s *Static) Token(context.Context) (Secret, error) { return s.tok, nil }

// Invalidate cannot refresh a static token: it reports false.
func (s *Static) Invalidate(Secret) bool { return false }
