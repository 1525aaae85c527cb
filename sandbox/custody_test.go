package sandbox_test

import (
	"bytes"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
	"treasury/wire/custody"
)

// cusEnv is a served sandbox and what custody requests need.
type cusEnv struct {
	srv    *sandbox.Server
	base   string // .../custody/v1/domains/<domain>
	tok    string
	signer custody.Signer
}

func cusStart(t *testing.T, mutate func(*sandbox.Options)) cusEnv {
	t.Helper()
	opts := sandboxtest.Options()
	if mutate != nil {
		mutate(&opts)
	}
	srv := sandboxtest.Listen(t, opts)
	c := srv.Credentials()
	return cusEnv{srv: srv, base: srv.Endpoints().Custody + custody.PathDomains + c.CustodyDomainID, tok: c.CustodyToken,
		signer: custody.Signer{UserID: sandbox.OperatorID(opts.Seed), Key: sandbox.OperatorKey(opts.Seed)}}
}

// cusPage gets a list page with query key, value pairs.
func cusPage(t *testing.T, e cusEnv, kv ...string) custody.EndpointsPage {
	t.Helper()
	v := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Set(kv[i], kv[i+1])
	}
	var p custody.EndpointsPage
	if st := sandboxtest.Get(t, e.base+"/endpoints?"+v.Encode(), e.tok, &p); st != http.StatusOK {
		t.Fatalf("endpoints %v: HTTP %d", kv, st)
	}
	return p
}

func TestCustodyAuthAndDomain(t *testing.T) {
	e := cusStart(t, nil)
	for _, tok := range []string{"", "wrong"} {
		st, _, b := sandboxtest.Send(t, http.MethodGet, e.base+"/endpoints", tok, nil)
		sandboxtest.ExpectPlain(t, "token "+tok, st, b, http.StatusUnauthorized)
		st, _, b = sandboxtest.Send(t, http.MethodPost, e.srv.Endpoints().Custody+custody.PathIntents, tok, []byte(`{}`))
		sandboxtest.ExpectPlain(t, "intent token "+tok, st, b, http.StatusUnauthorized)
	}
	other := e.srv.Endpoints().Custody + custody.PathDomains + "00000000-0000-4000-8000-000000000000/endpoints"
	st, _, b := sandboxtest.Send(t, http.MethodGet, other, e.tok, nil)
	sandboxtest.ExpectPlain(t, "other domain", st, b, http.StatusNotFound)
}

func TestCustodyListLimitsFiltersAndSignatures(t *testing.T) {
	e := cusStart(t, nil)
	first := cusPage(t, e)
	if first.Count != custody.DefaultLimit || len(first.Items) != custody.DefaultLimit || first.NextStartingAfter != first.Items[len(first.Items)-1].Data.ID {
		t.Fatalf("default page: count %d items %d next %q", first.Count, len(first.Items), first.NextStartingAfter)
	}
	for _, bad := range [][]string{{"limit", "0"}, {"limit", "101"}, {"limit", "x"}, {"startingAfter", "nope"},
		{"sortBy", "address"}, {"sortOrder", "up"}, {"lock", "Frozen"}} {
		st, _, b := sandboxtest.Send(t, http.MethodGet, e.base+"/endpoints?"+url.Values{bad[0]: {bad[1]}}.Encode(), e.tok, nil)
		sandboxtest.ExpectPlain(t, bad[0]+"="+bad[1], st, b, http.StatusBadRequest)
	}
	max := cusPage(t, e, "limit", "100")
	rest := cusPage(t, e, "limit", "100", "startingAfter", max.NextStartingAfter)
	if len(max.Items) != 100 || rest.NextStartingAfter != "" || rest.CurrentStartingAfter != max.NextStartingAfter || len(rest.Items) == 0 {
		t.Fatalf("pages of 100: %d then %d (next %q)", len(max.Items), len(rest.Items), rest.NextStartingAfter)
	}
	all := append(max.Items, rest.Items...)
	for i, it := range all {
		key, err1 := base64.StdEncoding.DecodeString(it.SigningKey)
		sig, err2 := base64.StdEncoding.DecodeString(it.Signature)
		data, _ := json.Marshal(it.Data)
		if err1 != nil || err2 != nil || len(key) != ed25519.PublicKeySize || !ed25519.Verify(key, data, sig) {
			t.Fatalf("item %d: service signature does not verify", i)
		}
	}
	locked := cusPage(t, e, "limit", "100", "lock", custody.LockLocked)
	if len(locked.Items) == 0 {
		t.Fatal("no Locked endpoint")
	}
	for _, it := range locked.Items {
		if it.Data.Lock != custody.LockLocked {
			t.Fatalf("lock filter let %s through", it.Data.Lock)
		}
	}
	target := all[17].Data
	byAddr := cusPage(t, e, "address", strings.ToUpper(target.Address))
	if len(byAddr.Items) != 1 || byAddr.Items[0].Data.ID != target.ID {
		t.Fatalf("address filter: %d items", len(byAddr.Items))
	}
	byAlias := cusPage(t, e, "alias", strings.ToLower(target.Alias), "limit", "100")
	if !slices.ContainsFunc(byAlias.Items, func(s custody.SignedEndpoint) bool { return s.Data.ID == target.ID }) {
		t.Fatal("alias filter lost the endpoint")
	}
	desc := cusPage(t, e, "sortBy", "alias", "sortOrder", "desc", "limit", "100")
	for i := 1; i < len(desc.Items); i++ {
		if desc.Items[i].Data.Alias > desc.Items[i-1].Data.Alias {
			t.Fatalf("alias desc out of order at %d", i)
		}
	}
	var one custody.SignedEndpoint
	if st := sandboxtest.Get(t, e.base+"/endpoints/"+target.ID, e.tok, &one); st != http.StatusOK || one.Data.ID != target.ID || one.Signature == "" {
		t.Fatalf("get one: HTTP %d %+v", st, one.Data)
	}
}

