package live

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"treasury/wire/apierr"
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

// TestRoutineSuccessTellsNoOne: subscribers are told of the first answer,
// a failure, the recovery and a success that clears an endpoint's
// failure, but not of a success of an interface that was up (only its
// times and latency change, which the next tick draws).
func TestRoutineSuccessTellsNoOne(t *testing.T) {
	s := New(Options{})
	sub := s.Subscribe()
	told := func() bool { return signalled(sub) }
	refused := &apierr.Error{Interface: apierr.Payments, Path: "/v3/payments/filter", Class: apierr.ClassUnreachable}
	steps := []struct {
		what     string
		endpoint string
		err      error
		told     bool
	}{
		{"first answer", "/v3/payments/filter", nil, true},
		{"routine success", "/v3/payments/filter", nil, false},
		{"another endpoint's routine success", "/v3/identities", nil, false},
		{"a failure", "/v3/payments/filter", refused, true},
		{"another endpoint's success while failing", "/v3/identities", nil, true},
		{"the recovery", "/v3/payments/filter", nil, true},
		{"routine again", "/v3/payments/filter", nil, false},
	}
	for _, st := range steps {
		s.Observe(apierr.Payments, st.endpoint, time.Millisecond, st.err)
		if got := told(); got != st.told {
			t.Errorf("%s: told %v, want %v", st.what, got, st.told)
		}
	}
	if s.Seq() == 0 {
		t.Fatal("the observations moved no sequence: a frame memo could not see them")
	}
}

// TestTopicsPolledForTheHeaderTellOnlyTheirWatchers: a topic polled for
// every header (Always) tells a subscriber watching another topic of
// what its header shows of it (a failed poll, the recovery, an alert its
// data raised), not of each new version of its data; a Header topic (the
// token's expiry, shown in the header) tells everyone of every change.
func TestTopicsPolledForTheHeaderTellOnlyTheirWatchers(t *testing.T) {
	var fail error
	n, token := 0, 0
	low := false
	s := New(Options{Feeds: []Feed{
		ValueFeed(KeyOf[int]("balances"), func(context.Context) (int, error) { n++; return n, fail },
			FeedOptions[int, int]{Interface: apierr.Liquidity, Interval: time.Second, Always: true,
				Alerts: func(int, time.Time) []Alert {
					if low {
						return []Alert{{Key: "low", Severity: High, Title: "low"}}
					}
					return nil
				}}),
		ValueFeed(KeyOf[int]("token"), func(context.Context) (int, error) { token++; return token, nil },
			FeedOptions[int, int]{Interface: apierr.Auth, Interval: time.Second, Always: true, Header: true}),
		ValueFeed(KeyOf[int]("quotes"), func(context.Context) (int, error) { return 1, nil },
			FeedOptions[int, int]{Interface: apierr.Liquidity, Interval: time.Second}),
	}})
	ctx := context.Background()
	s.FetchNow(ctx, "balances")
	sub := s.Subscribe()
	sub.Watch("quotes")
	told := func() bool { return signalled(sub) }
	told()
	steps := []struct {
		what  string
		do    func()
		topic Topic
		told  bool
	}{
		{"new balances", func() {}, "balances", false},
		{"a failed poll", func() { fail = errors.New("refused") }, "balances", true},
		{"the recovery", func() { fail = nil }, "balances", true},
		{"new balances again", func() {}, "balances", false},
		{"an alert raised", func() { low = true }, "balances", true},
		{"new balances with the alert open", func() {}, "balances", false},
		{"a new token", func() {}, "token", true},
	}
	for _, st := range steps {
		st.do()
		s.FetchNow(ctx, st.topic)
		if got := told(); got != st.told {
			t.Errorf("%s: told %v, want %v", st.what, got, st.told)
		}
	}
}

// signalled reports whether sub was signalled since it was last read.
func signalled(sub *Subscription) bool {
	select {
	case <-sub.C():
		return true
	default:
		return false
	}
}

