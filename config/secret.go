package config

import (
	"fmt"
	"log/slog"
)

// redacted is what a Secret shows wherever it is printed, logged or encoded.
const redacted = "[redacted]"

// Secret holds a credential. It prints, formats, logs and encodes (JSON and
// YAML) as "[redacted]"; only Reveal gives the value, for the one place that
// sends it over the wire.
type Secret struct{ v string }

// NewSecret wraps a value.
func NewSecret(v string) Secret { return Secret{v: v} }

// Reveal returns the secret value. Call it only to put the value on the wire.
func (s Secret) Reveal() string { return s.v }

// IsZero reports whether the secret is empty.
func (s Secret) IsZero() bool { return s.v == "" }

// String redacts.
func (s Secret) String() string { return redacted }

// GoString redacts (%#v).
func (s Secret) GoString() string { return redacted }

// Format redacts for every verb, so %x or %q cannot leak the value either.
func (s Secret) Format(f fmt.State, verb rune) { fmt.Fprint(f, redacted) }

// MarshalJSON redacts.
func (s Secret) MarshalJSON() ([]byte, error) { return []byte(`"` + redacted + `"`), nil }

// MarshalText redacts (encoding.TextMarshaler users such as slog's text handler).
func (s Secret) MarshalText() ([]byte, error) { return []byte(redacted), nil }

// MarshalYAML redacts.
func (s Secret) MarshalYAML() (any, error) { return redacted, nil }

// LogValue redacts in log/slog.
func (s Secret) LogValue() slog.Value { return slog.StringValue(redacted) }
