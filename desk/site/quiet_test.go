package site

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"treasury/desk/audit"
	"treasury/desk/live"
	"treasury/wire/webhook"
)

// quietWindow is how long the site at rest is measured.
const quietWindow = 20 * time.Second

// TestASiteAtRestIsQuiet: three nodes, each doing what a treasury serve
// does with its site (its record's copy and writer's beat, the
// notifications followed, the settings watched, the polling's lease,
// the site's health read every few seconds), while the poller publishes
// a steady flow of data. The bytes the nodes' routes carry over the
// window are within twice what the data alone costs between them (each
// message published reaches the two other nodes once). A consumer made
// and dropped per wait (what FollowEvents did: 2-2.5 a second per node)
// is replicated, and costs several times the data.
func TestASiteAtRestIsQuiet(t *testing.T) {
	if testing.Short() {
		t.Skip("measures a site at rest for 20 s")
	}
	sites := startSite(t, 3)
	pollings := make([]*Polling, 3)
	for i, s := range sites {
		serveLike(t, s, i == 0)
		p, err := s.SharePolls(live.New(live.Options{}), true)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(p.Stop)
		pollings[i] = p
	}
	// One notification makes the notifications' stream, as the first
	// posted to a bastion would.
	if err := sites[1].ShareEvents([]webhook.Event{{ID: "evt-1", EventType: "payment.updated"}}); err != nil {
		t.Fatal(err)
	}
	var poller *Polling
	for deadline := time.Now().Add(20 * time.Second); poller == nil; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("nobody took the lease")
		}
		for _, p := range pollings {
			if p.Poller().Here {
				poller = p
			}
		}
	}
	time.Sleep(8 * time.Second) // the start's settling: streams made, watches begun

	stop := make(chan struct{})
	done := make(chan struct{})
	// A quote a quarter second, about 1.1 KB each: the 9 KB/s between
	// three nodes that the data of serves at rest came to (issue 48).
	go func() {
		defer close(done)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-time.After(250 * time.Millisecond):
			}
			poller.Publish("quotes", live.Polled{Data: quotes(i), At: time.Now()})
		}
	}()
	before, data0 := traffic(t, sites), poller.Stats().Bytes
	time.Sleep(quietWindow)
	after, data1 := traffic(t, sites), poller.Stats().Bytes
	close(stop)
	<-done

	routes := after - before
	data := 2 * (data1 - data0) // each message reaches the two other nodes
	t.Logf("over %s at rest: routes carried %d B (%.1f KB/s), the data published %d B once, %d B to the two other nodes (%.1f KB/s): %.2fx",
		quietWindow, routes, float64(routes)/quietWindow.Seconds()/1024, data/2, data, float64(data)/quietWindow.Seconds()/1024,
		float64(routes)/float64(data))
	if data == 0 {
		t.Fatal("the poller published nothing")
	}
	if routes > 2*data {
		t.Fatalf("the routes carried %d B for %d B of data: want within twice", routes, data)
	}
}

// serveLike has s do what a treasury serve does with its site at rest:
// its audit log a copy of the record (the writer's beat, pulled when the
// record grows), the notifications and the platform's past followed, the
// alert settings watched,
// the site's health read every few seconds (process's site watch). first
// appends a line, which forms the site.
func serveLike(t *testing.T, s *Site, first bool) {
	t.Helper()
	l, err := audit.Open(t.TempDir(), audit.Options{Host: s.Node(), Replica: s.Record()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	if first {
		appendWhenReady(t, l, attempt("w0"))
	}
	stop, err := s.Record().Watch(func() { _ = l.Pull() })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	t.Cleanup(s.FollowEvents(func([]webhook.Event) {}))
	t.Cleanup(s.FollowPast(func([]byte) {}))
	stopSettings, err := s.WatchSettings("alerts", func(string, []byte, uint64) {})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stopSettings)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	t.Cleanup(func() { cancel(); <-done })
	go func() {
		defer close(done)
		for ctx.Err() == nil {
			wctx, c := context.WithTimeout(ctx, 3*time.Second)
			s.Weak(wctx)
			c()
			select {
			case <-ctx.Done():
			case <-time.After(5 * time.Second):
			}
		}
	}()
}

// traffic is the bytes every node's routes sent so far (each byte
// between two nodes counted once, by its sender).
func traffic(t *testing.T, sites []*Site) uint64 {
	t.Helper()
	var out uint64
	for _, s := range sites {
		tr, ok := s.Traffic()
		if !ok {
			t.Fatalf("%s runs no node", s.Node())
		}
		out += tr.Out
	}
	return out
}

// quotes is a poll's answer of about 1.1 KB, different each time.
func quotes(i int) json.RawMessage {
	type quote struct {
		Pair     string `json:"pair"`
		Bid, Ask string
		At       string `json:"at"`
	}
	var qs []quote
	for _, p := range []string{"BTC/USD", "ETH/USD", "BTC/EUR", "ETH/EUR", "USDC/USD", "SOL/USD", "BTC/GBP", "ETH/GBP", "USDT/USD", "XRP/USD", "LTC/USD", "DOGE/USD"} {
		qs = append(qs, quote{Pair: p, Bid: fmt.Sprintf("%d.%02d", 60000+rand.IntN(1000), i%100),
			Ask: fmt.Sprintf("%d.%02d", 60100+rand.IntN(1000), i%100), At: time.Now().UTC().Format(time.RFC3339Nano)})
	}
	b, _ := json.Marshal(map[string]any{"quotes": qs, "seq": i})
	return b
}