// TestNewVersionsOfHeldDataAreNotNews: a subscriber is told of every
// change it watches, and News says which were news, to be shown at once:
// a first answer, a first value built (a derivation, a combination), a
// failure, a recovery; new versions of data it had are not (a session
// reads them with its next tick).
func TestNewVersionsOfHeldDataAreNotNews(t *testing.T) {
	var av atomic.Int32
	var fail atomic.Bool
	s, ka, kb := combineStore(t, func() (int, error) {
		if fail.Load() {
			return 0, errors.New("refused")
		}
		return int(av.Add(1)), nil
	}, func() (int, error) { return 5, nil })
	double := Derive(s, ka, "double", func(_ int, in Snap[int]) int { return 2 * in.Data })
	k := Combine(s, "sum", sumOf(double, kb), CombineOptions[sum]{}, double.Topic(), kb.Topic())
	sub := s.Subscribe()
	sub.Watch(ka.Topic(), double.Topic(), k.Topic())
	ctx := context.Background()
	steps := []struct {
		what string
		do   func()
		news bool
	}{
		{"the first answer", func() { s.FetchNow(ctx, ka.Topic()) }, true},
		{"the combination's first value", func() { s.FetchNow(ctx, kb.Topic()) }, true},
		{"new data", func() { s.FetchNow(ctx, ka.Topic()) }, false},
		{"a failure", func() { fail.Store(true); s.FetchNow(ctx, ka.Topic()) }, true},
		{"the recovery", func() { fail.Store(false); s.FetchNow(ctx, ka.Topic()) }, true},
		{"new data again", func() { s.FetchNow(ctx, ka.Topic()) }, false},
	}
	for _, st := range steps {
		st.do()
		if !signalled(sub) {
			t.Fatalf("%s: not told", st.what)
		}
		if got := sub.News(); got != st.news {
			t.Errorf("%s: news %v, want %v", st.what, got, st.news)
		}
	}
	if sub.News() {
		t.Error("News does not reset")
	}
}

// TestAPollOutOfTimeIsAFailure: a poll whose budget runs out while its
// calls are slow (each answered, none failed, so the transport reports
// no failed call) is a failure the errors view lists, counted per topic,
// with the error the health and the topic's snapshot hold: the header
// saying "✖ timeout" while the errors view said "no call has failed" was
// two stories. A call's own failure, which the transport records, is not
// recorded twice.
func TestAPollOutOfTimeIsAFailure(t *testing.T) {
	slow := func(ctx context.Context) (int, error) { <-ctx.Done(); return 0, ctx.Err() }
	refused := &apierr.Error{Interface: apierr.Payments, Method: "GET", Path: "/v3/payments/balances", Class: apierr.ClassUnreachable}
	s := New(Options{FetchTimeout: 10 * time.Millisecond, Feeds: []Feed{
		ValueFeed(KeyOf[int]("ledger"), slow, FeedOptions[int, int]{Interface: apierr.Payments, Interval: time.Second}),
		ValueFeed(KeyOf[int]("payments"), slow, FeedOptions[int, int]{Interface: apierr.Payments, Interval: time.Second}),
		ValueFeed(KeyOf[int]("balances"), func(context.Context) (int, error) { return 0, refused },
			FeedOptions[int, int]{Interface: apierr.Payments, Interval: time.Second}),
	}})
	ctx := context.Background()
	for range 2 {
		s.FetchNow(ctx, "ledger")
	}
	s.FetchNow(ctx, "payments")
	s.FetchNow(ctx, "balances")
	fs := s.Failures()
	if len(fs) != 2 {
		t.Fatalf("%d failures listed, want the two topics' polls: %+v", len(fs), fs)
	}
	byTopic := map[Topic]Failure{fs[0].Topic: fs[0], fs[1].Topic: fs[1]}
	led := byTopic["ledger"]
	if led.Count != 2 || led.Err.Poll != "ledger" || led.Err.Class != apierr.ClassTimeout || byTopic["payments"].Count != 1 {
		t.Fatalf("failures %+v: want the ledger's poll twice and the payments' once, as timeouts", byTopic)
	}
	if sn := s.Snapshot("ledger"); !errors.Is(sn.Err, context.DeadlineExceeded) || sn.Err.Error() != led.Err.Error() {
		t.Errorf("the topic says %v, the errors view %v", sn.Err, led.Err)
	}
	if h := s.Health()[0]; h.LastError == nil || h.LastError.Error() != refused.Error() {
		t.Errorf("health's last error %v", h.LastError)
	}
}
