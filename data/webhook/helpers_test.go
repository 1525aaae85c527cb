package webhook_test

import (
	"bytes"
	"crypto"
	"crypto/tls"
	"crypto/x509"
	"io"
	"net/http"
	"testing"
	"time"

	"treasury/data/webhook"
)

func nopCloser(b []byte) io.ReadCloser { return io.NopCloser(bytes.NewReader(b)) }

func tlsTrusting(pool *x509.CertPool) *tls.Config {
	return &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
}

// postSigned POSTs raw to url through hc, signed by signer at at with the
// default header prefix (tamper, when set, may change the request last),
// and returns the status.
func postSigned(t testing.TB, hc *http.Client, url string, raw []byte, signer crypto.Signer, at time.Time, tamper func(*http.Request)) int {
	t.Helper()
	ts := webhook.Timestamp(at)
	sig, err := webhook.Sign(signer, ts, raw)
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(webhook.SignatureHeader(webhook.DefaultHeaderPrefix), sig)
	req.Header.Set(webhook.TimestampHeader(webhook.DefaultHeaderPrefix), ts)
	if tamper != nil {
		tamper(req)
	}
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}
