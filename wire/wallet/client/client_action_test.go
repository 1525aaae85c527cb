package client_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"treasury/wire/apierr"
	"treasury/wire/wallet"
	"treasury/wire/wallet/client"
)

func TestFreezeThenUnfreeze(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	all := e.static(t, "monitoring").transactions(t)
	tx := pick(t, all, "freezable", freezable)
	// A client that has not listed the transaction finds its wallet.
	f := e.static(t, "transactions")
	m1, m2 := client.NewMutationID(), client.NewMutationID()
	got, err := f.c.Freeze(ctx, client.Ref{TxID: tx.ID}, "suspected fraud", m1)
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != tx.ID || !got.FreezeInfo.IsFrozen {
		t.Fatalf("after freeze: %s frozen %v", got.ID, got.FreezeInfo.IsFrozen)
	}
	again, err := f.c.Transaction(ctx, tx.ID)
	if err != nil || !again.FreezeInfo.IsFrozen {
		t.Fatalf("read after freeze: frozen %v, %v", again.FreezeInfo.IsFrozen, err)
	}
	// Freezing a frozen transaction is a state error.
	_, err = f.c.Freeze(ctx, client.Ref{TxID: tx.ID}, "twice", client.NewMutationID())
	wantWalletErr(t, err, http.StatusBadRequest, apierr.GRPCFailedPrecondition, "ERR010.008", apierr.ClassState)

	e.srv.Clock().Advance(time.Minute) // sandbox time, no real wait
	got, err = f.c.Unfreeze(ctx, client.Ref{TxID: tx.ID}, "cleared by compliance", m2)
	if err != nil {
		t.Fatal(err)
	}
	if got.FreezeInfo.IsFrozen {
		t.Fatal("still frozen after unfreeze")
	}
	h, err := f.c.FreezeHistory(ctx, client.Ref{TxID: tx.ID})
	if err != nil {
		t.Fatal(err)
	}
	if len(h) != 2 || h[0].Action != wallet.ActionFreeze || h[0].MutationID != m1 || h[0].Reason != "suspected fraud" ||
		h[1].Action != wallet.ActionUnfreeze || h[1].MutationID != m2 || h[0].PerformedBy != "transactions" {
		t.Fatalf("freeze history %+v", h)
	}
	f.noRetries(t, "%d retries")
}

func TestFreezeStateForbids(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	f := e.static(t, "transactions")
	all := f.transactions(t)
	for _, st := range []string{wallet.TxRejected, wallet.TxFailed, wallet.TxConfirmed} {
		tx := pick(t, all, st, func(x wallet.Transaction) bool { return x.Status == st })
		_, err := f.c.Freeze(ctx, client.Ref{TxID: tx.ID}, "review", client.NewMutationID())
		e := wantWalletErr(t, err, http.StatusBadRequest, apierr.GRPCFailedPrecondition, "ERR010.008", apierr.ClassState)
		if e.RequestID == "" {
			t.Errorf("%s: no requestId in the error", st)
		}
	}
	tx := pick(t, all, "not frozen", freezable)
	_, err := f.c.Unfreeze(ctx, client.Ref{TxID: tx.ID}, "review", client.NewMutationID())
	wantWalletErr(t, err, http.StatusBadRequest, apierr.GRPCFailedPrecondition, "ERR010.008", apierr.ClassState)
	f.noRetries(t, "a state error was retried %d times")
}

func TestMonitoringCannotAct(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	f := e.static(t, "monitoring")
	all := f.transactions(t)
	tx := pick(t, all, "freezable", freezable)
	_, err := f.c.Freeze(ctx, client.Ref{TxID: tx.ID}, "review", client.NewMutationID())
	wantWalletErr(t, err, http.StatusForbidden, apierr.GRPCPermissionDenied, "ERR000.002", apierr.ClassForbidden)
	sw, err := f.c.Sweeps(ctx)
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.c.TriggerSweep(ctx, sw[0].ID, client.NewMutationID())
	wantWalletErr(t, err, http.StatusForbidden, apierr.GRPCPermissionDenied, "ERR000.002", apierr.ClassForbidden)
	f.noRetries(t, "403 retried %d times")
	if h, err := f.c.FreezeHistory(ctx, client.Ref{TxID: tx.ID}); err != nil || len(h) != 0 {
		t.Fatalf("history after a refused freeze: %d, %v", len(h), err)
	}
}

