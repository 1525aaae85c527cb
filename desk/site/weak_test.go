package site

import (
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"treasury/desk/audit"
	"treasury/kit/fulldisk"
)

// weakWithin waits up to d for s's weaknesses to satisfy ok, and returns
// the last read.
func weakWithin(t *testing.T, s *Site, d time.Duration, what string, ok func([]Weakness) bool) []Weakness {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		w := s.Weak(ctx)
		cancel()
		if ok(w) {
			return w
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: within %s, %s says %+v", what, d, s.Node(), w)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func titled(ws []Weakness, parts ...string) bool {
	for _, w := range ws {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(w.Title, p)
		}
		if all {
			return true
		}
	}
	return false
}

// TestAFullDiskMakesTheSiteWeak: a node whose disk fills turns its
// JetStream off and falls behind the record; every node says so within
// 15 s, naming it and what the site can no longer lose. Once space
// returns, the node turns JetStream on again, catches up, and the site
// is whole again on every node.
func TestAFullDiskMakesTheSiteWeak(t *testing.T) {
	disk, err := fulldisk.Mount(t.TempDir(), 8<<20)
	if err != nil {
		t.Skipf("no tmpfs to fill: %v", err)
	}
	t.Cleanup(func() { disk.Unmount() })
	sites := startSiteWith(t, 3, func(i int, o *Options) {
		if i == 2 {
			o.StoreDir = filepath.Join(disk.Dir, "nats")
		}
	})
	l, err := audit.Open(t.TempDir(), audit.Options{Host: sites[0].Node(), Replica: sites[0].Record()})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	appendWhenReady(t, l, attempt("w0"))
	for _, s := range sites {
		weakWithin(t, s, 20*time.Second, "whole at first", func(w []Weakness) bool { return len(w) == 0 })
	}
	if err := disk.Fill(); err != nil {
		t.Fatal(err)
	}
	full := time.Now()
	for i := range 16 { // the full node may have led the record: the others elect another
		appendWhenReady(t, l, attempt(string(rune('a'+i))))
	}
	for _, s := range sites {
		weakWithin(t, s, 15*time.Second-time.Since(full), "the full node named", func(w []Weakness) bool {
			return titled(w, "bastion-2 JetStream off: out of disk space", "the site cannot lose another node")
		})
	}
	t.Logf("named on every node %s after the disk filled", time.Since(full).Round(100*time.Millisecond))
	if err := disk.Free(); err != nil {
		t.Fatal(err)
	}
	for _, s := range sites {
		weakWithin(t, s, 30*time.Second, "whole again once caught up", func(w []Weakness) bool { return len(w) == 0 })
	}
	h, err := sites[0].Health(context.Background())
	if err != nil || h.Lag() != 0 || !h.Healthy() {
		t.Fatalf("the record after: %+v %v", h, err)
	}
}

// TestAWrongPasswordIsSaidAsSuch: a node given another password than the
// site's forms nothing: it says the site is forming and that it is
// refused for its credentials (authorization); the nodes that reach one
// another name its address; and their logs say the refusals at a bounded
// rate, with a count, not once per try.
func TestAWrongPasswordIsSaidAsSuch(t *testing.T) {
	logs := make([]*syncBuffer, 3)
	sites := startSiteWith(t, 3, func(i int, o *Options) {
		logs[i] = &syncBuffer{}
		o.Log = slog.New(slog.NewTextHandler(logs[i], nil))
		if i == 2 {
			o.Password = "wrong"
		}
	})
	weakWithin(t, sites[2], 15*time.Second, "the odd node refused", func(w []Weakness) bool {
		return titled(w, "bastion-2 is refused by the site for its credentials (authorization)") && titled(w, "The site is forming")
	})
	for _, s := range sites[:2] {
		weakWithin(t, s, 15*time.Second, "the odd node's address named", func(w []Weakness) bool {
			return titled(w, "The node at "+sites[2].opts.ClusterListen+" is refused for its credentials (authorization) by bastion-0, bastion-1")
		})
	}
	time.Sleep(5 * time.Second)
	for i, l := range logs {
		if n := strings.Count(l.String(), "authentication error"); n < 1 || n > 2 {
			t.Errorf("bastion-%d logged %d authentication errors in %s:\n%s", i, n, "seconds", l.String())
		}
	}
}