func TestCustodyDeterministicAndHostile(t *testing.T) {
	a, b := cusStart(t, nil), cusStart(t, nil)
	c := cusStart(t, func(o *sandbox.Options) { o.Seed = 2 })
	_, _, pa := sandboxtest.Send(t, http.MethodGet, a.base+"/endpoints", a.tok, nil)
	_, _, pb := sandboxtest.Send(t, http.MethodGet, b.base+"/endpoints", b.tok, nil)
	_, _, pc := sandboxtest.Send(t, http.MethodGet, c.base+"/endpoints", c.tok, nil)
	if !bytes.Equal(pa, pb) || bytes.Equal(pa, pc) {
		t.Fatal("the endpoint list is not a function of the seed")
	}
	f := a.srv.Faults()
	f.Hostile = true
	if err := a.srv.SetFaults(f); err != nil {
		t.Fatal(err)
	}
	p := cusPage(t, a)
	if !slices.ContainsFunc(p.Items, func(s custody.SignedEndpoint) bool {
		return strings.ContainsAny(s.Data.Alias+s.Data.Metadata.Description, "\x1b\x07\u202e\u200b\x7f\r")
	}) {
		t.Fatal("hostile fault left aliases clean")
	}
}

// cusIntent builds a signed intent request on endpoint ep.
func cusIntent(e cusEnv, id, payload string, ep custody.Endpoint, expiry time.Duration, props map[string]string) custody.IntentRequest {
	d := e.srv.Credentials().CustodyDomainID
	return custody.IntentRequest{Type: custody.RequestType, ID: id, Author: custody.Author{ID: e.signer.UserID, DomainID: d},
		TargetDomainID: d, ExpiryAt: e.srv.Clock().Now().Add(expiry),
		Payload:          custody.IntentPayload{Type: payload, Reference: custody.Reference{ID: ep.ID, Revision: ep.Metadata.Revision}},
		CustomProperties: props}
}

// cusPropose signs and posts req and returns status and body.
func cusPropose(t *testing.T, e cusEnv, req custody.IntentRequest) (int, []byte) {
	t.Helper()
	body, err := e.signer.Sign(req)
	if err != nil {
		t.Fatal(err)
	}
	st, _, b := sandboxtest.Send(t, http.MethodPost, e.srv.Endpoints().Custody+custody.PathIntents, e.tok, body)
	return st, b
}

// cusFind returns the first endpoint in lock state lock.
func cusFind(t *testing.T, e cusEnv, lock string) custody.Endpoint {
	t.Helper()
	p := cusPage(t, e, "lock", lock, "limit", "1")
	if len(p.Items) == 0 {
		t.Fatalf("no %s endpoint", lock)
	}
	return p.Items[0].Data
}

func cusStatus(t *testing.T, e cusEnv, id string) custody.Intent {
	t.Helper()
	var in custody.Intent
	if st := sandboxtest.Get(t, e.base+"/intents/"+id, e.tok, &in); st != http.StatusOK {
		t.Fatalf("intent %s: HTTP %d", id, st)
	}
	return in
}

