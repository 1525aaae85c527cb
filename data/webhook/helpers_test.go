package webhook_test

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"io"
)

func nopCloser(b []byte) io.ReadCloser { return io.NopCloser(bytes.NewReader(b)) }

func tlsTrusting(pool *x509.CertPool) *tls.Config {
	return &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
}
