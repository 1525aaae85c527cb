package live

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"treasury/kit/fence"
	"treasury/wire/apierr"
	"treasury/wire/payments"
)

// pairRelay joins a poller's store to a follower's, in memory: what the
// poller publishes reaches the follower's Apply unless dropped.
type pairRelay struct {
	mu     sync.Mutex
	here   bool
	to     *Store
	from   *Store // the poller's store, which answers AskWhole
	asks   int
	seq    map[Topic]uint64
	drop   bool // lose the next message
	wants  []Topic
	wanted map[Topic]time.Duration
	// details are the payments asked of the poller to read by id.
	details []string
	// fence is the check each of its polls carries (nil: none).
	fence func() error
	// readsHere are what ReadsHere was told: "topic: why".
	readsHere []string
}

func (r *pairRelay) Poller() Poller {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.here {
		return Poller{Node: "a", Here: true}
	}
	return Poller{Node: "a"}
}

func (r *pairRelay) Publish(t Topic, m Polled) {
	r.mu.Lock()
	if r.seq == nil {
		r.seq = map[Topic]uint64{}
	}
	r.seq[t]++
	m.Proc, m.Seq = "a", r.seq[t]
	drop, to := r.drop, r.to
	r.drop = false
	r.mu.Unlock()
	if !drop && to != nil {
		to.Apply(t, m)
	}
}

func (r *pairRelay) Want(t Topic, _, _ time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.wants = append(r.wants, t)
}

func (r *pairRelay) Fence() func() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.fence
}

func (r *pairRelay) WantDetails(ids []string) {
	r.mu.Lock()
	r.details = append(r.details, ids...)
	from := r.from
	r.mu.Unlock()
	if from != nil {
		from.WantDetails(ids) // the poller reads them
	}
}

func (r *pairRelay) ReadsHere(t Topic, why string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.readsHere = append(r.readsHere, string(t)+": "+why)
}

func (r *pairRelay) AskWhole(t Topic) {
	r.mu.Lock()
	r.asks++
	from := r.from
	r.mu.Unlock()
	if from == nil {
		return // nobody answers
	}
	if m, ok := from.WholeMessage(t); ok {
		from.siteRelay().Publish(t, m)
	}
}

func (r *pairRelay) Wanted(t Topic) (bool, time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	d, ok := r.wanted[t]
	return ok, d
}

// deltaKey is a topic whose reads are changes: the numbers read since the
// last read, merged into those held (as the feeds' folds merge by id: a
// record read twice is held once).
var deltaKey = KeyOf[[]int]("numbers")

func deltaFeed(next func() ([]int, error), reads *atomic.Int32) Feed {
	return FoldFeed(deltaKey, func(context.Context) ([]int, error) { reads.Add(1); return next() },
		func(prev, got []int, _ time.Time) ([]int, Changes) {
			if len(got) == 0 {
				return prev, Changes{}
			}
			out := append(slices.Clone(prev), got...)
			slices.Sort(out)
			return slices.Compact(out), Changes{Reset: true}
		}, FeedOptions[[]int, []int]{Interface: apierr.Liquidity, Interval: time.Hour, Always: true})
}

