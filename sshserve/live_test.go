package sshserve

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"treasury/desk/live"
)

// liveModel shows the topic "x" of a shared store, as a dashboard view does.
type liveModel struct {
	user  string
	store *live.Store
	sub   *live.Subscription
	data  any
}

type changedMsg struct{}

func (m *liveModel) wait() tea.Msg {
	if _, ok := <-m.sub.C(); !ok {
		return nil
	}
	return changedMsg{}
}

func (m *liveModel) Init() tea.Cmd { return m.wait }

func (m *liveModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(changedMsg); ok {
		m.data = live.Get(m.store, xKey).Data
		return m, m.wait
	}
	return m, nil
}

func (m *liveModel) View() tea.View {
	return tea.NewView(fmt.Sprintf("%s sees %v", m.user, m.data))
}

// newLiveModel subscribes each session to the shared store; its cleanup
// closes the subscription.
func newLiveModel(store *live.Store, ev *events) func(context.Context, Session) (tea.Model, func(), error) {
	return func(_ context.Context, s Session) (tea.Model, func(), error) {
		sub := store.Subscribe()
		sub.Watch("x")
		m := &liveModel{user: s.User, store: store, sub: sub, data: live.Get(store, xKey).Data}
		return m, func() { sub.Close(); ev.send(event{user: s.User, kind: "cleanup"}) }, nil
	}
}

// startCountingStore starts a store with one topic, "x", polled hourly (so
// only Refresh polls it again), whose data names the fetch that made it:
// "[fetch n]". fetches counts them.
func startCountingStore(t *testing.T) (store *live.Store, fetches *atomic.Int64) {
	t.Helper()
	fetches = new(atomic.Int64)
	store = live.New(live.Options{Feeds: []live.Feed{live.ValueFeed(xKey,
		func(context.Context) (string, error) { return fmt.Sprintf("[fetch %d]", fetches.Add(1)), nil },
		live.FeedOptions[string, string]{Interval: time.Hour})}})
	ctx, cancel := context.WithCancel(context.Background())
	store.Start(ctx)
	t.Cleanup(func() { store.Close(); cancel() })
	return store, fetches
}

func TestSessionsShareOneLiveStorePoll(t *testing.T) {
	store, fetches := startCountingStore(t)

	alice, bob := newTestKey(t, "alice"), newTestKey(t, "bob")
	ev := newEvents()
	ts := startServer(t, []string{alice.line, bob.line}, Options{NewModel: newLiveModel(store, ev)})

	a := ts.openTerm(t, "alice", alice, "xterm")
	a.waitFor(t, "alice sees [fetch 1]")
	one := fetches.Load() // what one session costs the platform

	b := ts.openTerm(t, "bob", bob, "xterm")
	b.waitFor(t, "bob sees [fetch 1]")
	if n := fetches.Load(); n != one {
		t.Fatalf("two sessions fetched %d times, one session %d", n, one)
	}
	if store.Subscribers() != 2 {
		t.Fatalf("store has %d subscribers, want 2", store.Subscribers())
	}

	// The next poll reaches both sessions and is one fetch.
	store.Refresh("x")
	next := fmt.Sprintf("[fetch %d]", one+1)
	a.waitFor(t, "alice sees "+next)
	b.waitFor(t, "bob sees "+next)
	if n := fetches.Load(); n != one+1 {
		t.Fatalf("one refresh for two sessions fetched %d times", n-one)
	}

	// Leaving frees the subscription at once.
	a.client.Close()
	ev.next(t, "alice", "cleanup")
	if store.Subscribers() != 1 {
		t.Errorf("store has %d subscribers after alice left, want 1", store.Subscribers())
	}
	b.client.Close()
	ev.next(t, "bob", "cleanup")
	if store.Subscribers() != 0 {
		t.Errorf("store has %d subscribers after both left, want 0", store.Subscribers())
	}
}

// TestTwentySessionsCostThePlatformOneSession is the aim: the
// platform's request rate with 20 sessions open equals that with one.
func TestTwentySessionsCostThePlatformOneSession(t *testing.T) {
	store, fetches := startCountingStore(t)
	k := newTestKey(t, "all")
	ts := startServer(t, []string{k.line}, Options{MaxSessions: 20, NewModel: newLiveModel(store, newEvents())})

	first := ts.openTerm(t, "u0", k, "xterm")
	first.waitFor(t, "u0 sees [fetch 1]")
	one := fetches.Load()
	terms := []*term{first}
	for i := 1; i < 20; i++ {
		user := fmt.Sprintf("u%d", i)
		tm := ts.openTerm(t, user, k, "xterm")
		tm.waitFor(t, user+" sees [fetch 1]")
		terms = append(terms, tm)
	}
	// Three more polls, each seen by all twenty sessions.
	for poll := one + 1; poll <= one+3; poll++ {
		store.Refresh("x")
		for i, tm := range terms {
			tm.waitFor(t, fmt.Sprintf("u%d sees [fetch %d]", i, poll))
		}
	}
	if n := fetches.Load(); n != one+3 {
		t.Fatalf("20 sessions and 3 polls fetched %d times; one session fetches %d then 1 per poll", n, one)
	}
}

// xKey is the test store's one topic.
var xKey = live.KeyOf[string]("x")
