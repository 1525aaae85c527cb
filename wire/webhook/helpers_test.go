package webhook_test

import (
	"bytes"
	"context"
	"crypto"
	"crypto/tls"
	"crypto/x509"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"testing"
	"time"

	"treasury/wire/webhook"
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

// logCapture is a slog handler that keeps each record's level, message
// and attributes as text.
type logCapture struct {
	mu   sync.Mutex
	recs []map[string]string
}

func (l *logCapture) Enabled(context.Context, slog.Level) bool { return true }
func (l *logCapture) Handle(_ context.Context, r slog.Record) error {
	m := map[string]string{"level": r.Level.String(), "msg": r.Message}
	r.Attrs(func(a slog.Attr) bool { m[a.Key] = a.Value.String(); return true })
	l.mu.Lock()
	l.recs = append(l.recs, m)
	l.mu.Unlock()
	return nil
}
func (l *logCapture) WithAttrs([]slog.Attr) slog.Handler { return l }
func (l *logCapture) WithGroup(string) slog.Handler      { return l }

func (l *logCapture) records() []map[string]string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]map[string]string(nil), l.recs...)
}