// A process of a site that does not poll asks the poller for what it
// holds of a topic (its changes mean nothing without what they change),
// then folds the poller's reads to the very data the poller holds,
// without one read of its own; a message it missed makes it ask again.
// Asked in vain, it reads the topic itself, asks again a while later,
// and follows from a whole read of its own too; the
// poller's failure is its failure too, named alike.
func TestAFollowerFoldsThePollersReadsToTheSameData(t *testing.T) {
	var mu sync.Mutex
	platform := []int{1, 2, 3}
	cursor := map[string]int{}
	readFrom := func(who string) func() ([]int, error) {
		return func() ([]int, error) {
			mu.Lock()
			defer mu.Unlock()
			got := slices.Clone(platform[cursor[who]:])
			cursor[who] = len(platform)
			return got, nil
		}
	}
	add := func(n int) {
		mu.Lock()
		defer mu.Unlock()
		platform = append(platform, n)
	}
	var pollerReads, followerReads atomic.Int32
	follower := New(Options{Feeds: []Feed{deltaFeed(readFrom("b"), &followerReads)}, Inline: true})
	toFollower := &pairRelay{here: true, to: follower}
	poller := New(Options{Feeds: []Feed{deltaFeed(readFrom("a"), &pollerReads)}, Inline: true})
	poller.ShareWith(toFollower)
	asking := &pairRelay{from: poller}
	follower.ShareWith(asking)
	fp := follower.feeds[deltaKey.topic]
	same := func(when string) {
		t.Helper()
		if got, want := Get(follower, deltaKey).Data, Get(poller, deltaKey).Data; !slices.Equal(got, want) {
			t.Fatalf("%s: the follower holds %v, the poller %v", when, got, want)
		}
	}

	poller.FetchNow(context.Background(), deltaKey.topic)
	if here, again, _ := follower.pollHere(fp); here || again != wholeAskEvery {
		t.Fatalf("a follower that holds nothing: reads itself %v, looks again in %v; want it to ask the poller", here, again)
	}
	same("given the poller's whole")
	if here, again, _ := follower.pollHere(fp); here || again != 0 {
		t.Fatal("a follower in step must not read the topic: the poller does")
	}
	for _, n := range []int{4, 5, 6} {
		add(n)
		poller.FetchNow(context.Background(), deltaKey.topic)
	}
	same("after three polls")

	// A message lost: the next one does not follow, the follower asks.
	toFollower.mu.Lock()
	toFollower.drop = true
	toFollower.mu.Unlock()
	add(7)
	poller.FetchNow(context.Background(), deltaKey.topic)
	add(8)
	poller.FetchNow(context.Background(), deltaKey.topic)
	if here, _, _ := follower.pollHere(fp); here {
		t.Fatal("a follower that missed a message must ask the poller again, not read")
	}
	same("after a message lost")
	if n := followerReads.Load(); n != 0 || asking.asks != 2 {
		t.Fatalf("the follower read the platform %d times and asked %d, want no read and two asks", n, asking.asks)
	}

	// Nobody answers: asked three times, the follower reads itself.
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	var aloneReads atomic.Int32
	alone := New(Options{Feeds: []Feed{deltaFeed(readFrom("c"), &aloneReads)}, Inline: true, Now: func() time.Time { return now }})
	unanswered := &pairRelay{}
	alone.ShareWith(unanswered)
	ap := alone.feeds[deltaKey.topic]
	for i := range wholeAsks {
		if here, _, _ := alone.pollHere(ap); here {
			t.Fatalf("read itself after %d asks, want %d first", i, wholeAsks)
		}
		now = now.Add(wholeAskEvery)
	}
	if here, _, _ := alone.pollHere(ap); !here || unanswered.asks != wholeAsks {
		t.Fatalf("asked %d times in vain: reads itself %v", unanswered.asks, here)
	}
	if here, _, _ := alone.pollHere(ap); !here || len(unanswered.readsHere) != 1 || !strings.Contains(unanswered.readsHere[0], "did not send it whole when asked 3 times") {
		t.Fatalf("reading itself (%v), the follower told the site %q; want it said once, with why", here, unanswered.readsHere)
	}
	now = now.Add(wholeAskAgain)
	if here, _, _ := alone.pollHere(ap); here || unanswered.asks != wholeAsks+1 {
		t.Fatalf("a while after asking in vain: reads itself %v, asked %d times; want it to ask again", here, unanswered.asks)
	}
	alone.FetchNow(context.Background(), deltaKey.topic)
	if here, _, _ := alone.pollHere(ap); here {
		t.Fatal("a follower that read the topic whole itself must follow from there")
	}

	// The poller's failure is the follower's, under the same name.
	failing := New(Options{Feeds: []Feed{deltaFeed(func() ([]int, error) {
		return nil, &apierr.Error{Interface: apierr.Liquidity, Method: "GET", Path: "/v1/numbers", HTTPStatus: 503, Message: "down",
			Cause: errors.New("not carried")}
	}, &pollerReads)}, Inline: true})
	failing.ShareWith(&pairRelay{here: true, to: follower, seq: map[Topic]uint64{deltaKey.topic: toFollower.seq[deltaKey.topic]}})
	failing.FetchNow(context.Background(), deltaKey.topic)
	snap := Get(follower, deltaKey)
	e, ok := apierr.As(snap.Err)
	if !ok || e.HTTPStatus != 503 || e.Call() != "GET /v1/numbers" {
		t.Fatalf("the follower's snapshot says %v, want the poller's 503 of GET /v1/numbers", snap.Err)
	}
	if !slices.Equal(snap.Data, Get(poller, deltaKey).Data) {
		t.Fatal("a failed poll must keep the data held")
	}
	if f := follower.Failures(); len(f) == 0 || f[0].Err.HTTPStatus != 503 {
		t.Fatalf("the follower's errors view must list the poller's failure: %+v", f)
	}
}

