package client_test

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"

	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
	"treasury/wire/apierr"
	"treasury/wire/auth"
	"treasury/wire/custody"
	"treasury/wire/custody/client"
	"treasury/wire/transport"
)

func operator(srv *sandbox.Server) custody.Signer {
	return custody.Signer{UserID: sandbox.OperatorID(srv.Seed()), Key: sandbox.OperatorKey(srv.Seed())}
}

func newClient(tb testing.TB, srv *sandbox.Server, token string, signer custody.Signer) (*client.Client, *sandboxtest.Waits) {
	tb.Helper()
	t, w := sandboxtest.Transport(tb, srv, transport.Config{Interface: apierr.Custody, Auth: auth.NewStatic(auth.NewSecret(token))})
	return client.New(t, srv.Credentials().CustodyDomainID, signer).WithClock(srv.Clock().Now), w
}

func intentID(n int) string { return fmt.Sprintf("00000000-0000-4000-8000-%012d", n) }

// expectStatus checks err is an *apierr.Error of the interface, status and
// class.
func expectStatus(t *testing.T, what string, err error, status int, class apierr.Class) {
	t.Helper()
	e, ok := apierr.As(err)
	if !ok {
		t.Fatalf("%s: error %v is not an *apierr.Error", what, err)
	}
	if e.Interface != apierr.Custody || e.HTTPStatus != status || e.Class != class || e.Message == "" {
		t.Fatalf("%s: got %s (class %v), want HTTP %d class %v", what, e, e.Class, status, class)
	}
}

func TestEndpointsEveryPage(t *testing.T) {
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	c, _ := newClient(t, srv, srv.Credentials().CustodyToken, operator(srv))
	ctx := context.Background()
	all, err := c.Endpoints(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) <= custody.MaxLimit {
		t.Fatalf("%d endpoints: the test needs more than one page of %d", len(all), custody.MaxLimit)
	}
	// Walk the same list by small pages: same records in the same order.
	var walked []custody.Endpoint
	cursor := ""
	for pages := 0; ; pages++ {
		p, err := c.EndpointsPage(ctx, cursor, 25)
		if err != nil {
			t.Fatal(err)
		}
		if p.Count != len(p.Items) || p.CurrentStartingAfter != cursor || len(p.Items) > 25 {
			t.Fatalf("page %d envelope: count %d, items %d, current %q want %q", pages, p.Count, len(p.Items), p.CurrentStartingAfter, cursor)
		}
		for _, it := range p.Items {
			walked = append(walked, it.Data)
		}
		if p.NextStartingAfter == "" {
			break
		}
		cursor = p.NextStartingAfter
	}
	if len(walked) != len(all) {
		t.Fatalf("pages of 25 gave %d endpoints, Endpoints %d", len(walked), len(all))
	}
	seen := map[string]bool{}
	kinds := map[string]int{}
	for i, e := range all {
		if e.ID != walked[i].ID || seen[e.ID] {
			t.Fatalf("endpoint %d: %s vs %s (or repeated)", i, e.ID, walked[i].ID)
		}
		seen[e.ID] = true
		if i > 0 && e.Metadata.CreatedAt.Before(all[i-1].Metadata.CreatedAt) {
			t.Fatalf("endpoint %d is older than the one before", i)
		}
		if e.DomainID != c.DomainID() || e.Alias == "" || e.Address == "" || e.LedgerID == "" || e.TrustScore < 0 || e.TrustScore > 100 {
			t.Fatalf("endpoint %d incomplete: %+v", i, e)
		}
		kinds[e.Lock]++
		kinds[e.Listing()]++
		if e.HasABI() {
			kinds["abi"]++
		}
	}
	for _, k := range []string{custody.LockLocked, custody.LockUnlocked, custody.LockArchived, custody.Whitelisted, custody.Blacklisted, "abi"} {
		if kinds[k] == 0 {
			t.Errorf("no endpoint is %s: %v", k, kinds)
		}
	}
	one, err := c.Endpoint(ctx, all[7].ID)
	if err != nil {
		t.Fatal(err)
	}
	if one.ID != all[7].ID || one.Alias != all[7].Alias || one.Metadata.Revision != all[7].Metadata.Revision {
		t.Fatalf("Endpoint = %+v, listed %+v", one, all[7])
	}
	_, err = c.Endpoint(ctx, "no-such-endpoint")
	expectStatus(t, "unknown endpoint", err, http.StatusNotFound, apierr.ClassNotFound)
}

