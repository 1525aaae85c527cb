package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"treasury/wire/custody"
	"treasury/wire/transport"
)

// Lock proposes locking an endpoint at its current revision. intentID is
// the caller's fresh UUID, reused when the caller retries the same action:
// the interface then answers with the same requestId and changes nothing.
func (c *Client) Lock(ctx context.Context, endpointID, intentID string) (custody.IntentAccepted, error) {
	return c.Propose(ctx, custody.PayloadLock, endpointID, intentID, nil)
}

// Unlock proposes unlocking an endpoint; see Lock.
func (c *Client) Unlock(ctx context.Context, endpointID, intentID string) (custody.IntentAccepted, error) {
	return c.Propose(ctx, custody.PayloadUnlock, endpointID, intentID, nil)
}

// Propose reads the endpoint's revision, builds the intent of payloadType
// (PayloadLock or PayloadUnlock) with the given custom properties, signs it
// and posts it (IntentRoute, Build, Submit). The post may be repeated (the
// intent id is its idempotency key).
func (c *Client) Propose(ctx context.Context, payloadType, endpointID, intentID string, props map[string]string) (custody.IntentAccepted, error) {
	rt, err := c.IntentRoute(ctx, payloadType, endpointID)
	if err != nil {
		return custody.IntentAccepted{}, err
	}
	m, err := rt.Build(intentID, props)
	if err != nil {
		return custody.IntentAccepted{}, err
	}
	return c.Submit(ctx, m)
}

// IntentRoute is an intent about to be proposed: the endpoint it acts on
// at the revision read, and how to sign it. Build makes the request that
// is recorded and sent, under the intent id decided last.
type IntentRoute struct {
	Method, Path string
	payloadType  string
	endpoint     custody.Endpoint
	signer       custody.Signer
	domainID     string
	now          func() time.Time
}

// Line is the request line: "POST /v1/intents".
func (rt IntentRoute) Line() string { return rt.Method + " " + rt.Path }

// IntentRoute reads the endpoint's revision (what the intent names) and
// checks that an intent of payloadType can be signed, before anything is
// recorded or sent.
func (c *Client) IntentRoute(ctx context.Context, payloadType, endpointID string) (IntentRoute, error) {
	if payloadType != custody.PayloadLock && payloadType != custody.PayloadUnlock {
		return IntentRoute{}, fmt.Errorf("custody: unknown intent payload %q", payloadType)
	}
	if !c.signer.Usable() { // before reading the endpoint
		return IntentRoute{}, custody.ErrNoSigner
	}
	e, err := c.Endpoint(ctx, endpointID)
	if err != nil {
		return IntentRoute{}, err
	}
	return IntentRoute{Method: http.MethodPost, Path: custody.PathIntents, payloadType: payloadType, endpoint: e,
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
	body, err := rt.signer.Sign(custody.IntentRequest{
		Type: custody.RequestType, ID: intentID,
		Author:         custody.Author{ID: rt.signer.UserID, DomainID: rt.domainID},
		TargetDomainID: rt.domainID, ExpiryAt: now.Add(IntentLifetime).Truncate(time.Millisecond),
		Payload:          custody.IntentPayload{Type: rt.payloadType, Reference: custody.Reference{ID: rt.endpoint.ID, Revision: rt.endpoint.Metadata.Revision}},
		CustomProperties: props,
	})
	if err != nil {
		return transport.Mutation{}, err
	}
	return transport.Mutation{Method: rt.Method, Path: rt.Path, Body: body}, nil
}

// Submit posts a signed intent (Build) once; the transport may repeat it
// (the intent id is its idempotency key).
func (c *Client) Submit(ctx context.Context, m transport.Mutation) (custody.IntentAccepted, error) {
	var acc custody.IntentAccepted
	_, err := c.t.Send(ctx, m, &acc)
	return acc, err
}
