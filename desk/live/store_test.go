package live

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"treasury/wire/apierr"
	"treasury/wire/money"
	"treasury/wire/payments"
	"treasury/wire/webhook"
)

func waitSignal(t *testing.T, sub *Subscription) {
	t.Helper()
	select {
	case <-sub.C():
	case <-time.After(5 * time.Second):
		t.Fatal("no change signalled")
	}
}

func TestWatchedTopicIsFetchedAndUnwatchedIsNot(t *testing.T) {
	var quotes, trades atomic.Int32
	s := New(Options{Feeds: []Feed{
		ValueFeed(KeyOf[int]("quotes"), func(context.Context) (int, error) { quotes.Add(1); return 1, nil },
			FeedOptions[int, int]{Interface: apierr.Liquidity, Interval: time.Hour}),
		ValueFeed(KeyOf[int]("trades"), func(context.Context) (int, error) { trades.Add(1); return 2, nil },
			FeedOptions[int, int]{Interface: apierr.Liquidity, Interval: time.Hour}),
	}})
	s.Start(context.Background())
	defer s.Close()
	sub := s.Subscribe()
	sub.Watch("quotes")
	waitSignal(t, sub)
	snap := s.Snapshot("quotes")
	if snap.data != 1 || snap.FetchedAt.IsZero() || snap.Stale(time.Now()) {
		t.Fatalf("snapshot %+v", snap)
	}
	if trades.Load() != 0 {
		t.Fatalf("trades polled %d times with nobody watching", trades.Load())
	}
	if !s.Snapshot("trades").Stale(time.Now()) {
		t.Fatal("a never-fetched topic must be stale")
	}
	if snap.Stale(snap.FetchedAt.Add(2*time.Hour+time.Second)) != true {
		t.Fatal("data older than twice its interval must be stale")
	}
}

func TestSlowSubscriberNeverStallsOthers(t *testing.T) {
	var n atomic.Int32
	s := New(Options{Feeds: []Feed{ValueFeed(KeyOf[int32]("q"), func(context.Context) (int32, error) { return n.Add(1), nil },
		FeedOptions[int32, int32]{Interval: time.Hour})}})
	slow, fast := s.Subscribe(), s.Subscribe()
	slow.Watch("q")
	fast.Watch("q")
	for i := 0; i < 100; i++ {
		s.FetchNow(context.Background(), "q")
		waitSignal(t, fast)
	}
	if got := s.Snapshot("q").data; got != int32(100) {
		t.Fatalf("data %v", got)
	}
	// The slow one holds one coalesced signal, not a hundred.
	if len(slow.ch) != 1 {
		t.Fatalf("slow subscriber has %d pending signals", len(slow.ch))
	}
	slow.Close()
	fast.Close()
	if s.Subscribers() != 0 {
		t.Fatal("subscriptions left open")
	}
}

func TestFailedFetchKeepsDataAndMarksStale(t *testing.T) {
	fail := false
	s := New(Options{Feeds: []Feed{ValueFeed(KeyOf[string]("q"), func(context.Context) (string, error) {
		if fail {
			return "", &apierr.Error{Interface: apierr.Payments, Code: "SYS_001", Class: apierr.ClassRetry, HTTPStatus: 500}
		}
		return "good", nil
	}, FeedOptions[string, string]{Interface: apierr.Payments, Interval: time.Hour})}})
	s.FetchNow(context.Background(), "q")
	fail = true
	snap := s.FetchNow(context.Background(), "q")
	if snap.data != "good" || snap.Err == nil || !snap.Stale(snap.FetchedAt) {
		t.Fatalf("snapshot %+v", snap)
	}
	h := s.Health()
	if len(h) != 1 || h[0].ConsecutiveFailures != 1 || h[0].Up() {
		t.Fatalf("health %+v", h)
	}
}