func TestCustodyIntentRefusals(t *testing.T) {
	e := cusStart(t, nil)
	ep := cusFind(t, e, custody.LockUnlocked)
	post := func(body string) (int, []byte) {
		st, _, b := sandboxtest.Send(t, http.MethodPost, e.srv.Endpoints().Custody+custody.PathIntents, e.tok, []byte(body))
		return st, b
	}
	st, b := post(`not json`)
	sandboxtest.ExpectPlain(t, "not json", st, b, http.StatusBadRequest)
	good := cusIntent(e, "i-1", custody.PayloadLock, ep, time.Hour, nil)
	signed, _ := e.signer.Sign(good)
	st, b = post(strings.Replace(string(signed), `"signature":"`, `"signature":"%%`, 1))
	sandboxtest.ExpectPlain(t, "signature not base64", st, b, http.StatusBadRequest)
	// The signature covers the exact bytes: a changed revision no longer verifies.
	tampered := strings.Replace(string(signed), `"revision":`, `"revision":1`, 1)
	st, b = post(tampered)
	sandboxtest.ExpectPlain(t, "tampered request", st, b, http.StatusForbidden)

	cases := []struct {
		name   string
		mutate func(*custody.IntentRequest)
		want   int
	}{
		{"expired", func(r *custody.IntentRequest) { r.ExpiryAt = e.srv.Clock().Now().Add(-time.Second) }, http.StatusBadRequest},
		{"type", func(r *custody.IntentRequest) { r.Type = "Approve" }, http.StatusBadRequest},
		{"payload", func(r *custody.IntentRequest) { r.Payload.Type = "v0_DeleteEndpoint" }, http.StatusBadRequest},
		{"author", func(r *custody.IntentRequest) { r.Author.ID = "someone-else" }, http.StatusForbidden},
		{"target domain", func(r *custody.IntentRequest) { r.TargetDomainID = "another" }, http.StatusNotFound},
		{"endpoint", func(r *custody.IntentRequest) { r.Payload.Reference.ID = "missing" }, http.StatusNotFound},
		{"revision", func(r *custody.IntentRequest) { r.Payload.Reference.Revision++ }, http.StatusConflict},
		{"unlock unlocked", func(r *custody.IntentRequest) { r.Payload.Type = custody.PayloadUnlock }, http.StatusConflict},
		{"archived", func(r *custody.IntentRequest) {
			a := cusFind(t, e, custody.LockArchived)
			r.Payload.Reference = custody.Reference{ID: a.ID, Revision: a.Metadata.Revision}
		}, http.StatusConflict},
	}
	for _, c := range cases {
		r := good
		r.ID = "refused-" + c.name
		c.mutate(&r)
		st, b := cusPropose(t, e, r)
		sandboxtest.ExpectPlain(t, c.name, st, b, c.want)
	}
	var acc custody.IntentAccepted
	st, b = cusPropose(t, e, good)
	if st != http.StatusAccepted || json.Unmarshal(b, &acc) != nil || acc.RequestID == "" {
		t.Fatalf("good intent: HTTP %d %s", st, b)
	}
	other := cusIntent(e, "i-1", custody.PayloadLock, cusPage(t, e, "lock", custody.LockUnlocked, "limit", "2").Items[1].Data, time.Hour, nil)
	st, b = cusPropose(t, e, other)
	sandboxtest.ExpectPlain(t, "intent id reused for another endpoint", st, b, http.StatusConflict)
}

func TestCustodyIntentStaleAndExpired(t *testing.T) {
	e := cusStart(t, nil)
	unlocked := cusPage(t, e, "lock", custody.LockUnlocked, "limit", "2")
	ep, ep2 := unlocked.Items[0].Data, unlocked.Items[1].Data
	for _, r := range []custody.IntentRequest{
		cusIntent(e, "first", custody.PayloadLock, ep, time.Hour, nil),
		cusIntent(e, "second", custody.PayloadLock, ep, time.Hour, nil), // same revision: stale once the first runs
		cusIntent(e, "short", custody.PayloadLock, ep2, 3*time.Second, nil),
	} {
		if st, b := cusPropose(t, e, r); st != http.StatusAccepted {
			t.Fatalf("%s: HTTP %d %s", r.ID, st, b)
		}
	}
	e.srv.Clock().Advance(time.Minute)
	if in := cusStatus(t, e, "first"); in.Status != custody.IntentExecuted || in.Approvals != in.ApprovalsNeeded {
		t.Fatalf("first: %+v", in)
	}
	if in := cusStatus(t, e, "second"); in.Status != custody.IntentRejected || !strings.Contains(in.Reason, "stale") {
		t.Fatalf("second: %+v", in)
	}
	if in := cusStatus(t, e, "short"); in.Status != custody.IntentExpired {
		t.Fatalf("short: %+v", in)
	}
	var got custody.SignedEndpoint
	sandboxtest.Get(t, e.base+"/endpoints/"+ep2.ID, e.tok, &got)
	if got.Data.Lock != custody.LockUnlocked || got.Data.Metadata.Revision != ep2.Metadata.Revision {
		t.Fatalf("expired intent changed the endpoint: %+v", got.Data)
	}
	sandboxtest.Get(t, e.base+"/endpoints/"+ep.ID, e.tok, &got)
	if got.Data.Lock != custody.LockLocked || got.Data.Metadata.Revision != ep.Metadata.Revision+1 {
		t.Fatalf("executed intent: %+v", got.Data)
	}
}