func TestSweepTriggerAndInstance(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	f := e.static(t, "transactions")
	sws, err := f.c.Sweeps(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var running, idle wallet.SweepConfig
	for _, s := range sws {
		switch {
		case s.SweepRunning && running.ID == "":
			running = s
		case !s.SweepRunning && s.Blockchain == "BITCOIN":
			idle = s
		}
	}
	if running.ID == "" || idle.ID == "" {
		t.Fatalf("want a running sweep and an idle BITCOIN one among %+v", sws)
	}
	_, err = f.c.TriggerSweep(ctx, running.ID, client.NewMutationID())
	wantWalletErr(t, err, http.StatusBadRequest, apierr.GRPCFailedPrecondition, "ERR017.006", apierr.ClassState)

	tr, err := f.c.TriggerSweep(ctx, idle.ID, client.NewMutationID())
	if err != nil || tr.InstanceID == "" {
		t.Fatalf("trigger %s: %+v, %v", idle.Name, tr, err)
	}
	ts, err := f.c.SweepTransactions(ctx, idle.ID, tr.InstanceID)
	if err != nil || len(ts) == 0 {
		t.Fatalf("instance %s: %d transactions, %v", tr.InstanceID, len(ts), err)
	}
	for _, x := range ts {
		if x.Action != wallet.TxActionSweep || !strings.EqualFold(x.Asset, "BTC") {
			t.Errorf("sweep transaction %s: %s %s", x.ID, x.Action, x.Asset)
		}
	}
	last, err := f.c.WithPageSize(1).SweepTransactions(ctx, idle.ID, "")
	if err != nil || !equalIDs(last, ts) {
		t.Fatalf("last instance in pages of 1: %d (%v), want the %d of %s", len(last), err, len(ts), tr.InstanceID)
	}
	// The instance's transactions can be read one by one and frozen.
	if got, err := f.c.Transaction(ctx, ts[0].ID); err != nil || got.ID != ts[0].ID {
		t.Fatalf("sweep transaction by id: %v", err)
	}
	_, err = f.c.TriggerSweep(ctx, idle.ID, client.NewMutationID())
	wantWalletErr(t, err, http.StatusBadRequest, apierr.GRPCFailedPrecondition, "ERR017.006", apierr.ClassState)
	if none, err := f.c.SweepTransactions(ctx, idle.ID, "00000000-0000-4000-8000-000000000000"); err != nil || len(none) != 0 {
		t.Fatalf("missing instance: %d, %v; want none", len(none), err)
	}
}

func equalIDs(a, b []wallet.Transaction) bool {
	if len(a) != len(b) {
		return false
	}
	in := map[string]bool{}
	for _, x := range b {
		in[x.ID] = true
	}
	for _, x := range a {
		if !in[x.ID] {
			return false
		}
	}
	return true
}

// A freeze whose answer is not the transaction is followed by a read.
func TestFreezeAnswerNotTheTransaction(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	f := e.static(t, "transactions")
	all := f.transactions(t)
	tx := pick(t, all, "freezable", freezable)
	f.sent.rewrite = func(r *http.Request, resp *http.Response) {
		if r.Method == http.MethodPut && resp.StatusCode == http.StatusOK {
			resp.Body.Close()
			resp.Body = io.NopCloser(strings.NewReader(`{"mutationId":"accepted"}`))
			resp.ContentLength = -1
		}
	}
	got, err := f.c.Freeze(ctx, client.Ref{TxID: tx.ID}, "hold", client.NewMutationID())
	if err != nil || got.ID != tx.ID || !got.FreezeInfo.IsFrozen {
		t.Fatalf("freeze: %s frozen %v, %v", got.ID, got.FreezeInfo.IsFrozen, err)
	}
	reqs := f.sent.all()
	if last := reqs[len(reqs)-1]; last.method != http.MethodGet || !strings.HasSuffix(last.path, "/transactions/"+tx.ID) {
		t.Fatalf("last request %s %s, want the transaction read", last.method, last.path)
	}
}

func TestArgumentsRefusedBeforeSending(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	f := e.static(t, "transactions")
	id := "00000000-0000-4000-8000-000000000000"
	for _, c := range []struct {
		err  error
		call func() error
	}{
		{client.ErrMutationID, func() error { _, err := f.c.Freeze(ctx, client.Ref{TxID: id}, "r", "not-a-uuid"); return err }},
		{client.ErrMutationID, func() error { _, err := f.c.Unfreeze(ctx, client.Ref{TxID: id}, "r", ""); return err }},
		{client.ErrNoReason, func() error {
			_, err := f.c.Freeze(ctx, client.Ref{TxID: id}, "  ", client.NewMutationID())
			return err
		}},
		{client.ErrNoID, func() error { _, err := f.c.Freeze(ctx, client.Ref{}, "r", client.NewMutationID()); return err }},
		{client.ErrMutationID, func() error { _, err := f.c.TriggerSweep(ctx, id, "x"); return err }},
		{client.ErrNoID, func() error { _, err := f.c.Wallet(ctx, ""); return err }},
	} {
		if err := c.call(); !errors.Is(err, c.err) {
			t.Errorf("got %v, want %v", err, c.err)
		}
	}
	if n := len(f.sent.all()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
	if !client.ValidMutationID(client.NewMutationID()) {
		t.Error("NewMutationID is not valid")
	}
}