func TestAlertsFollowSpecRule4(t *testing.T) {
	s := New(Options{})
	sys := &apierr.Error{Interface: apierr.Payments, Code: "SYS_001", Class: apierr.ClassRetry, HTTPStatus: 500}
	for i := 0; i < RepeatedSystemErrors-1; i++ {
		s.Observe(apierr.Payments, "filter", 0, sys)
	}
	if len(s.Alerts()) != 0 {
		t.Fatal("alert before the SYS_ errors repeat")
	}
	s.Observe(apierr.Payments, "filter", 0, sys)
	s.Observe(apierr.Payments, "get", 0, &apierr.Error{Code: "CFG_002", Class: apierr.ClassOperator, HTTPStatus: 500})
	s.Observe(apierr.Payments, "get payment", 0, &apierr.Error{Code: "AUTH_051", Class: apierr.ClassForbidden, HTTPStatus: 403})
	a := s.Alerts()
	if len(a) != 3 || a[0].Severity != High || a[0].Code != "CFG_002" || a[1].Severity != Medium || a[2].Severity != Medium {
		t.Fatalf("alerts %+v", a)
	}
	s.Observe(apierr.Payments, "filter", 0, nil)
	if len(s.Alerts()) != 2 {
		t.Fatalf("success did not clear the endpoint's alert: %+v", s.Alerts())
	}
}

func TestHistoryIsBounded(t *testing.T) {
	s := New(Options{HistoryWindow: time.Hour, HistoryPoints: 60})
	t0 := time.Date(2026, 11, 16, 0, 0, 0, 0, time.UTC)
	for i := 0; i < 10000; i++ {
		s.history.add(Sample{Series: "rate:USD/MXN", At: t0.Add(time.Duration(i) * time.Second), Value: float64(i)})
	}
	pts := s.History("rate:USD/MXN")
	if len(pts) > 61 || len(pts) < 59 {
		t.Fatalf("%d points kept", len(pts))
	}
	if last := pts[len(pts)-1]; last.Value != 9999 {
		t.Fatalf("newest point %v", last)
	}
	if n := len(s.history.series["rate:USD/MXN"].buf); n > 60 {
		t.Fatalf("the ring grew to %d points", n)
	}
}

func pay(id string, st payments.State, at time.Time) payments.Payment {
	return payments.Payment{PaymentID: id, PaymentState: st, InitiatedAt: at, LastStateUpdatedAt: at,
		Originator: payments.Originator{SourceCurrency: "USD", SourceAmount: money.N(money.MustParse("10.00"))}}
}

func TestPaymentsNeverMoveBack(t *testing.T) {
	s := New(Options{})
	t0 := time.Date(2026, 11, 16, 9, 0, 0, 0, time.UTC)
	s.PutPayment(pay("p1", payments.Initiated, t0))
	ev := func(id string, st payments.State, at time.Time) webhook.Event {
		return webhook.Event{ID: id + string(st), EventData: webhook.EventData{PaymentID: "p1", PaymentState: st}, CreateDate: at}
	}
	s.ApplyPaymentEvent(ev("e1", payments.Completed, t0.Add(2*time.Minute)))
	s.ApplyPaymentEvent(ev("e2", payments.Transferring, t0.Add(time.Minute))) // late, older
	ps := Get(s, PaymentsKey).Data
	p, _ := ps.Get("p1")
	if p.PaymentState != payments.Completed {
		t.Fatalf("state %s", p.PaymentState)
	}
	arr := s.Arrivals("p1")
	if len(arr) != 2 || !arr[0].Applied || arr[1].Applied {
		t.Fatalf("arrivals %+v", arr)
	}
	// A stale poll does not move it back either.
	s.PutPayment(pay("p1", payments.Validating, t0.Add(30*time.Second)))
	p, _ = Get(s, PaymentsKey).Data.Get("p1")
	if p.PaymentState != payments.Completed {
		t.Fatalf("poll moved the payment back to %s", p.PaymentState)
	}
}

