package client_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"treasury/data/apierr"
	"treasury/data/payments"
	"treasury/data/payments/client"
	"treasury/data/transport"
)

// TestFilterWalksEveryPage reads the whole world through the v3 filter in
// pages of 50: every own payment once, newest first; state filters and the
// ascending order agree with the full walk.
func TestFilterWalksEveryPage(t *testing.T) {
	srv := start(t, nil)
	ctx := context.Background()
	c, _ := fullClient(t, srv, client.Options{PageSize: 50})
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
		if i > 0 && p.InitiatedAt.After(all[i-1].InitiatedAt) {
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
	i := len(all)
	for p, err := range c.FilterSorted(ctx, payments.Filter{}, payments.Sort{SortField: payments.SortCreatedAt, SortDirection: payments.SortAsc}) {
		if err != nil {
			t.Fatal(err)
		}
		i--
		if i < 0 || p.PaymentID != all[i].PaymentID {
			t.Fatalf("ascending walk differs from the reversed descending walk at %d", len(all)-1-i)
		}
	}
	if i != 0 {
		t.Fatalf("ascending walk missed %d payments", i)
	}
	// Stopping early stops paging: one page of 50 is enough for 10.
	var sent atomic.Int32
	cr := srv.Credentials()
	early, _ := newClientWith(t, srv, cr.PaymentsClientID, cr.PaymentsClientSecret, client.Options{PageSize: 50},
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
	page, err := c.FilterPage(ctx, payments.Filter{}, client.DefaultSort(), 0, "")
	if err != nil || len(page.Data) != 50 || page.Page.LastPageToken == "" || page.Data[0].PaymentID != all[0].PaymentID {
		t.Fatalf("first page: %d payments, token %q, %v", len(page.Data), page.Page.LastPageToken, err)
	}
}
