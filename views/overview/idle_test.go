package overview

import (
	"context"
	"testing"
	"time"

	"treasury/desk/live"
	"treasury/kit/keep"
	"treasury/ui"
	"treasury/views/viewtest"
)

// TestIdleOverviewDrawsWhenItChanges: an overview whose store does not
// change draws its frame again only when one of its ages or stale marks
// changes, not at every second, and the frame it keeps is the one it
// would draw: second by second over three minutes (ages under a minute
// stepping by ten seconds, then by the minute; the sources turning
// stale; the mids turning stale at two minutes), the frame shown is the
// frame drawn anew.
func TestIdleOverviewDrawsWhenItChanges(t *testing.T) {
	e := viewtest.New(t, viewtest.Options{Skip: []live.Topic{live.Trades}}) // the overview shows no trade
	v := New(e.Ctx, Options{Base: "USD", Runway: e.P.Runway})
	v.Update(ui.StoreChanged{})
	const w, h, secs = 120, 40, 180
	v.Render(w, h)
	draws := 0
	for i := 1; i <= secs; i++ {
		e.Sandbox.AdvanceClock(time.Second)
		before := v.frame.at
		got := v.Render(w, h)
		if v.frame.at != before {
			draws++
		}
		v.frame, v.panels = frame{}, nil
		if want := v.Render(w, h); got != want {
			t.Fatalf("%d s on, the overview kept a frame that is not the one it draws now:\n%s\nnow\n%s", i, got, want)
		}
	}
	if draws > secs/3 {
		t.Errorf("over %d idle seconds the overview drew %d frames", secs, draws)
	}
	t.Logf("%d frames drawn in %d idle seconds", draws, secs)
}

// TestOverviewPanelsFollowTheStore: a panel is drawn again when what it
// read changed, and kept otherwise: as the topics are read one at a time
// (each a store change, as polls come), second by second, at 120 and 80
// columns, the frame shown is the frame drawn anew, and the panels kept
// spare most drawings.
func TestOverviewPanelsFollowTheStore(t *testing.T) {
	e := viewtest.New(t, viewtest.Options{Skip: []live.Topic{live.Trades}}) // the overview shows no trade
	v := New(e.Ctx, Options{Base: "USD", Runway: e.P.Runway})
	fresh := New(e.Ctx, Options{Base: "USD", Runway: e.P.Runway}) // drawn anew every time
	v.Update(ui.StoreChanged{})
	topics := e.P.Store.Topics()
	kept, drawn := 0, 0
	for i := 0; i < 3*len(topics); i++ {
		e.Sandbox.AdvanceClock(time.Second)
		e.P.Store.FetchNow(context.Background(), topics[i%len(topics)])
		e.P.Store.Sync()
		v.Update(ui.StoreChanged{})
		fresh.Update(ui.StoreChanged{})
		for _, w := range []int{120, 80} {
			n := v.panelsDrawn
			got := v.Render(w, 40)
			drawn += v.panelsDrawn - n
			kept += panelCount - (v.panelsDrawn - n)
			fresh.frame, fresh.panels = frame{}, nil
			if want := fresh.Render(w, 40); got != want {
				t.Fatalf("after reading %s, at %d columns, the overview kept panels that are not what it draws now:\n%s\nnow\n%s",
					topics[i%len(topics)], w, got, want)
			}
		}
	}
	if kept < drawn {
		t.Errorf("%d panels kept, %d drawn again, as the topics were read one at a time", kept, drawn)
	}
	t.Logf("%d panels kept, %d drawn", kept, drawn)
}

// TestOverviewPanelsAreDrawnOnceForEverySession: sessions of one process
// (one ui.Context.Kept) at one width draw each change of the panels that read
// only the store once between them: the second session draws only its
// own alerts and health, and shows what a session drawing alone does.
func TestOverviewPanelsAreDrawnOnceForEverySession(t *testing.T) {
	e := viewtest.New(t, viewtest.Options{Skip: []live.Topic{live.Trades}}) // the overview shows no trade
	shared := ui.NewKept()
	session := func(d *keep.Registry) *View {
		ctx := e.Ctx.Apart()
		ctx.Kept = d
		v := New(ctx, Options{Base: "USD", Runway: e.P.Runway})
		v.Update(ui.StoreChanged{})
		return v
	}
	a, b, alone := session(shared), session(shared), session(nil)
	topics := e.P.Store.Topics()
	for i := range topics {
		e.Sandbox.AdvanceClock(time.Second)
		e.P.Store.FetchNow(context.Background(), topics[i])
		e.P.Store.Sync()
		for _, v := range []*View{a, b, alone} {
			v.Update(ui.StoreChanged{})
		}
		for _, w := range []int{120, 80} {
			a.Render(w, 40)
			n := b.panelsDrawn
			got := b.Render(w, 40)
			if d := b.panelsDrawn - n; d > 2 {
				t.Fatalf("after reading %s, at %d columns, the second session drew %d panels", topics[i], w, d)
			}
			alone.frame, alone.panels = frame{}, nil
			if want := alone.Render(w, 40); got != want {
				t.Fatalf("after reading %s, at %d columns, the second session shows\n%s\nalone it draws\n%s", topics[i], w, got, want)
			}
		}
	}
}