func TestMergeKeepsOldSnapshotIntact(t *testing.T) {
	t0 := time.Date(2026, 11, 16, 9, 0, 0, 0, time.UTC)
	a := merge(nil, []payments.Payment{pay("a", payments.Initiated, t0), pay("b", payments.Initiated, t0.Add(time.Second))})
	b := merge(a, []payments.Payment{pay("a", payments.Completed, t0.Add(time.Minute)), pay("c", payments.Initiated, t0.Add(-time.Hour))})
	if p, _ := a.Get("a"); p.PaymentState != payments.Initiated {
		t.Fatal("merge changed the old set")
	}
	if b.Len() != 3 || b.At(0).PaymentID != "c" {
		t.Fatalf("new set order wrong: %d, first %s", b.Len(), b.At(0).PaymentID)
	}
	if p, _ := b.Get("a"); p.PaymentState != payments.Completed {
		t.Fatal("update lost")
	}
	if merge(b, []payments.Payment{pay("a", payments.Initiated, t0)}) != b {
		t.Fatal("a merge that changes nothing must return the same set")
	}
}

func TestErrorsAreNotSwallowed(t *testing.T) {
	s := New(Options{Feeds: []Feed{ValueFeed(KeyOf[[]int]("q"), func(context.Context) ([]int, error) { return nil, errors.New("dial tcp: refused") },
		FeedOptions[[]int, []int]{Interval: time.Hour})}})
	snap := s.FetchNow(context.Background(), "q")
	if snap.Err == nil || snap.data != nil {
		t.Fatalf("%+v", snap)
	}
}

// BenchmarkStoreHeap100kPayments reports the heap held by a store with
// 100,000 payments (aim: under 100 MB).
func BenchmarkStoreHeap100kPayments(b *testing.B) {
	t0 := time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < b.N; i++ {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		s := New(Options{})
		batch := make([]payments.Payment, 0, 1000)
		for j := 0; j < 100000; j++ {
			p := pay(fmt.Sprintf("%08x-3f7a-4d47-9a52-2a4c1d7e%04x", j, j%65536), payments.Completed, t0.Add(time.Duration(j)*time.Minute))
			p.ExpiresAt = p.InitiatedAt.Add(time.Hour)
			p.Originator.InternalID = fmt.Sprintf("inv-%d", j)
			p.Originator.OriginatorIdentityID = fmt.Sprintf("%08x-0000-4000-8000-000000000001", j%50)
			p.Destination = payments.Destination{DestinationAmount: money.N(money.MustParse("180.25")), DestinationCurrency: "MXN", DestinationCountry: "MX",
				BeneficiaryIdentityID: fmt.Sprintf("%08x-0000-4000-8000-000000000002", j%500), BeneficiaryFinancialInstrumentID: fmt.Sprintf("%08x-0000-4000-8000-000000000003", j%500)}
			p.Fees = []payments.FeeSummary{{TotalFee: money.N(money.MustParse("1.50")), FeeCurrency: "USD"}}
			batch = append(batch, p)
			if len(batch) == cap(batch) {
				s.PutPayments(batch)
				batch = make([]payments.Payment, 0, 1000)
			}
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(1<<20), "MB-heap")
		runtime.KeepAlive(s)
	}
}

// A payment first seen through a webhook (Partial: no parties, no
// internalId) is completed by the next poll in the same state, even when
// the notification's time is later than the state's.
func TestWebhookSkeletonCompletedByPoll(t *testing.T) {
	at := time.Date(2026, 11, 16, 9, 30, 0, 0, time.UTC)
	skeleton := payments.Payment{PaymentID: "p1", PaymentState: payments.Initiated, LastStateUpdatedAt: at.Add(2 * time.Second), Partial: true}
	full := payments.Payment{PaymentID: "p1", PaymentState: payments.Initiated, LastStateUpdatedAt: at,
		Originator: payments.Originator{OriginatorIdentityID: "id-1", InternalID: "INV-1"}}
	ps := merge(nil, []payments.Payment{skeleton})
	ps = merge(ps, []payments.Payment{full})
	got, _ := ps.Get("p1")
	if got.InternalID() != "INV-1" || got.Partial {
		t.Fatalf("poll did not complete the webhook's record: %+v", got)
	}
	// A complete record is not replaced by an older read of the same state.
	again := merge(ps, []payments.Payment{{PaymentID: "p1", PaymentState: payments.Initiated, LastStateUpdatedAt: at.Add(-time.Second),
		Originator: payments.Originator{OriginatorIdentityID: "id-1", InternalID: "OTHER"}}})
	if got, _ := again.Get("p1"); got.InternalID() != "INV-1" {
		t.Fatalf("an older read replaced a complete record: %+v", got)
	}
}

