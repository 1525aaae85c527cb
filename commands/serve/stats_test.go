package serve

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"treasury/desk/live"
	"treasury/desk/site/sitetest"
	"treasury/process"
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

// TestSiteStatsSayTheRole: a node of a site logs its record's state and
// its role in the site's polling, and what it published for the site.
func TestSiteStatsSayTheRole(t *testing.T) {
	if got := siteStats(context.Background(), &process.Runtime{}); got != nil {
		t.Fatalf("no site: %v", got)
	}
	node := sitetest.Node(t, "bastion-a")
	polls := sitetest.Poller(t, node)
	polls.Publish(live.Quotes, live.Polled{Same: true})
	got := fmt.Sprint(siteStats(context.Background(), &process.Runtime{Site: node, Polling: polls}))
	for _, want := range []string{"site_node bastion-a", "site_record_leader bastion-a", "site_role polls", "site_poller bastion-a",
		"site_published_msgs 1", "site_publish_dropped 0"} {
		if !strings.Contains(got, want) {
			t.Errorf("stats %s: want %q", got, want)
		}
	}
}
