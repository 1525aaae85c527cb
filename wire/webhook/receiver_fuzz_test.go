package webhook_test

import (
	"bytes"
	"crypto/ed25519"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"treasury/wire/payments"
	"treasury/wire/webhook"
	"treasury/wire/wiretest"
)

// FuzzReceiver sends the receiver any body with any signature and
// timestamp headers, or with the body signed for real over the fuzzed
// timestamp (sign), so that the paths after the signature are reached.
// No panic; an answer the sender understands; a notification is accepted
// only when signed by the key, within tolerance of the clock, and a
// complete PAYMENT_STATE_TRANSITION; what is delivered is the body read,
// stable when written back and read again.
func FuzzReceiver(f *testing.F) {
	ts := webhook.Timestamp(now)
	ok := body(f, event("n-1", "p-1", payments.Transferring, now))
	for _, c := range []struct {
		ts, sig string
		body    []byte
		sign    bool
	}{
		{ts, "", ok, true},
		{strconv.FormatInt(now.Add(-4*time.Minute).Unix(), 10), "", body(f, event("n-2", "p-1", payments.Completed, now)), true},
		{strconv.FormatInt(now.Add(6*time.Minute).Unix(), 10), "", ok, true},
		{"+" + ts, "", ok, true}, {"0" + ts, "", ok, true}, {ts + ".5", "", ok, true}, {"-9223372036854775808", "", ok, true},
		{"9223372036854775807", "", ok, true}, {"", "", ok, true},
		{ts, "", []byte(`{"id":"n-3","eventType":"PAYMENT_STATE_TRANSITION","eventVersion":1,"eventData":{"paymentId":"p-2","paymentState":"SOMETHING_NEW","sourceAmount":"12.50","payoutAmount":1e3},"createDate":"2026-11-16T09:30:00+01:00","extra":[1,2]}`), true},
		{ts, "", []byte(`{"id":"n-4","eventType":"PAYMENT_STATE_TRANSITION","eventData":{"paymentId":"p-3"}}`), true},
		{ts, "", []byte(`{"id":"n-5","eventType":"PAYOUT_UPDATED"}`), true},
		{ts, "", []byte(`{"id":"n-6","eventType":"PAYMENT_STATE_TRANSITION","eventData":{"paymentId":"p","paymentState":"FAILED","sourceAmount":"x"}}`), true},
		{ts, "", append(append([]byte{}, ok...), " trailing"...), true},
		{ts, "AAAA", ok, false}, {ts, "not base64!", ok, false}, {"", "", ok, false},
		{ts, "c2ln", []byte("{}"), false},
	} {
		f.Add(c.ts, c.sig, c.body, c.sign)
	}
	for _, b := range wiretest.Seeds("eventData") {
		f.Add(ts, "", b, true)
	}
	key := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, ed25519.SeedSize))
	f.Fuzz(func(t *testing.T, ts, sig string, raw []byte, sign bool) {
		rc, err := webhook.NewReceiver(webhook.ReceiverOptions{PublicKey: key.Public(), Now: func() time.Time { return now },
			SeenIDs: 8, TrackedPayments: 8, Queue: 2})
		if err != nil {
			t.Fatal(err)
		}
		if sign {
			if sig, err = webhook.Sign(key, ts, raw); err != nil {
				t.Fatal(err)
			}
		}
		req := httptest.NewRequest(http.MethodPost, "/hook", bytes.NewReader(raw))
		req.Header.Set(webhook.TimestampHeader(webhook.DefaultHeaderPrefix), ts)
		req.Header.Set(webhook.SignatureHeader(webhook.DefaultHeaderPrefix), sig)
		w := httptest.NewRecorder()
		rc.ServeHTTP(w, req)

		hts, hsig := req.Header.Get(webhook.TimestampHeader(webhook.DefaultHeaderPrefix)), req.Header.Get(webhook.SignatureHeader(webhook.DefaultHeaderPrefix))
		verified := hts != "" && hsig != "" && webhook.Verify(key.Public(), hts, raw, hsig) == nil
		at, terr := webhook.ParseTimestamp(hts)
		inTime := terr == nil && now.Sub(at) <= webhook.DefaultTolerance && at.Sub(now) <= webhook.DefaultTolerance
		st := rc.Stats()
		switch w.Code {
		case http.StatusNoContent:
			if !verified || !inTime {
				t.Fatalf("ts %q sig %q body %q accepted (verified %v, in time %v)", hts, hsig, raw, verified, inTime)
			}
		case http.StatusUnauthorized:
			if verified && inTime {
				t.Fatalf("ts %q body %q: signed in time, refused as unauthorized: %s", hts, raw, w.Body)
			}
		case http.StatusBadRequest, http.StatusRequestEntityTooLarge:
		default:
			t.Fatalf("answered %d: %s", w.Code, w.Body)
		}
		if st.Accepted+st.Ignored+st.Rejected+st.Duplicates != 1 {
			t.Fatalf("one request counted as %+v", st)
		}
		if st.Accepted == 1 {
			d := <-rc.Events()
			var want webhook.Event
			if err := json.NewDecoder(bytes.NewReader(raw)).Decode(&want); err != nil {
				t.Fatalf("delivered %+v from a body that does not decode: %v", d.Event, err)
			}
			a, b := mustMarshal(t, d.Event), mustMarshal(t, want)
			if !bytes.Equal(a, b) || d.Event.ID == "" || d.Event.EventData.PaymentID == "" || d.Event.EventData.PaymentState == "" ||
				d.Event.EventType != webhook.EventPaymentStateTransition {
				t.Fatalf("delivered %s, the body reads %s", a, b)
			}
			var back webhook.Event
			if err := json.Unmarshal(a, &back); err != nil || !bytes.Equal(mustMarshal(t, back), a) {
				t.Fatalf("delivered %s reads back as %+v (%v)", a, back, err)
			}
		}
	})
}

