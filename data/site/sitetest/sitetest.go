// Package sitetest starts NATS nodes of a site for tests: free loopback
// addresses, and one-node sites closed when the test ends.
package sitetest

import (
	"net"
	"path/filepath"
	"testing"

	"treasury/config"
	"treasury/data/site"
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
