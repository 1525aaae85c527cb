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
// and posts it (IntentRoute, Build, Submit). The post may be repeated (the
// intent id is its idempotency key).
func (c *Client) Propose(ctx context.Context, payloadType, endpointID, intentID string, props map[string]string) (IntentAccepted, error) {
	rt, err := c.IntentRoute(ctx, payloadType, endpointID)
	if err != nil {
		return IntentAccepted{}, err
	}
	m, err := rt.Build(intentID, props)
	if err != nil {
		return IntentAccepted{}, err
	}
	return c.Submit(ctx, m)
}

// IntentRoute is an intent about to be proposed: the endpoint it acts on
// at the revision read, and how to sign it. Build makes the request that
// is recorded and sent, under the intent id decided last.
type IntentRoute struct {
	Method, Path string
	payloadType  string
	endpoint     Endpoint
	signer       Signer
	domainID     string
	now          func() time.Time
}

// Line is the request line: "POST /v1/intents".
func (rt IntentRoute) Line() string { return rt.Method + " " + rt.Path }

// IntentRoute reads the endpoint's revision (what the intent names) and
// checks that an intent of payloadType can be signed, before anything is
// recorded or sent.
func (c *Client) IntentRoute(ctx context.Context, payloadType, endpointID string) (IntentRoute, error) {
	if payloadType != PayloadLock && payloadType != PayloadUnlock {
		return IntentRoute{}, fmt.Errorf("custody: unknown intent payload %q", payloadType)
	}
	if !c.signer.usable() { // before reading the endpoint
		return IntentRoute{}, ErrNoSigner
	}
	e, err := c.Endpoint(ctx, endpointID)
	if err != nil {
		return IntentRoute{}, err
	}
	return IntentRoute{Method: http.MethodPost, Path: PathIntents, payloadType: payloadType, endpoint: e,
		signer: c.signer, domainID: c.domainID, now: c.now}, nil
}

// Build signs the intent of rt under intentID (a fresh UUID, reused when
// the same action is retried: the interface then answers with the same
// requestId and changes nothing), expiring IntentLifetime from now, and
// returns the request whose bytes are recorded and sent unchanged.
func (rt IntentRoute) Build(intentID string, props map[string]string) (transport.Mutation, error) {
	if intentID == "" {
		return transport.Mutation{}, errors.New("custody: an intent needs an id")
	}
	now := rt.now().UTC()
	body, err := rt.signer.Sign(IntentRequest{
		Type: RequestType, ID: intentID,
		Author:         Author{ID: rt.signer.UserID, DomainID: rt.domainID},
		TargetDomainID: rt.domainID, ExpiryAt: now.Add(IntentLifetime).Truncate(time.Millisecond),
		Payload:          IntentPayload{Type: rt.payloadType, Reference: Reference{ID: rt.endpoint.ID, Revision: rt.endpoint.Metadata.Revision}},
		CustomProperties: props,
	})
	if err != nil {
		return transport.Mutation{}, err
	}
	return transport.Mutation{Method: rt.Method, Path: rt.Path, Body: body}, nil
}

// Submit posts a signed intent (Build) once; the transport may repeat it
// (the intent id is its idempotency key).
func (c *Client) Submit(ctx context.Context, m transport.Mutation) (IntentAccepted, error) {
	var acc IntentAccepted
	_, err := c.t.Send(ctx, m, &acc)
	return acc, err
}
