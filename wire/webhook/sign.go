package webhook

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/asn1"
	"encoding/base64"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"time"
)

// DefaultHeaderPrefix is the {service_prefix} used when the profile sets none.
const DefaultHeaderPrefix = "X-Payments"

// SignatureHeader is the header carrying the base64 signature.
func SignatureHeader(prefix string) string { return prefix + "-Signature" }

// TimestampHeader is the header carrying the signed timestamp.
func TimestampHeader(prefix string) string { return prefix + "-Signature-Timestamp" }

// Timestamp formats t as the timestamp header value (Unix seconds).
func Timestamp(t time.Time) string { return strconv.FormatInt(t.Unix(), 10) }

// ParseTimestamp reads a timestamp header value.
func ParseTimestamp(s string) (time.Time, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("signature timestamp %q is not Unix seconds", s)
	}
	return time.Unix(n, 0), nil
}

// signedInput is timestamp + "." + raw body (6.1).
func signedInput(timestamp string, body []byte) []byte {
	in := make([]byte, 0, len(timestamp)+1+len(body))
	in = append(in, timestamp...)
	in = append(in, '.')
	return append(in, body...)
}

// Sign signs timestamp + "." + body with key and returns it base64-encoded.
// The algorithm follows the key: Ed25519, ECDSA (ASN.1 over SHA-256) or RSA
// (PSS over SHA-256).
func Sign(key crypto.Signer, timestamp string, body []byte) (string, error) {
	in := signedInput(timestamp, body)
	var sig []byte
	var err error
	switch k := key.(type) {
	case ed25519.PrivateKey:
		sig = ed25519.Sign(k, in)
	case *ecdsa.PrivateKey:
		h := sha256.Sum256(in)
		sig, err = ecdsa.SignASN1(rand.Reader, k, h[:])
	case *rsa.PrivateKey:
		h := sha256.Sum256(in)
		sig, err = rsa.SignPSS(rand.Reader, k, crypto.SHA256, h[:], &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthEqualsHash})
	default:
		return "", fmt.Errorf("webhook: unsupported signing key %T", key)
	}
	if err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(sig), nil
}

// ErrBadSignature is returned when a signature does not match.
var ErrBadSignature = errors.New("webhook: signature does not match")

// Verify checks a base64 signature of timestamp + "." + body against pub. The
// algorithm comes from the type of pub, never from the request.
func Verify(pub crypto.PublicKey, timestamp string, body []byte, signature string) error {
	sig, err := base64.StdEncoding.DecodeString(signature)
	if err != nil {
		return ErrBadSignature
	}
	in := signedInput(timestamp, body)
	ok := false
	switch k := pub.(type) {
	case ed25519.PublicKey:
		ok = len(sig) == ed25519.SignatureSize && ed25519.Verify(k, in, sig)
	case *ecdsa.PublicKey:
		h := sha256.Sum256(in)
		ok = ecdsa.VerifyASN1(k, h[:], sig)
	case *rsa.PublicKey:
		h := sha256.Sum256(in)
		ok = rsa.VerifyPSS(k, crypto.SHA256, h[:], sig, &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthAuto}) == nil
	default:
		return fmt.Errorf("webhook: unsupported public key %T", pub)
	}
	if !ok {
		return ErrBadSignature
	}
	return nil
}

// signatureFits reports whether sig has the form of a signature by pub's
// algorithm: 64 bytes for Ed25519, an ASN.1 pair of integers for ECDSA,
// the modulus size for RSA. A signature that verifies always fits; one
// that does not fit was made with another kind of key.
func signatureFits(pub crypto.PublicKey, sig []byte) bool {
	switch k := pub.(type) {
	case ed25519.PublicKey:
		return len(sig) == ed25519.SignatureSize
	case *ecdsa.PublicKey:
		var rs struct{ R, S *big.Int }
		rest, err := asn1.Unmarshal(sig, &rs)
		return err == nil && len(rest) == 0
	case *rsa.PublicKey:
		return len(sig) == k.Size()
	}
	return false
}

// keyKind names pub's algorithm for messages.
func keyKind(pub crypto.PublicKey) string {
	switch k := pub.(type) {
	case ed25519.PublicKey:
		return "Ed25519"
	case *ecdsa.PublicKey:
		return "ECDSA " + k.Curve.Params().Name
	case *rsa.PublicKey:
		return fmt.Sprintf("RSA-%d", k.N.BitLen())
	}
	return fmt.Sprintf("%T", pub)
}