// A follower asks the poller for a topic it watches and the poller does
// not poll for itself; the poller reads what another process watches.
func TestAWatchedTopicIsAskedOfThePoller(t *testing.T) {
	var reads atomic.Int32
	k := KeyOf[int]("wallets")
	feed := ValueFeed(k, func(context.Context) (int, error) { reads.Add(1); return 1, nil },
		FeedOptions[int, int]{Interface: apierr.Wallet, Interval: time.Hour})
	r := &pairRelay{}
	s := New(Options{Feeds: []Feed{feed}, Inline: true})
	s.ShareWith(r)
	p := s.feeds[k.topic]
	s.FetchNow(context.Background(), k.topic) // held whole
	sub := s.Subscribe()
	sub.Watch(k.topic)
	defer sub.Close()
	if here, _, _ := s.pollHere(p); here {
		t.Fatal("a follower holding the topic must not read it")
	}
	if len(r.wants) != 1 || r.wants[0] != k.topic {
		t.Fatalf("the follower asked for %v, want [%s]", r.wants, k.topic)
	}

	leader := &pairRelay{here: true, wanted: map[Topic]time.Duration{}}
	l := New(Options{Feeds: []Feed{feed}, Inline: true})
	l.ShareWith(leader)
	if l.wanted(l.feeds[k.topic].feed) {
		t.Fatal("a topic nobody watches is not polled")
	}
	leader.wanted[k.topic] = 0
	if !l.wanted(l.feeds[k.topic].feed) {
		t.Fatal("the poller must poll a topic another process of the site watches")
	}
}

// A follower's own read still going on when the poller's whole arrives
// (a bastion that started before it knew who polls) ends at once: it is
// needed no more, and its end is no failure.
func TestTheWholeEndsTheFollowersOwnRead(t *testing.T) {
	var reads atomic.Int32
	started := make(chan struct{})
	slow := FoldFeed(deltaKey, func(ctx context.Context) ([]int, error) {
		reads.Add(1)
		close(started)
		<-ctx.Done() // a long backfill
		return nil, ctx.Err()
	}, func(prev, got []int, _ time.Time) ([]int, Changes) { return got, Changes{Reset: true} },
		FeedOptions[[]int, []int]{Interface: apierr.Liquidity, Interval: time.Hour})
	follower := New(Options{Feeds: []Feed{slow}, Inline: true, FetchTimeout: time.Hour})
	follower.ShareWith(&pairRelay{})
	var pollerReads atomic.Int32
	poller := New(Options{Feeds: []Feed{deltaFeed(func() ([]int, error) { return []int{1, 2}, nil }, &pollerReads)}, Inline: true})
	poller.ShareWith(&pairRelay{here: true, to: follower})
	poller.FetchNow(context.Background(), deltaKey.topic)

	done := make(chan Snapshot)
	go func() { done <- follower.FetchNow(context.Background(), deltaKey.topic) }()
	<-started
	m, ok := poller.WholeMessage(deltaKey.topic)
	if !ok {
		t.Fatal("the poller holds the topic: it must hand it whole")
	}
	m.Proc, m.Seq = "a", 2
	follower.Apply(deltaKey.topic, m)
	snap := <-done
	if snap.Err != nil || !slices.Equal(Get(follower, deltaKey).Data, []int{1, 2}) {
		t.Fatalf("after the whole: err %v, data %v; want the poller's data and no failure", snap.Err, Get(follower, deltaKey).Data)
	}
}

