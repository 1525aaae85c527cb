package pubkey

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"strings"
	"testing"
)

// TestPEMRoundTripAndRefusals: a key written is read back; what is no PEM
// or a curve the receiver does not verify is refused with why.
func TestPEMRoundTripAndRefusals(t *testing.T) {
	pub, _, _ := ed25519.GenerateKey(rand.Reader)
	b, err := MarshalPEM(pub)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ParsePEM(b)
	if err != nil || !pub.Equal(got) {
		t.Fatalf("read back %v, %v", got, err)
	}
	if _, err := ParsePEM([]byte("not a key")); err == nil || !strings.Contains(err.Error(), "no PEM block") {
		t.Errorf("no PEM: %v", err)
	}
	p384, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	b, _ = MarshalPEM(&p384.PublicKey)
	if _, err := ParsePEM(b); err == nil || !strings.Contains(err.Error(), "P-256 only") {
		t.Errorf("P-384: %v", err)
	}
}
