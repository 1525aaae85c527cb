// Package pubkey reads and writes the PEM "PUBLIC KEY" (PKIX) blocks a
// signing party publishes: the webhook sender's key the profile names
// (config) and the sandbox hands out. It lives on the ground so the
// configuration can check a key without importing the webhook receiver.
package pubkey

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
)

// ParsePEM reads a PEM "PUBLIC KEY" (PKIX) block holding an Ed25519,
// ECDSA P-256 or RSA key.
func ParsePEM(b []byte) (crypto.PublicKey, error) {
	blk, _ := pem.Decode(b)
	if blk == nil {
		return nil, errors.New("no PEM block found")
	}
	pub, err := x509.ParsePKIXPublicKey(blk.Bytes)
	if err != nil {
		return nil, fmt.Errorf("parse public key: %w", err)
	}
	switch k := pub.(type) {
	case ed25519.PublicKey, *rsa.PublicKey:
		return k, nil
	case *ecdsa.PublicKey:
		if k.Curve.Params().Name != "P-256" {
			return nil, fmt.Errorf("ECDSA curve %s is not supported (P-256 only)", k.Curve.Params().Name)
		}
		return k, nil
	}
	return nil, fmt.Errorf("public key type %T is not supported", pub)
}

// MarshalPEM writes pub as a PEM "PUBLIC KEY" block.
func MarshalPEM(pub crypto.PublicKey) ([]byte, error) {
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}), nil
}
