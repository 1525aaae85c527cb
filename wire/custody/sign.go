package custody

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
)

// Signer is the operator who proposes intents: a custody user id and its
// Ed25519 key. The key never leaves the process; only signatures do.
type Signer struct {
	UserID string
	Key    ed25519.PrivateKey
}

// String hides the key.
func (s Signer) String() string { return "custody.Signer{UserID: " + s.UserID + ", Key: [redacted]}" }

// GoString hides the key.
func (s Signer) GoString() string { return s.String() }

// ErrNoSigner is returned by the intent actions when the profile has no
// usable signing key or user id.
var ErrNoSigner = errors.New("custody: no signing key and user id configured for intents")

// Usable reports whether the signer has a user id and a whole key.
func (s Signer) Usable() bool { return s.UserID != "" && len(s.Key) == ed25519.PrivateKeySize }

// Sign encodes req, signs its exact bytes and returns the body of POST
// /v1/intents as JSON, built so that the request's bytes travel unchanged.
func (s Signer) Sign(req IntentRequest) (json.RawMessage, error) {
	if !s.Usable() {
		return nil, ErrNoSigner
	}
	raw, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("custody: encode intent: %w", err)
	}
	sig, err := json.Marshal(base64.StdEncoding.EncodeToString(ed25519.Sign(s.Key, raw)))
	if err != nil {
		return nil, err
	}
	body := make([]byte, 0, len(raw)+len(sig)+32)
	body = append(body, `{"request":`...)
	body = append(body, raw...)
	body = append(body, `,"signature":`...)
	body = append(body, sig...)
	body = append(body, '}')
	return body, nil
}
