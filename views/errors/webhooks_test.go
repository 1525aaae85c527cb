package errorsview_test

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/tls"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"treasury/kit/portowner"
	errorsview "treasury/views/errors"
	"treasury/views/viewtest"
	"treasury/wire/webhook"
)

// TestErrorsViewCountsWebhookRejections: a receiver on loopback refuses a
// notification signed by another key and one signed too long ago; the
// errors view shows the receiver's section apart from the failed calls,
// with the count per reason, and the header says how many were rejected.
func TestErrorsViewCountsWebhookRejections(t *testing.T) {
	_, key, _ := ed25519.GenerateKey(rand.Reader)
	_, other, _ := ed25519.GenerateKey(rand.Reader)
	rh := startReceiver(t, webhook.ReceiverOptions{PublicKey: key.Public()})
	post := func(signer ed25519.PrivateKey, at time.Time) {
		t.Helper()
		raw := []byte(`{"id":"n1","eventType":"PAYMENT_STATE_TRANSITION","eventData":{"paymentId":"p1","paymentState":"FAILED"}}`)
		if code := rh.post(t, signer, at, raw); code != http.StatusUnauthorized {
			t.Fatalf("HTTP %d, want 401", code)
		}
	}
	post(other, time.Now())
	post(other, time.Now())
	post(key, time.Now().Add(-time.Hour))

	e := viewtest.Shared(t)
	e.Ctx.Webhooks = func() webhook.Status {
		return webhook.Status{Addr: rh.srv.Addr(), Stats: rh.rcv.Stats(), Rejections: rh.rcv.Rejections()}
	}
	tm := e.Program(t, errorsview.New(e.Ctx))
	viewtest.WaitAll(t, tm, "Webhook receiver", "listening on "+rh.srv.Addr(),
		"rejected 3: bad_signature 2, stale_timestamp 1", "webhooks ⚠ 3 rejected (:errors)")
	frame := viewtest.Frame(t, tm)
	viewtest.Fits(t, "errors view", frame, viewtest.Width, viewtest.Height)
}

// TestErrorsViewSaysWebhookPortInUse: the receiver's port is held by
// another listener (here this test); the view says by whom and that
// payment states come from polling alone, and the header says so too.
func TestErrorsViewSaysWebhookPortInUse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	cert, _, _ := webhook.SelfSigned()
	_, key, _ := ed25519.GenerateKey(rand.Reader)
	rcv, _ := webhook.NewReceiver(webhook.ReceiverOptions{PublicKey: key.Public()})
	_, err = webhook.Serve(ln.Addr().String(), "", cert, rcv)
	var le *webhook.ListenError
	if !errors.As(err, &le) || !le.InUse() {
		t.Fatalf("Serve on a taken port: %v", err)
	}
	st := webhook.Status{Addr: le.Addr, Err: le, Holder: portowner.NameAddr(le.Addr)}
	if st.Holder == "" {
		t.Log("portowner could not name this process: the view says \"another process\"")
	}
	e := viewtest.Shared(t)
	e.Ctx.Webhooks = func() webhook.Status { return st }
	tm := e.Program(t, errorsview.New(e.Ctx))
	viewtest.WaitAll(t, tm, "Webhook receiver", ln.Addr().String()+" is in use by", "polling alone",
		"webhooks ✖ port in use: polling only (:errors)")
	frame := viewtest.Frame(t, tm)
	if st.Holder != "" && !strings.Contains(frame, "(pid ") {
		t.Errorf("the frame does not name the holder %q", st.Holder)
	}
}

// TestErrorsViewTellsBusyFromRejected: a receiver whose queue to the store
// is full answers genuine notifications 503 (the platform delivers them
// again): the errors view counts them as answered busy, and neither it
// nor the header calls them rejected.
func TestErrorsViewTellsBusyFromRejected(t *testing.T) {
	_, key, _ := ed25519.GenerateKey(rand.Reader)
	// A queue of one, and nothing draining it: the store not keeping up.
	rh := startReceiver(t, webhook.ReceiverOptions{PublicKey: key.Public(), Queue: 1})
	for i, want := range []int{http.StatusNoContent, http.StatusServiceUnavailable, http.StatusServiceUnavailable} {
		raw := []byte(`{"id":"n` + string(rune('1'+i)) + `","eventType":"PAYMENT_STATE_TRANSITION","eventData":{"paymentId":"p1","paymentState":"COMPLETED"}}`)
		if code := rh.post(t, key, time.Now(), raw); code != want {
			t.Fatalf("notification %d: HTTP %d, want %d", i+1, code, want)
		}
	}

	e := viewtest.Shared(t)
	e.Ctx.Webhooks = func() webhook.Status {
		return webhook.Status{Addr: rh.srv.Addr(), Stats: rh.rcv.Stats(), Rejections: rh.rcv.Rejections()}
	}
	tm := e.Program(t, errorsview.New(e.Ctx))
	viewtest.WaitAll(t, tm, "Webhook receiver", "1 accepted", "answered busy 2 times")
	frame := viewtest.Frame(t, tm)
	if strings.Contains(frame, "rejected") {
		t.Errorf("notifications answered busy, which the platform delivers again, are shown as rejected:\n%s", frame)
	}
	viewtest.Fits(t, "errors view", frame, viewtest.Width, viewtest.Height)
}

// receiverHarness is a webhook receiver served over TLS on loopback, and a
// client that trusts it.
type receiverHarness struct {
	rcv *webhook.Receiver
	srv *webhook.Server
	hc  *http.Client
}

func startReceiver(t *testing.T, o webhook.ReceiverOptions) receiverHarness {
	t.Helper()
	rcv, err := webhook.NewReceiver(o)
	if err != nil {
		t.Fatal(err)
	}
	cert, pool, err := webhook.SelfSigned()
	if err != nil {
		t.Fatal(err)
	}
	srv, err := webhook.Serve("127.0.0.1:0", "", cert, rcv)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	hc := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}}}
	return receiverHarness{rcv: rcv, srv: srv, hc: hc}
}

// post sends raw signed by signer at at, and returns the HTTP status.
func (h receiverHarness) post(t *testing.T, signer ed25519.PrivateKey, at time.Time, raw []byte) int {
	t.Helper()
	ts := webhook.Timestamp(at)
	sig, _ := webhook.Sign(signer, ts, raw)
	req, _ := http.NewRequest(http.MethodPost, h.srv.URL, bytes.NewReader(raw))
	req.Header.Set("X-Payments-Signature", sig)
	req.Header.Set("X-Payments-Signature-Timestamp", ts)
	resp, err := h.hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}
