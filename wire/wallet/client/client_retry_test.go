package client_test

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"treasury/sandbox"
	"treasury/wire/apierr"
	"treasury/wire/auth"
	"treasury/wire/wallet"
	"treasury/wire/wallet/client"
)

// A freeze meets wallet code 14 (not processed), then code 13 (an
// internal error: processed or not), then succeeds: every attempt carries
// the same mutationId and the freeze is applied once.
func TestFreezeRetriesWithSameMutationID(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	f := e.static(t, "transactions")
	all := f.transactions(t)
	tx := pick(t, all, "freezable", freezable)
	f.waits.Then = func(n int) {
		switch n {
		case 1:
			e.faults(t, sandbox.FaultSettings{ErrorRate: 1})
		default:
			e.faults(t, sandbox.FaultSettings{})
		}
	}
	// Where it goes is read first (the transaction, its wallet, the
	// form of the paths); then the freeze alone meets the faults.
	rt, _, err := f.c.FreezeRoute(ctx, client.Ref{TxID: tx.ID}, true)
	if err != nil {
		t.Fatal(err)
	}
	mid := client.NewMutationID()
	m, err := rt.Freeze("hold for review", mid)
	if err != nil {
		t.Fatal(err)
	}
	start := len(f.results.all())
	e.faults(t, sandbox.FaultSettings{UnavailableRate: 1})
	got, err := f.c.SendFreeze(ctx, rt, m)
	if err != nil {
		t.Fatal(err)
	}
	if !got.FreezeInfo.IsFrozen {
		t.Fatal("not frozen")
	}
	res := f.results.all()[start:]
	if len(res) != 3 {
		t.Fatalf("%d attempts, want 3: %v", len(res), res)
	}
	if e, ok := apierr.As(res[0]); !ok || e.GRPCCode != apierr.GRPCUnavailable || e.HTTPStatus != http.StatusServiceUnavailable || e.Class != apierr.ClassRetry {
		t.Fatalf("first attempt: %v, want wallet code 14", res[0])
	}
	if e, ok := apierr.As(res[1]); !ok || e.GRPCCode != apierr.GRPCInternal || e.Class != apierr.ClassRetry {
		t.Fatalf("second attempt: %v, want wallet code 13", res[1])
	}
	if res[2] != nil {
		t.Fatalf("third attempt: %v", res[2])
	}
	ids := mutationIDs(t, f.sent.all(), http.MethodPut, "/freeze")
	if len(ids) != 3 || ids[0] != mid || ids[1] != mid || ids[2] != mid {
		t.Fatalf("mutationIds sent %v, want %s three times", ids, mid)
	}
	if f.waits.Count() != 2 {
		t.Errorf("%d waits, want 2", f.waits.Count())
	}
	h, err := f.c.FreezeHistory(ctx, client.Ref{TxID: tx.ID})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, ev := range h {
		if ev.MutationID == mid {
			n++
		}
	}
	if n != 1 || len(h) != len(tx.FreezeInfo.History)+1 {
		t.Fatalf("freeze applied %d times (history %d events, was %d)", n, len(h), len(tx.FreezeInfo.History))
	}
}

func TestTriggerSweepRetriesOnUnavailable(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	f := e.static(t, "transactions")
	sws, err := f.c.Sweeps(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var idle wallet.SweepConfig
	for _, s := range sws {
		if !s.SweepRunning {
			idle = s
		}
	}
	f.waits.Then = func(int) { e.faults(t, sandbox.FaultSettings{}) }
	e.faults(t, sandbox.FaultSettings{UnavailableRate: 1})
	mid := client.NewMutationID()
	tr, err := f.c.TriggerSweep(ctx, idle.ID, mid)
	if err != nil || tr.InstanceID == "" {
		t.Fatalf("trigger: %+v, %v", tr, err)
	}
	ids := mutationIDs(t, f.sent.all(), http.MethodPost, "/trigger")
	if len(ids) != 2 || ids[0] != mid || ids[1] != mid || f.waits.Count() != 1 {
		t.Fatalf("mutationIds sent %v after %d waits, want %s twice after 1", ids, f.waits.Count(), mid)
	}
}

// Wrong credentials are a configuration error (400 ERR000.020, never 401):
// not retried, and nothing else is sent.
func TestBadCredentialsNotRetried(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	var tokenCalls atomic.Int32
	hc := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		tokenCalls.Add(1)
		return http.DefaultTransport.RoundTrip(r)
	})}
	f := e.with(t, auth.NewWallet(auth.WalletConfig{BaseURL: e.srv.Endpoints().Wallet, ClientID: "transactions",
		ClientSecret: auth.NewSecret("not-the-secret"), HTTP: hc}))
	_, err := f.c.Vaults(ctx)
	wantWalletErr(t, err, http.StatusBadRequest, apierr.GRPCInvalidArgument, "ERR000.020", apierr.ClassCredentials)
	if strings.Contains(err.Error(), "not-the-secret") {
		t.Fatal("the secret appears in the error")
	}
	_, err = f.c.TriggerSweep(ctx, "00000000-0000-4000-8000-000000000000", client.NewMutationID())
	wantWalletErr(t, err, http.StatusBadRequest, apierr.GRPCInvalidArgument, "ERR000.020", apierr.ClassCredentials)
	if n := tokenCalls.Load(); n != 1 {
		t.Errorf("%d token requests for 2 calls, want 1 (not retried, and the refusal is remembered)", n)
	}
	if f.waits.Count() != 0 || len(f.sent.all()) != 0 {
		t.Errorf("%d waits and %d interface requests, want none", f.waits.Count(), len(f.sent.all()))
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
