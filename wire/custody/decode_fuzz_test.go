package custody

import (
	"encoding/json"
	"testing"

	"treasury/wire"
	"treasury/wire/wiretest"
)

const seedItem = `{"data":{"id":"ep-1","domainId":"dom-1","alias":"Acme payroll","address":"0x8ba1f109551bD432803012645Ac136ddd64DBA72","ledgerId":"ETH","lock":"Locked","trustScore":80,"parameters":{"type":"SmartContract","ABI":"[{\"type\":\"function\",\"name\":\"transfer\"}]"},"metadata":{"description":"payroll","revision":3,"createdAt":"2026-10-01T08:00:00Z","createdBy":"u-1","lastModifiedAt":"2026-11-01T08:00:00Z","customProperties":{"listing":"whitelisted"}}},"signature":"c2ln","signingKey":"a2V5"}`

// FuzzCustody decodes any body as the custody client does each answer
// (the first byte chooses): a page of signed endpoints, one signed
// endpoint, an intent, or the answer to a posted intent. No panic; every
// item read is stable and reads the same from the JSON it kept; the next
// cursor is nextStartingAfter as sent.
func FuzzCustody(f *testing.F) {
	variant := `{"data":{"id":"ep-2","lock":"Unlocked","parameters":{"type":"SmartContract","ABI":[{"type":"function","name":"approve"}]},"metadata":{"description":"","revision":1,"createdBy":{"id":"u-2","name":"Ana"},"customProperties":{"listing":"blacklisted","tier":3,"reviewed":true}},"schemaVersion":2},"signature":"c2ln","signingKey":"a2V5","_links":{"self":{"href":"/x"}}}`
	for _, s := range []string{
		"\x00" + `{"items":[` + seedItem + `,` + variant + `,{"data":{"id":"ep-3","trustScore":"high"}},null],"count":3,"currentStartingAfter":"","nextStartingAfter":"ep-2"}`,
		"\x00" + `{"items":[],"count":0}`, "\x00" + `{"items":{},"nextStartingAfter":7}`,
		"\x01" + seedItem, "\x01" + variant, "\x01" + `{"data":{"metadata":{"customProperties":[]}}}`,
		"\x02" + `{"id":"int-1","domainId":"dom-1","status":"Pending","payload":{"type":"v0_LockEndpoint","reference":{"id":"ep-1","revision":3}},"author":{"id":"u-1","domainId":"dom-1"},"approvals":1,"approvalsNeeded":2,"createdAt":"2026-11-16T09:30:00Z","updatedAt":"2026-11-16T09:31:00Z"}`,
		"\x02" + `{"status":"Whatever","reason":"\u001b]8;;http://x\u0007"}`,
		"\x03" + `{"requestId":"req-1"}`,
	} {
		f.Add([]byte(s))
	}
	for i, b := range wiretest.Seeds("items") {
		f.Add(append([]byte{byte(i)}, b...))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		body := data[1:]
		switch data[0] % 4 {
		case 0:
			var p EndpointsPageIn
			if json.Unmarshal(body, &p) != nil {
				return
			}
			for _, it := range p.Items.Items {
				wiretest.Stable(t, it)
				_, _ = it.Data.Listing(), it.Data.HasABI()
			}
			var env struct {
				Next json.RawMessage `json:"nextStartingAfter"`
			}
			var want string
			if json.Unmarshal(body, &env) == nil && len(env.Next) > 0 && string(env.Next) != "null" && json.Unmarshal(env.Next, &want) != nil {
				t.Fatalf("nextStartingAfter %s is not a string, yet the page decoded", env.Next)
			}
			if p.NextStartingAfter != want {
				t.Fatalf("cursor %q, the body holds %q", p.NextStartingAfter, want)
			}
		case 1:
			if it, err := wire.Decode[SignedEndpoint](body); err == nil {
				wiretest.Stable(t, it)
			}
		case 2:
			if in, err := wire.Decode[Intent](body); err == nil {
				wiretest.Stable(t, in)
				_ = in.Terminal()
			}
		default:
			if acc, err := wire.Decode[IntentAccepted](body); err == nil {
				wiretest.Stable(t, acc)
			}
		}
	})
}

// TestCustodyAllocationBounded: a megabyte of adversarial page, or of an
// endpoint's custom properties (a map of texts), costs a bounded multiple
// of its size.
func TestCustodyAllocationBounded(t *testing.T) {
	wiretest.Bounded(t, "items", func(b []byte) { var p EndpointsPageIn; _ = json.Unmarshal(b, &p) })
	wiretest.Bounded(t, "customProperties", func(b []byte) { var m Metadata; _ = json.Unmarshal(b, &m) })
}
