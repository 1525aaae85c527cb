package live

import (
	"context"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"treasury/data/apierr"
)

// pairRelay joins a poller's store to a follower's, in memory: what the
// poller publishes reaches the follower's Apply unless dropped.
type pairRelay struct {
	mu     sync.Mutex
	here   bool
	to     *Store
	seq    map[Topic]uint64
	drop   bool // lose the next message
	wants  []Topic
	wanted map[Topic]time.Duration
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

// A process of a site that does not poll reads a topic itself once (its
// changes mean nothing without what they change), then folds the
// poller's reads to the very data the poller holds, without reading; a
// message it missed makes it read again; the poller's failure is its
// failure too, named alike.
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
	var pollerReads, followerReads atomic.Int32
	follower := New(Options{Feeds: []Feed{deltaFeed(readFrom("b"), &followerReads)}, Inline: true})
	toFollower := &pairRelay{here: true, to: follower}
	poller := New(Options{Feeds: []Feed{deltaFeed(readFrom("a"), &pollerReads)}, Inline: true})
	poller.ShareWith(toFollower)
	follower.ShareWith(&pairRelay{})
	fp := follower.feeds[deltaKey.topic]

	poller.FetchNow(context.Background(), deltaKey.topic)
	if !follower.pollHere(fp) {
		t.Fatal("a follower that holds nothing of a topic must read it itself")
	}
	follower.FetchNow(context.Background(), deltaKey.topic) // its own first read: the whole
	if follower.pollHere(fp) {
		t.Fatal("a follower that holds the topic whole must not read it: the poller does")
	}
	for _, n := range []int{4, 5, 6} {
		mu.Lock()
		platform = append(platform, n)
		mu.Unlock()
		poller.FetchNow(context.Background(), deltaKey.topic)
	}
	if got, want := Get(follower, deltaKey).Data, Get(poller, deltaKey).Data; !slices.Equal(got, want) {
		t.Fatalf("the follower holds %v, the poller %v", got, want)
	}
	if n := followerReads.Load(); n != 1 {
		t.Fatalf("the follower read the platform %d times, want once", n)
	}

	// A message lost: the next one does not follow, the follower reads.
	toFollower.mu.Lock()
	toFollower.drop = true
	toFollower.mu.Unlock()
	mu.Lock()
	platform = append(platform, 7)
	mu.Unlock()
	poller.FetchNow(context.Background(), deltaKey.topic)
	mu.Lock()
	platform = append(platform, 8)
	mu.Unlock()
	poller.FetchNow(context.Background(), deltaKey.topic)
	if !follower.pollHere(fp) {
		t.Fatal("a follower that missed a message must read the topic itself again")
	}
	follower.FetchNow(context.Background(), deltaKey.topic)
	if got, want := Get(follower, deltaKey).Data, Get(poller, deltaKey).Data; !slices.Equal(got, want) {
		t.Fatalf("after its own read the follower holds %v, the poller %v", got, want)
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
	if s.pollHere(p) {
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
