package custody

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"treasury/data/transport"
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

// usable reports whether the signer has a user id and a whole key.
func (s Signer) usable() bool { return s.UserID != "" && len(s.Key) == ed25519.PrivateKeySize }

// Sign encodes req, signs its exact bytes and returns the body of POST
// /v1/intents as JSON, built so that the request's bytes travel unchanged.
func (s Signer) Sign(req IntentRequest) (json.RawMessage, error) {
	if !s.usable() {
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

// Lock proposes locking an endpoint at its current revision. intentID is
// the caller's fresh UUID, reused when the caller retries the same action:
// the interface then answers with the same requestId and changes nothing.
func (c *Client) Lock(ctx context.Context, endpointID, intentID string) (IntentAccepted, error) {
	return c.Propose(ctx, PayloadLock, endpointID, intentID, nil)
}

// Unlock proposes unlocking an endpoint; see Lock.
func (c *Client) Unlock(ctx context.Context, endpointID, intentID string) (IntentAccepted, error) {
	return c.Propose(ctx, PayloadUnlock, endpointID, intentID, nil)
}

// Propose reads the endpoint's revision, builds the intent of payloadType
// (PayloadLock or PayloadUnlock) with the given custom properties, signs it
// and posts it. The post may be repeated (the intent id is its
// idempotency key).
func (c *Client) Propose(ctx context.Context, payloadType, endpointID, intentID string, props map[string]string) (IntentAccepted, error) {
	if payloadType != PayloadLock && payloadType != PayloadUnlock {
		return IntentAccepted{}, fmt.Errorf("custody: unknown intent payload %q", payloadType)
	}
	if intentID == "" {
		return IntentAccepted{}, errors.New("custody: an intent needs an id")
	}
	if !c.signer.usable() { // before reading the endpoint
		return IntentAccepted{}, ErrNoSigner
	}
	e, err := c.Endpoint(ctx, endpointID)
	if err != nil {
		return IntentAccepted{}, err
	}
	now := c.now().UTC()
	body, err := c.signer.Sign(IntentRequest{
		Type: RequestType, ID: intentID,
		Author:         Author{ID: c.signer.UserID, DomainID: c.domainID},
		TargetDomainID: c.domainID, ExpiryAt: now.Add(IntentLifetime).Truncate(time.Millisecond),
		Payload:          IntentPayload{Type: payloadType, Reference: Reference{ID: e.ID, Revision: e.Metadata.Revision}},
		CustomProperties: props,
	})
	if err != nil {
		return IntentAccepted{}, err
	}
	var acc IntentAccepted
	_, err = c.t.Do(ctx, transport.Request{Method: http.MethodPost, Path: PathIntents, Body: body, Idempotent: true}, &acc)
	return acc, err
}
