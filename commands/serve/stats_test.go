package serve

import (
	"runtime"
	"testing"
)

// TestHeapFloorIsTheLeastSeen: the floor is the least live heap the
// collections found over the interval, the live heap what is live at the
// end: 64 MB let go before the end count in neither; 64 MB taken after
// the floor was seen count in the live heap only.
func TestHeapFloorIsTheLeastSeen(t *testing.T) {
	var h heapFloor
	const big = 64 << 20
	held := make([]byte, big)
	runtime.GC()
	high := h.look()
	runtime.KeepAlive(held)
	held = nil
	live, floor := h.take()
	if high < big || live >= high-big/2 || floor != live {
		t.Fatalf("with 64 MB held %d, let go: live %d, floor %d", high, live, floor)
	}
	runtime.GC()
	low := h.look()
	held = make([]byte, big)
	live, floor = h.take()
	runtime.KeepAlive(held)
	if floor != low || live < low+big/2 {
		t.Fatalf("floor %d (seen %d), live %d with 64 MB taken since", floor, low, live)
	}
}
