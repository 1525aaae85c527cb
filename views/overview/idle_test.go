package overview

import (
	"testing"
	"time"

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
	e := viewtest.New(t, viewtest.Options{})
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
		v.frame = frame{}
		if want := v.Render(w, h); got != want {
			t.Fatalf("%d s on, the overview kept a frame that is not the one it draws now:\n%s\nnow\n%s", i, got, want)
		}
	}
	if draws > secs/3 {
		t.Errorf("over %d idle seconds the overview drew %d frames", secs, draws)
	}
	t.Logf("%d frames drawn in %d idle seconds", draws, secs)
}