// TestAFollowersShownPaymentsAreReadByThePoller: in a site, a process that
// does not poll never reads a payment by id: what its sessions show is
// handed to the poller, which reads it, once for the site however many
// processes show it, and publishes it; the follower folds it in.
func TestAFollowersShownPaymentsAreReadByThePoller(t *testing.T) {
	t0 := time.Date(2026, 11, 16, 9, 0, 0, 0, time.UTC)
	failed := full("f-1", payments.Failed, t0)
	var pollerReads, followerReads atomic.Int32
	read := func(n *atomic.Int32) func(context.Context, string) (payments.Payment, error) {
		return func(_ context.Context, id string) (payments.Payment, error) {
			n.Add(1)
			p := failed
			p.Detailed = true
			p.Errors = []payments.PaymentError{{Code: "USR_031", Title: "Invalid beneficiary account"}}
			return p, nil
		}
	}
	follower := New(Options{ReadPayment: read(&followerReads), Inline: true})
	defer follower.Close()
	poller := New(Options{ReadPayment: read(&pollerReads), Inline: true})
	defer poller.Close()
	poller.ShareWith(&pairRelay{here: true, to: follower})
	asking := &pairRelay{from: poller}
	follower.ShareWith(asking)
	poller.PutPayments([]payments.Payment{failed})
	follower.PutPayments([]payments.Payment{failed})
	for range 3 { // three sessions of the follower show it
		follower.WantDetails([]string{"f-1"})
	}
	poller.Sync()
	follower.Sync()
	if n, m := pollerReads.Load(), followerReads.Load(); n != 1 || m != 0 {
		t.Fatalf("the poller read it %d times, the follower %d: want once, by the poller", n, m)
	}
	if p, _ := Get(follower, PaymentsKey).Data.Get("f-1"); !p.Detailed || len(p.Errors) == 0 || p.Errors[0].Code != "USR_031" {
		t.Fatalf("the follower holds %+v, not the poller's read", p)
	}
	if len(asking.details) != 3 {
		t.Fatalf("the follower handed the poller %v", asking.details)
	}
}

// wholeAtPart is a poller's relay that, at each part it publishes, takes
// what the poller then holds whole: a follower's ask answered between
// the part's message and the next (the site serialises the two, the
// whole's sequence after the part's).
type wholeAtPart struct {
	pairRelay
	wholes [][]int
}

func (r *wholeAtPart) Publish(t Topic, m Polled) {
	if m.Part {
		w, ok := r.from.WholeMessage(t)
		if !ok {
			r.wholes = append(r.wholes, nil)
		} else {
			v, err := r.from.feeds[t].feed.decode(w.Data)
			if err != nil {
				panic(err)
			}
			r.wholes = append(r.wholes, v.([]int))
		}
	}
	r.pairRelay.Publish(t, m)
}

