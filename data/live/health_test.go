package live

import (
	"context"
	"testing"
	"time"

	"treasury/data/apierr"
)

// TestHealthCountsFailedPolls: an interface's FailedPolls is the failed
// polls in a row of its feeds, as a view counts them for its topic (the
// most among them), however many calls each poll made; a view's call that
// fails counts no poll, and a poll that succeeds starts the count again.
func TestHealthCountsFailedPolls(t *testing.T) {
	refused := &apierr.Error{Interface: apierr.Payments, Method: "GET", Path: "/v3/payments/filter", Class: apierr.ClassUnreachable, Message: "connection refused"}
	var fail error = refused
	fetch := func(context.Context) (int, error) { return 1, fail }
	s := New(Options{Feeds: []Feed{
		ValueFeed(KeyOf[int]("fast"), fetch, FeedOptions[int, int]{Interface: apierr.Payments, Interval: time.Second}),
		ValueFeed(KeyOf[int]("slow"), fetch, FeedOptions[int, int]{Interface: apierr.Payments, Interval: time.Minute}),
	}})
	ctx := context.Background()
	for range 3 {
		// Each poll also reports its calls, as the transport does.
		s.Observe(apierr.Payments, "/v3/payments/filter", 0, refused)
		s.Observe(apierr.Payments, "/v2/oauth/token", 0, refused)
		s.FetchNow(ctx, "fast")
	}
	s.FetchNow(ctx, "slow")
	h := s.Health()[0]
	if h.FailedPolls != 3 || s.Snapshot("fast").Failures != 3 {
		t.Fatalf("failed polls %d (the fast topic's view says %d), want 3; calls and fetches in a row %d",
			h.FailedPolls, s.Snapshot("fast").Failures, h.ConsecutiveFailures)
	}
	if h.ConsecutiveFailures <= h.FailedPolls || h.Up() {
		t.Fatalf("health %+v: the interface is failing, with more failed calls than polls", h)
	}
	fail = nil
	s.FetchNow(ctx, "fast")
	s.Observe(apierr.Payments, "/v3/payments/{id}", 0, refused) // a view's call
	if h := s.Health()[0]; h.FailedPolls != 1 || h.ConsecutiveFailures != 1 {
		t.Fatalf("after the fast poll worked: failed polls %d (want the slow topic's 1), calls %d", h.FailedPolls, h.ConsecutiveFailures)
	}
}

// TestInterfaceIsUpOnlyWhileItsReadsSucceed: an interface whose one read
// (the payments filter) keeps failing is not up although its other reads
// and calls (identities, balances) succeed after it.
func TestInterfaceIsUpOnlyWhileItsReadsSucceed(t *testing.T) {
	refused := &apierr.Error{Interface: apierr.Payments, Method: "POST", Path: "/v3/payments/filter", HTTPStatus: 400, Class: apierr.ClassFixRequest}
	s := New(Options{Feeds: []Feed{
		ValueFeed(KeyOf[int]("filter"), func(context.Context) (int, error) { return 0, refused },
			FeedOptions[int, int]{Interface: apierr.Payments, Interval: time.Second}),
		ValueFeed(KeyOf[int]("balances"), func(context.Context) (int, error) { return 1, nil },
			FeedOptions[int, int]{Interface: apierr.Payments, Interval: time.Second}),
	}})
	ctx := context.Background()
	s.FetchNow(ctx, "filter")
	s.Observe(apierr.Payments, "/v3/identities", 0, nil)
	s.FetchNow(ctx, "balances")
	if h := s.Health()[0]; h.Up() || h.ConsecutiveFailures != 0 {
		t.Fatalf("health %+v: up while the filter fails", h)
	}
	s.FetchNow(ctx, "filter") // still failing
	if h := s.Health()[0]; h.Up() {
		t.Fatal("up before the filter worked again")
	}
}
