package client_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"treasury/sandbox"
	"treasury/wire/apierr"
	"treasury/wire/payments"
	"treasury/wire/payments/client"
	"treasury/wire/transport"
)

// TestFilterWalksEveryPage reads the whole world through the v3 filter in
// pages of 50: every own payment once, newest first; state filters agree
// with the full walk. The client learns the sort each face takes and
// remembers it.
func TestFilterWalksEveryPage(t *testing.T) {
	faces(t, nil, testFilterWalksEveryPage)
}

func testFilterWalksEveryPage(t *testing.T, srv *sandbox.Server, variant bool) {
	ctx := context.Background()
	var learnt []client.Dialect
	c, _ := fullClient(t, srv, client.Options{PageSize: 50, OnDialect: func(d client.Dialect) { learnt = append(learnt, d) }})
	all, err := c.AllFiltered(ctx, payments.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) < 590 || len(all) > 600 {
		t.Fatalf("filter read %d payments, want the ~599 own of 600", len(all))
	}
	seen := map[string]bool{}
	byState := map[payments.State]int{}
	for i, p := range all {
		if seen[p.PaymentID] {
			t.Fatalf("payment %s twice", p.PaymentID)
		}
		seen[p.PaymentID] = true
		byState[p.PaymentState]++
		if i > 0 && p.When().After(all[i-1].When()) {
			t.Fatalf("not newest first at %d", i)
		}
	}
	for _, st := range []payments.State{payments.Completed, payments.Failed, payments.Declined} {
		got, err := c.AllFiltered(ctx, payments.Filter{PaymentStates: []payments.State{st}})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != byState[st] || len(got) == 0 {
			t.Fatalf("%s: filter gave %d, the full walk holds %d", st, len(got), byState[st])
		}
		for _, p := range got {
			if p.PaymentState != st {
				t.Fatalf("filter %s returned %s", st, p.PaymentState)
			}
		}
	}
	// The document's sortField from the document's face; the spec's
	// CREATED_AT, learnt once, from the variant.
	want := client.SortInitiatedAt
	if variant {
		want = client.SortCreatedAt
	}
	if d := c.Dialect(); d.Sort != want || variant != (len(learnt) == 1) {
		t.Fatalf("dialect %+v, learnt %v; want sort %s", d, learnt, want)
	}
	// Stopping early stops paging: one page of 50 is enough for 10, once
	// the sort is known (the profile remembers it).
	var sent atomic.Int32
	cr := srv.Credentials()
	early, _ := newClientWith(t, srv, cr.PaymentsClientID, cr.PaymentsClientSecret, client.Options{PageSize: 50, Dialect: c.Dialect()},
		transport.Config{OnResult: func(apierr.Interface, string, int, time.Duration, error) { sent.Add(1) }})
	n := 0
	for _, err := range early.Filter(ctx, payments.Filter{}) {
		if err != nil {
			t.Fatal(err)
		}
		if n++; n == 10 {
			break
		}
	}
	if got := sent.Load(); got != 1 {
		t.Fatalf("%d filter requests for the first 10 payments, want 1", got)
	}
	page, err := c.FilterPage(ctx, payments.Filter{}, 0, "")
	if err != nil || len(page.Data) != 50 || page.Page.LastPageToken == "" || page.Data[0].PaymentID != all[0].PaymentID {
		t.Fatalf("first page: %d payments, token %q, %v", len(page.Data), page.Page.LastPageToken, err)
	}
}