// A part of a read the poller publishes is already what it holds: a
// whole answered right after the part's message holds the part, or the
// follower that takes that whole (its sequence follows the part's, which
// it dropped while not in step) lacks the part for good.
func TestAWholeAfterAPartHoldsThePart(t *testing.T) {
	var reads atomic.Int32
	feed := FoldFeed(deltaKey, func(ctx context.Context) ([]int, error) {
		reads.Add(1)
		Commit(ctx, []int{7, 8})
		return []int{9}, nil
	}, func(prev, got []int, _ time.Time) ([]int, Changes) {
		out := append(slices.Clone(prev), got...)
		slices.Sort(out)
		return slices.Compact(out), Changes{Reset: true}
	}, FeedOptions[[]int, []int]{Interface: apierr.Liquidity, Interval: time.Hour, Always: true})
	poller := New(Options{Feeds: []Feed{feed}, Inline: true})
	r := &wholeAtPart{pairRelay: pairRelay{here: true}}
	r.from = poller
	poller.ShareWith(r)
	poller.FetchNow(context.Background(), deltaKey.topic)
	if reads.Load() != 1 || len(r.wholes) != 1 {
		t.Fatalf("%d reads, %d parts published; want 1 and 1", reads.Load(), len(r.wholes))
	}
	if !slices.Equal(r.wholes[0], []int{7, 8}) {
		t.Fatalf("the whole at the part's message holds %v; want the part [7 8]", r.wholes[0])
	}
}

// A poll made under a lease this process no longer holds sends nothing
// (the transport asks the fence before each request: the feed here asks
// it as the transport would), is no failure of the platform's, and
// hands the site nothing: the process that holds the lease now does.
func TestAFencedPollIsNoFailureAndNotPublished(t *testing.T) {
	var sent atomic.Int32
	feed := FoldFeed(deltaKey, func(ctx context.Context) ([]int, error) {
		if err := fence.Check(ctx); err != nil {
			return nil, err
		}
		sent.Add(1)
		return []int{1}, nil
	}, func(prev, got []int, _ time.Time) ([]int, Changes) { return got, Changes{Reset: true} },
		FeedOptions[[]int, []int]{Interface: apierr.Liquidity, Interval: time.Hour, Always: true})
	held := true
	relay := &pairRelay{here: true, fence: func() error {
		if held {
			return nil
		}
		return fence.ErrFenced
	}}
	poller := New(Options{Feeds: []Feed{feed}, Inline: true})
	poller.ShareWith(relay)
	poller.FetchNow(context.Background(), deltaKey.topic)
	relay.mu.Lock()
	published := relay.seq[deltaKey.topic]
	relay.mu.Unlock()
	if sent.Load() != 1 || published != 1 {
		t.Fatalf("under the lease: %d reads sent, %d published; want one of each", sent.Load(), published)
	}
	held = false // the lease gone: stopped, cut off
	snap := poller.FetchNow(context.Background(), deltaKey.topic)
	if sent.Load() != 1 {
		t.Fatalf("%d reads sent under a lease gone; want none", sent.Load()-1)
	}
	if snap.Err != nil || len(poller.Failures()) != 0 {
		t.Fatalf("a poll held back: err %v, failures %v; want none", snap.Err, poller.Failures())
	}
	relay.mu.Lock()
	defer relay.mu.Unlock()
	if relay.seq[deltaKey.topic] != published {
		t.Fatal("a poll held back was published to the site")
	}
}