// FuzzParseTimestamp: the timestamp header reads as the Unix seconds it
// spells, and a time written by Timestamp reads back to the same second.
func FuzzParseTimestamp(f *testing.F) {
	for _, s := range []string{"1794821400", "0", "-1", "+12", "007", "", " 1", "1e9", "9223372036854775807", "9223372036854775808", "1794821400.5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		at, err := webhook.ParseTimestamp(s)
		n, nerr := strconv.ParseInt(s, 10, 64)
		if (err == nil) != (nerr == nil) || err == nil && at.Unix() != n {
			t.Fatalf("%q read as %v (%v); ParseInt says %d (%v)", s, at, err, n, nerr)
		}
		if err == nil {
			if back, err := webhook.ParseTimestamp(webhook.Timestamp(at)); err != nil || !back.Equal(at) {
				t.Fatalf("%q: %v written as %q reads %v (%v)", s, at, webhook.Timestamp(at), back, err)
			}
		}
	})
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestReceiverAllocationBounded: a signed body as large as the receiver
// reads, adversarial in its eventData, costs a bounded multiple of its
// size to verify and decode.
func TestReceiverAllocationBounded(t *testing.T) {
	key := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, ed25519.SeedSize))
	rc, err := webhook.NewReceiver(webhook.ReceiverOptions{PublicKey: key.Public(), Now: func() time.Time { return now }, MaxBody: 2 << 20})
	if err != nil {
		t.Fatal(err)
	}
	ts := webhook.Timestamp(now)
	wiretest.Bounded(t, "eventData", func(b []byte) {
		sig, _ := webhook.Sign(key, ts, b)
		req := httptest.NewRequest(http.MethodPost, "/hook", bytes.NewReader(b))
		req.Header.Set(webhook.TimestampHeader(webhook.DefaultHeaderPrefix), ts)
		req.Header.Set(webhook.SignatureHeader(webhook.DefaultHeaderPrefix), sig)
		rc.ServeHTTP(httptest.NewRecorder(), req)
	})
}
