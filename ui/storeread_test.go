package ui

import (
	"context"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"treasury/desk/live"
	"treasury/wire/apierr"
)

// readsView is a view watching one topic that counts the store changes
// it is given.
type readsView struct {
	listView
	topic live.Topic
	reads int
}

func (v *readsView) Topics() []live.Topic { return []live.Topic{v.topic} }
func (v *readsView) Update(msg tea.Msg) tea.Cmd {
	if _, ok := msg.(StoreChanged); ok {
		v.reads++
	}
	return v.listView.Update(msg)
}

// TestNewVersionsAreReadWithTheTick: news from the store (a first
// answer) comes as a message of its own, read at once; a new version of
// data the session has does not: it is read by the next tick, in the
// frame the tick draws anyway.
func TestNewVersionsAreReadWithTheTick(t *testing.T) {
	k := live.KeyOf[int]("n")
	n := 0
	st := live.New(live.Options{Inline: true, Feeds: []live.Feed{live.ValueFeed(k,
		func(context.Context) (int, error) { n++; return n, nil },
		live.FeedOptions[int, int]{Interface: apierr.Liquidity, Interval: time.Hour})}})
	ctx := testContext("test", false)
	ctx.Store = st
	v := &readsView{listView: listView{name: "numbers", rows: []string{"1"}}, topic: k.Topic()}
	app := NewApp(ctx, v)
	app.Init()
	defer app.Close()

	wait := app.waitStore()
	st.FetchNow(context.Background(), k.Topic()) // the first answer: news
	if msg := wait(); msg != (StoreChanged{}) {
		t.Fatalf("the first answer came as %#v", msg)
	}
	app.Update(StoreChanged{})
	if v.reads != 1 {
		t.Fatalf("the first answer was read %d times", v.reads)
	}

	got := make(chan tea.Msg, 1)
	wait = app.waitStore()
	go func() { got <- wait() }()
	st.FetchNow(context.Background(), k.Topic()) // a new version: routine
	for deadline := time.Now().Add(5 * time.Second); !app.routine.Load(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the new version was not noted for the tick")
		}
	}
	select {
	case msg := <-got:
		t.Fatalf("the new version came as a message of its own: %#v", msg)
	default:
	}
	app.Update(Tick{Now: time.Now()})
	if v.reads != 2 || app.routine.Load() {
		t.Fatalf("after the tick: %d reads, still pending %v", v.reads, app.routine.Load())
	}
	app.Update(Tick{Now: time.Now()})
	if v.reads != 2 {
		t.Fatalf("a tick with nothing new read the store: %d reads", v.reads)
	}
}

// TestFirstNewsIsNotHeldBack: the store's first news waits only to
// settle (the rows built from a topic land just after it), and so does
// news while the view still waits for some of its data (each first
// answer shows as it comes); later news waits for storeGap counted from
// the news read before it, the previous frame, not from when the session
// started waiting.
func TestFirstNewsIsNotHeldBack(t *testing.T) {
	now := time.Date(2026, 12, 7, 10, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name string
		last time.Time
		want time.Duration
	}{
		{"first news", time.Time{}, storeSettle},
		{"just after a frame", now.Add(-100 * time.Millisecond), storeGap - 100*time.Millisecond},
		{"long after a frame", now.Add(-time.Minute), storeSettle},
		{"near the gap's end", now.Add(-storeGap + 10*time.Millisecond), storeSettle},
	} {
		if got := newsWait(c.last, now, false); got != c.want {
			t.Errorf("%s: waits %v, want %v", c.name, got, c.want)
		}
	}
	if got := newsWait(now.Add(-100*time.Millisecond), now, true); got != storeSettle {
		t.Errorf("while the view waits for its data, news waits %v, want only to settle", got)
	}
	ctx := testContext("test", false)
	app := NewApp(ctx, &listView{name: "numbers"})
	if !app.newsRead.IsZero() {
		t.Fatal("a new session has read news")
	}
	app.Update(StoreChanged{})
	if app.newsRead.IsZero() {
		t.Fatal("news read was not noted: the next would not wait for the gap")
	}
}