func TestHistoryBackfillInsertsOlderPoints(t *testing.T) {
	h := newHistory(time.Hour, 60) // one-minute buckets
	at := time.Date(2026, 11, 16, 9, 30, 0, 0, time.UTC)
	h.add(Sample{Series: "s", At: at, Value: 3})
	h.add(Sample{Series: "s", At: at.Add(-10 * time.Minute), Value: 1}) // backfill
	h.add(Sample{Series: "s", At: at.Add(-5 * time.Minute), Value: 2})
	h.add(Sample{Series: "s", At: at.Add(-5*time.Minute + time.Second), Value: 9}) // same bucket, newer: replaces
	h.add(Sample{Series: "s", At: at.Add(-2 * time.Hour), Value: 0})               // outside the window
	r := h.series["s"]
	var got []Point
	for i := range r.n {
		got = append(got, *r.at(i))
	}
	want := []float64{1, 9, 3}
	if len(got) != len(want) {
		t.Fatalf("points %v", got)
	}
	for i, p := range got {
		if p.Value != want[i] || (i > 0 && !got[i-1].At.Before(p.At)) {
			t.Fatalf("points %v, want values %v in time order", got, want)
		}
	}
}

// TestRepeatedFailureBacksOff: a fetch that keeps failing the same
// non-retryable way waits longer each time (doubling up to MaxBackoff); a
// retryable failure, another failure or a success waits the interval.
func TestRepeatedFailureBacksOff(t *testing.T) {
	var next error
	feed := ValueFeed(KeyOf[[]int]("t"), func(context.Context) ([]int, error) { return []int{1}, next },
		FeedOptions[[]int, []int]{Interface: apierr.Custody, Interval: 2 * time.Second})
	s := New(Options{Feeds: []Feed{feed}})
	p := s.feeds["t"]
	refused := &apierr.Error{Interface: apierr.Custody, Method: "GET", Path: "/v1/x", Class: apierr.ClassUnreachable, Message: "connection refused"}
	other := &apierr.Error{Interface: apierr.Custody, Method: "GET", Path: "/v1/x", HTTPStatus: 404, Class: apierr.ClassNotFound}
	sys := &apierr.Error{Interface: apierr.Custody, Method: "GET", Path: "/v1/x", HTTPStatus: 500, Class: apierr.ClassRetry}
	steps := []struct {
		err  error
		want time.Duration
	}{
		{refused, 2 * time.Second}, {refused, 4 * time.Second}, {refused, 8 * time.Second},
		{other, 2 * time.Second}, {other, 4 * time.Second},
		{sys, 2 * time.Second}, {sys, 2 * time.Second},
		{nil, 2 * time.Second},
	}
	for i, st := range steps {
		next = st.err
		if got := s.fetch(context.Background(), p); got != st.want {
			t.Fatalf("step %d (%v): wait %v, want %v", i, st.err, got, st.want)
		}
	}
	next = refused
	var got time.Duration
	for range 12 {
		got = s.fetch(context.Background(), p)
	}
	if got != MaxBackoff {
		t.Fatalf("after 12 identical failures the wait is %v, want %v", got, MaxBackoff)
	}
	snap := s.Snapshot("t")
	if !snap.Loaded() || snap.Err == nil || snap.Failures != 12 || snap.NextTry.IsZero() {
		t.Fatalf("snapshot %+v: want the old data, the error, 12 failures and the next try", snap)
	}
}

// merge is MergePayments without eviction, for tests of the merge rules.
func merge(prev *PaymentSet, batch []payments.Payment) *PaymentSet {
	ps, _ := MergePayments(prev, batch, time.Time{})
	return ps
}

