// Package sitetest starts NATS nodes of a site for tests: free loopback
// addresses, and one-node sites closed when the test ends.
package sitetest

import (
	"fmt"
	"net"
	"path/filepath"
	"testing"
	"time"

	"treasury/config"
	"treasury/desk/live"
	"treasury/desk/site"
)

// Password is what the test sites authenticate with.
const Password = "site-secret"

// FreeAddrs returns n loopback addresses nothing listens on now.
func FreeAddrs(tb testing.TB, n int) []string {
	tb.Helper()
	out := make([]string, n)
	ls := make([]net.Listener, n)
	for i := range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			tb.Fatal(err)
		}
		ls[i], out[i] = l, l.Addr().String()
	}
	for _, l := range ls {
		l.Close()
	}
	return out
}

// NodeAt starts a one-node site named name, its node listening on addr
// (as treasury serve runs it), closed when the test ends.
func NodeAt(tb testing.TB, name, addr string) *site.Site {
	tb.Helper()
	s, err := site.Start(site.Options{Name: name, Node: name, Listen: addr, User: config.DefaultClusterUser, Password: Password,
		Replicas: 1, StoreDir: filepath.Join(tb.TempDir(), "nats")})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(s.Close)
	return s
}

// Node starts a one-node site on a free address.
func Node(tb testing.TB, name string) *site.Site {
	tb.Helper()
	return NodeAt(tb, name, FreeAddrs(tb, 1)[0])
}

// Poller joins a store of nothing to s's polling as a process that
// competes for the lease, and waits (up to 20 s) until it holds it; it
// leaves when the test ends.
func Poller(tb testing.TB, s *site.Site) *site.Polling {
	tb.Helper()
	p, err := s.SharePolls(live.New(live.Options{}), true)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(p.Stop)
	deadline := time.Now().Add(20 * time.Second)
	for !p.Poller().Here {
		if time.Now().After(deadline) {
			tb.Fatal("the lease was never taken")
		}
		time.Sleep(20 * time.Millisecond)
	}
	return p
}

// Nodes starts a site of n embedded nodes routed to one another (each
// as treasury serve runs it, named node-0, node-1, …, Replicas 3 or n),
// each with its options changed by set; they close when the test ends.
func Nodes(tb testing.TB, n int, set func(i int, o *site.Options)) []*site.Site {
	tb.Helper()
	addrs := FreeAddrs(tb, 2*n)
	clients, routes := addrs[:n], addrs[n:]
	out := make([]*site.Site, n)
	errs := make(chan error, n)
	for i := range n {
		var others []string
		for j, r := range routes {
			if j != i {
				others = append(others, r)
			}
		}
		o := site.Options{Name: "test-site", Node: fmt.Sprint("node-", i), Listen: clients[i], ClusterListen: routes[i], Routes: others,
			User: config.DefaultClusterUser, Password: Password, Replicas: min(n, 3), StoreDir: filepath.Join(tb.TempDir(), "nats")}
		set(i, &o)
		go func() {
			s, err := site.Start(o)
			out[i] = s
			errs <- err
		}()
	}
	var err error
	for range n {
		if e := <-errs; e != nil {
			err = e
		}
	}
	for _, s := range out {
		if s != nil {
			tb.Cleanup(s.Close)
		}
	}
	if err != nil {
		tb.Fatal(err)
	}
	return out
}