// A follower reads no Date header of its own: its platform clock follows
// the poller's, carried in each message (a sandbox's clock running ten
// times faster left a follower minutes behind, its alerts unlike the
// poller's and every notification refused as from the future).
func TestAFollowersPlatformClockIsThePollers(t *testing.T) {
	t0 := time.Date(2026, 11, 16, 9, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	now := t0
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	var reads atomic.Int32
	follower := New(Options{Feeds: []Feed{deltaFeed(func() ([]int, error) { return nil, nil }, &reads)}, Inline: true, Now: clock})
	follower.ShareWith(&pairRelay{})
	poller := New(Options{Feeds: []Feed{deltaFeed(func() ([]int, error) { return []int{1}, nil }, &reads)}, Inline: true, Now: clock})
	poller.ShareWith(&pairRelay{here: true, to: follower})
	platform := t0.Add(2 * time.Minute)
	for i := range 6 { // the platform's clock runs ten times faster
		at := t0.Add(time.Duration(i) * time.Second)
		poller.ObserveDate(apierr.Liquidity, at, at, platform.Add(time.Duration(i)*10*time.Second))
	}
	for _, at := range []time.Duration{5 * time.Second, 7 * time.Second} { // two polls
		mu.Lock()
		now = t0.Add(at)
		mu.Unlock()
		poller.FetchNow(context.Background(), deltaKey.topic)
	}
	later := t0.Add(65 * time.Second)
	want := poller.PlatformTime(apierr.Liquidity, later)
	if got := follower.PlatformTime(apierr.Liquidity, later); got.Sub(want).Abs() > 2*time.Second {
		t.Fatalf("a minute on, the follower reads the platform at %s, the poller at %s", got.Format(time.TimeOnly), want.Format(time.TimeOnly))
	}
	if want.Sub(later) < 10*time.Minute {
		t.Fatalf("the poller's clock reads %s at %s: the test's platform runs fast", want, later)
	}
}

// TestForSiteFencesWhatIsNotPolled: a read for the site besides the
// polls (the platform's past) carries the lease's check while this
// process polls, and is held back whenever it does not (it follows, or
// its lease is gone); a store not in a site reads for itself.
func TestForSiteFencesWhatIsNotPolled(t *testing.T) {
	alone := New(Options{Inline: true})
	if err := fence.Check(alone.ForSite(context.Background())); err != nil {
		t.Fatalf("a store not in a site: %v", err)
	}
	s := New(Options{Inline: true})
	r := &pairRelay{}
	s.ShareWith(r)
	if err := fence.Check(s.ForSite(context.Background())); !fence.Fenced(err) {
		t.Fatalf("a process that follows: %v, want held back", err)
	}
	gone := false
	r.mu.Lock()
	r.here, r.fence = true, func() error {
		if gone {
			return fence.ErrFenced
		}
		return nil
	}
	r.mu.Unlock()
	ctx := s.ForSite(context.Background())
	if err := fence.Check(ctx); err != nil {
		t.Fatalf("the poller within its lease: %v", err)
	}
	gone = true
	if err := fence.Check(ctx); !fence.Fenced(err) {
		t.Fatalf("the poller's lease gone: %v, want held back", err)
	}
}

// TestAPollDecidedAsThePollerKeepsItsLease: a process that decided to
// poll a topic for the site (it was the poller, as a process resumed
// after a SIGSTOP still believes until its next beat) and learns before
// the read leaves that another took the lease sends nothing: the read
// carries the check of the lease it was decided under, not a follower's
// none.
func TestAPollDecidedAsThePollerKeepsItsLease(t *testing.T) {
	k := KeyOf[int]("lease-kept")
	feed := ValueFeed(k, func(context.Context) (int, error) { return 1, nil },
		FeedOptions[int, int]{Interface: apierr.Wallet, Interval: time.Hour})
	s := New(Options{Feeds: []Feed{feed}, Inline: true})
	r := &pairRelay{here: true, fence: func() error { return errors.Join(fence.ErrFenced, errors.New("lease gone")) }}
	s.ShareWith(r)
	p := s.feeds[k.topic]
	here, _, site := s.pollHere(p)
	if !here || site == nil {
		t.Fatalf("the poller: here %v, a check %v; want its lease's check", here, site != nil)
	}
	r.mu.Lock()
	r.here, r.fence = false, nil // the next beat: another holds the lease
	r.mu.Unlock()
	if err := fence.Check(s.fenced(fence.With(context.Background(), site), p)); !fence.Fenced(err) {
		t.Fatalf("a read decided as the poller, made as a follower: %v, want held back", err)
	}
	r.mu.Lock()
	r.here = true // the poller again, no fence: a no-longer-polling check
	r.mu.Unlock()
	if _, _, site := s.pollHere(p); !fence.Fenced(fence.Check(fence.With(context.Background(), site))) {
		t.Fatal("a poller whose relay gives no check: its read is not held back")
	}
}