// TestMergeChangesCopiesAndEvicts: a merge says what it added, changed and
// removed; the set keeps copies (nothing points into the fetched slice);
// finished payments older than the window leave it, in-flight ones stay.
func TestMergeChangesCopiesAndEvicts(t *testing.T) {
	t0 := time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)
	fetched := []payments.Payment{pay("old-done", payments.Completed, t0), pay("old-moving", payments.Transferring, t0),
		pay("new", payments.Initiated, t0.Add(2*time.Hour))}
	ps, ch := MergePayments(nil, fetched, time.Time{})
	if len(ch.Added) != 3 || ps.Len() != 3 {
		t.Fatalf("changes %+v, %d held", ch, ps.Len())
	}
	fetched[2].PaymentState = payments.Failed
	if p, _ := ps.Get("new"); p.PaymentState != payments.Initiated {
		t.Fatal("the set points into the fetched slice")
	}
	same, ch := MergePayments(ps, []payments.Payment{pay("new", payments.Initiated, t0.Add(2*time.Hour))}, time.Time{})
	if same != ps || !ch.Empty() {
		t.Fatalf("an unchanged payment changed the set: %+v", ch)
	}
	next, ch := MergePayments(ps, []payments.Payment{pay("new", payments.Completed, t0.Add(3*time.Hour))}, t0.Add(time.Hour))
	if fmt.Sprint(ch.Changed, ch.Removed, ch.Added) != "[new] [old-done] []" {
		t.Fatalf("changes %+v", ch)
	}
	if _, ok := next.Get("old-done"); ok || next.Len() != 2 {
		t.Fatal("the finished old payment was not evicted")
	}
	if _, ok := next.Get("old-moving"); !ok {
		t.Fatal("a payment in flight was evicted")
	}
	if _, ok := ps.Get("old-done"); !ok || ps.Len() != 3 {
		t.Fatal("the merge changed the previous set")
	}
}

// TestMergeDropsWhatThePlatformForgot: a payment held in flight that the
// platform no longer returns by id leaves the set (with its state's
// count), wherever it is in the window, unless this fetch brought it.
func TestMergeDropsWhatThePlatformForgot(t *testing.T) {
	t0 := time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)
	ps, _ := MergePayments(nil, []payments.Payment{pay("old-moving", payments.Transferring, t0),
		pay("new-moving", payments.Initiated, t0.Add(3*time.Hour)), pay("back", payments.Transferring, t0)}, time.Time{})
	next, ch := MergePaymentsGone(ps, []payments.Payment{pay("back", payments.Completed, t0.Add(4*time.Hour))}, t0.Add(time.Hour),
		[]string{"old-moving", "new-moving", "back", "never-held"})
	if fmt.Sprint(ch.Changed, ch.Removed) != "[back] [old-moving new-moving]" {
		t.Fatalf("changes %+v", ch)
	}
	if counts := next.CountByState(); next.Len() != 1 || fmt.Sprint(counts) != "map[COMPLETED:1]" {
		t.Fatalf("%d held, counts %v", next.Len(), counts)
	}
	if ps.Len() != 3 {
		t.Fatal("the merge changed the previous set")
	}
}

// TestMergeSaysSinceWhenTheSetIsWhole: a count over a window is true only
// if the set holds every payment initiated in it: the set says since when
// it does (the feed's eviction time), also when the window grew and the
// older read brought nothing new.
func TestMergeSaysSinceWhenTheSetIsWhole(t *testing.T) {
	t0 := time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)
	day := t0.Add(-24 * time.Hour)
	ps, _ := MergePayments(nil, []payments.Payment{pay("a", payments.Completed, t0)}, day)
	if !ps.Since().Equal(day) {
		t.Fatalf("since %v, want %v", ps.Since(), day)
	}
	if got, _ := MergePayments(ps, nil, day.Add(time.Minute)); got != ps {
		t.Fatal("a later window with nothing to evict changed the set")
	}
	week := t0.Add(-7 * 24 * time.Hour)
	wider, ch := MergePayments(ps, nil, week)
	if !wider.Since().Equal(week) || !ch.Reset || ps.Since() != day {
		t.Fatalf("the window grew: since %v, changes %+v; the previous set says %v", wider.Since(), ch, ps.Since())
	}
	if got, _ := MergePayments(wider, []payments.Payment{pay("b", payments.Initiated, t0)}, time.Time{}); !got.Since().Equal(week) {
		t.Fatalf("a notification's merge moved since to %v", got.Since())
	}
}