// firstWith returns the first endpoint in lock state lock.
func firstWith(t *testing.T, c *client.Client, lock string) custody.Endpoint {
	t.Helper()
	all, err := c.Endpoints(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range all {
		if e.Lock == lock {
			return e
		}
	}
	t.Fatalf("no %s endpoint", lock)
	return custody.Endpoint{}
}

// expectIntent reads an intent and checks its status.
func expectIntent(t *testing.T, c *client.Client, id, status string) custody.Intent {
	t.Helper()
	in, err := c.Intent(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if in.Status != status || in.ID != id {
		t.Fatalf("intent %s: status %s (%s), want %s", id, in.Status, in.Reason, status)
	}
	return in
}

func TestLockExecutesThenUnlock(t *testing.T) {
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	c, _ := newClient(t, srv, srv.Credentials().CustodyToken, operator(srv))
	ctx := context.Background()
	e := firstWith(t, c, custody.LockUnlocked)

	acc, err := c.Lock(ctx, e.ID, intentID(1))
	if err != nil || acc.RequestID == "" {
		t.Fatalf("lock: %v %+v", err, acc)
	}
	in := expectIntent(t, c, intentID(1), custody.IntentPending)
	if in.Payload.Type != custody.PayloadLock || in.Payload.Reference != (custody.Reference{ID: e.ID, Revision: e.Metadata.Revision}) ||
		in.Author.ID != operator(srv).UserID || in.Terminal() {
		t.Fatalf("intent %+v", in)
	}
	// The caller retries with the same intent id: same answer, nothing new.
	again, err := c.Lock(ctx, e.ID, intentID(1))
	if err != nil || again != acc {
		t.Fatalf("retried lock: %v %+v, want %+v", err, again, acc)
	}
	if got, _ := c.Endpoint(ctx, e.ID); got.Lock != custody.LockUnlocked {
		t.Fatalf("endpoint %s before execution", got.Lock)
	}
	srv.Clock().Advance(2 * time.Second)
	expectIntent(t, c, intentID(1), custody.IntentApproved)
	srv.Clock().Advance(2 * time.Second)
	expectIntent(t, c, intentID(1), custody.IntentExecuted)
	locked, err := c.Endpoint(ctx, e.ID)
	if err != nil || locked.Lock != custody.LockLocked || locked.Metadata.Revision != e.Metadata.Revision+1 {
		t.Fatalf("after execution: %v lock %s revision %d (was %d)", err, locked.Lock, locked.Metadata.Revision, e.Metadata.Revision)
	}
	// Locking a locked endpoint is refused at once.
	_, err = c.Lock(ctx, e.ID, intentID(2))
	expectStatus(t, "lock a locked endpoint", err, http.StatusConflict, apierr.ClassConflict)

	if _, err := c.Unlock(ctx, e.ID, intentID(3)); err != nil {
		t.Fatal(err)
	}
	srv.Clock().Advance(4 * time.Second)
	expectIntent(t, c, intentID(3), custody.IntentExecuted)
	if got, _ := c.Endpoint(ctx, e.ID); got.Lock != custody.LockUnlocked || got.Metadata.Revision != e.Metadata.Revision+2 {
		t.Fatalf("after unlock: %s revision %d", got.Lock, got.Metadata.Revision)
	}
	_, err = c.Intent(ctx, intentID(99))
	expectStatus(t, "unknown intent", err, http.StatusNotFound, apierr.ClassNotFound)
}

func TestRejectedIntentChangesNothing(t *testing.T) {
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	c, _ := newClient(t, srv, srv.Credentials().CustodyToken, operator(srv))
	ctx := context.Background()
	e := firstWith(t, c, custody.LockLocked)
	if _, err := c.Propose(ctx, custody.PayloadUnlock, e.ID, intentID(1), map[string]string{"approval": "reject"}); err != nil {
		t.Fatal(err)
	}
	expectIntent(t, c, intentID(1), custody.IntentPending)
	srv.Clock().Advance(10 * time.Second)
	in := expectIntent(t, c, intentID(1), custody.IntentRejected)
	if in.Reason == "" || !in.Terminal() {
		t.Fatalf("rejected intent %+v", in)
	}
	got, err := c.Endpoint(ctx, e.ID)
	if err != nil || got.Lock != custody.LockLocked || got.Metadata.Revision != e.Metadata.Revision {
		t.Fatalf("endpoint after rejection: %v %s revision %d", err, got.Lock, got.Metadata.Revision)
	}
}

func TestBadSignatureAndUnknownAuthor(t *testing.T) {
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	ctx := context.Background()
	good, _ := newClient(t, srv, srv.Credentials().CustodyToken, operator(srv))
	e := firstWith(t, good, custody.LockUnlocked)

	other := ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize))
	forged, w := newClient(t, srv, srv.Credentials().CustodyToken, custody.Signer{UserID: operator(srv).UserID, Key: other})
	_, err := forged.Lock(ctx, e.ID, intentID(1))
	expectStatus(t, "wrong key", err, http.StatusForbidden, apierr.ClassForbidden)

	stranger, _ := newClient(t, srv, srv.Credentials().CustodyToken, custody.Signer{UserID: intentID(42), Key: other})
	_, err = stranger.Lock(ctx, e.ID, intentID(2))
	expectStatus(t, "unknown author", err, http.StatusForbidden, apierr.ClassForbidden)

	none, _ := newClient(t, srv, srv.Credentials().CustodyToken, custody.Signer{})
	if _, err := none.Lock(ctx, e.ID, intentID(3)); !errors.Is(err, custody.ErrNoSigner) {
		t.Fatalf("no signer: %v", err)
	}
	if w.Count() != 0 {
		t.Fatalf("refused intents were retried: %v", w.All())
	}
	for _, id := range []string{intentID(1), intentID(2), intentID(3)} {
		_, err := good.Intent(ctx, id)
		expectStatus(t, "refused intent "+id, err, http.StatusNotFound, apierr.ClassNotFound)
	}
	if got, _ := good.Endpoint(ctx, e.ID); got.Lock != custody.LockUnlocked {
		t.Fatalf("endpoint %s after refused intents", got.Lock)
	}
}

func TestBadToken(t *testing.T) {
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	c, w := newClient(t, srv, "not-the-token", operator(srv))
	_, err := c.Endpoints(context.Background())
	expectStatus(t, "bad token", err, http.StatusUnauthorized, apierr.ClassRefreshAuth)
	_, err = c.Lock(context.Background(), "any", intentID(1))
	expectStatus(t, "bad token lock", err, http.StatusUnauthorized, apierr.ClassRefreshAuth)
	if w.Count() != 0 {
		t.Fatalf("a 401 with a static token was retried: %v", w.All())
	}
}