// TestHistoryRingKeepsOrderWhenFull: backfilled points land in order in a
// full ring, the oldest leaving first.
func TestHistoryRingKeepsOrderWhenFull(t *testing.T) {
	h := newHistory(time.Hour, 10) // six-minute buckets
	at := time.Date(2026, 11, 16, 9, 0, 0, 0, time.UTC)
	for i := range 10 {
		h.add(Sample{Series: "s", At: at.Add(time.Duration(i) * 6 * time.Minute), Value: float64(i)})
	}
	h.add(Sample{Series: "s", At: at.Add(57 * time.Minute), Value: 99}) // bucket 9: replaces
	h.add(Sample{Series: "s", At: at.Add(63 * time.Minute), Value: 10}) // pushes out the oldest
	r := h.series["s"]
	var prev time.Time
	for i := range r.n {
		p := r.at(i)
		if !p.At.After(prev) {
			t.Fatalf("point %d at %v not after %v", i, p.At, prev)
		}
		prev = p.At
	}
	if r.n != 10 || r.at(r.n-1).Value != 10 || r.at(r.n-2).Value != 99 || r.at(0).Value != 1 {
		t.Fatalf("%d points, newest %v, first %v", r.n, r.at(r.n-1), r.at(0))
	}
}

// TestAgesOnAFasterClock: with the store's clock running 30 times faster
// than real time (an accelerated sandbox), a fetch as recent as its
// interval is not stale, and the next try is on the same clock.
func TestAgesOnAFasterClock(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	k := KeyOf[[]string]("list")
	st := New(Options{Now: func() time.Time { return now }, Rate: func() float64 { return 30 }, Inline: true,
		Feeds: []Feed{ListFeed(k, func(s string) string { return s }, func(context.Context) ([]string, error) { return []string{"a"}, nil },
			FeedOptions[[]string, []string]{Interval: 2 * time.Second})}})
	st.FetchNow(context.Background(), "list")
	now = now.Add(100 * time.Second) // 3.3 s of real time: less than two intervals
	snap := Get(st, k)
	if snap.Stale(now) {
		t.Fatalf("stale %s after a fetch on a clock 30x real time, interval %s", now.Sub(snap.FetchedAt), snap.Interval)
	}
	if want := snap.FetchedAt.Add(60 * time.Second); !snap.NextTry.Equal(want) {
		t.Fatalf("next try %s, want %s", snap.NextTry, want)
	}
	if now = now.Add(25 * time.Second); !snap.Stale(now) { // 4.2 s of real time
		t.Fatal("not stale after more than two intervals")
	}
}

// TestWatchingADueTopicPollsIt: a topic nobody watched when its poll
// fell due is polled when a subscriber watches it again, not an interval
// later (a report list opened 6 minutes after its last poll of every 5
// showed 6-minute-old data for 4 more minutes).
func TestWatchingADueTopicPollsIt(t *testing.T) {
	var polls atomic.Int32
	var mu sync.Mutex
	now := time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	s := New(Options{Now: clock, Feeds: []Feed{
		ValueFeed(KeyOf[int]("reports"), func(context.Context) (int, error) { return int(polls.Add(1)), nil },
			FeedOptions[int, int]{Interface: apierr.Reporting, Interval: time.Hour}),
	}})
	s.Start(context.Background())
	defer s.Close()
	sub := s.Subscribe()
	sub.Watch("reports")
	waitSignal(t, sub)
	sub.Watch() // the view is left
	mu.Lock()
	now = now.Add(time.Hour + time.Minute) // due, not yet stale
	mu.Unlock()
	if s.Snapshot("reports").Stale(clock()) {
		t.Fatal("the test needs a snapshot that is due but not stale")
	}
	sub.Watch("reports") // and opened again
	waitSignal(t, sub)
	if n := polls.Load(); n != 2 {
		t.Fatalf("%d polls", n)
	}
}
