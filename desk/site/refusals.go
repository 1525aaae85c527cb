package site

import (
	"sort"
	"strings"
	"sync"
	"time"
)

// refusals are the connections this node refused, or was refused by,
// for their credentials (a password, a certificate) lately: what its
// log says of each, as the site's health reads it.
type refusals struct {
	mu   sync.Mutex
	seen map[refusalKey]*Refusal
}

type refusalKey struct {
	addr string
	kind string
	ours bool
}

// Refusal is a peer refused for its credentials, or that refused this
// node's.
type Refusal struct {
	// Addr is the peer's address: a route's (this node's route refused)
	// or the host a connection came from (this node refused it).
	Addr string `json:"addr"`
	// Route says it is a route (another node); otherwise a client.
	Route bool `json:"route,omitempty"`
	// Ours says the peer refused this node's credentials; otherwise this
	// node refused the peer's.
	Ours bool `json:"ours,omitempty"`
	// Why is authorization (a password) or certificate (TLS).
	Why   string    `json:"why"`
	Count int       `json:"count"`
	Last  time.Time `json:"last"`
}

// refusalFresh is how long a refusal is news: a peer refused every
// second is refused now; one refused once a while ago is not.
const refusalFresh = 30 * time.Second

// note takes one message of the node (key: what it says, without the
// connection; peer: the connection's address; kind: rid a route, cid a
// client) and keeps it when it is a refusal of credentials.
func (r *refusals) note(key, peer, kind string) {
	if peer == "" || kind != "rid" && kind != "cid" {
		return
	}
	var why string
	ours := false
	switch {
	case strings.Contains(key, "authentication error"):
		why = "authorization"
	case strings.Contains(key, "Authorization Violation"):
		why, ours = "authorization", true
	case strings.Contains(key, "TLS") && strings.Contains(key, "handshake error"):
		why = "certificate"
		// The peer said it refused ours ("remote error: tls: bad
		// certificate"), or this node refused the peer's.
		ours = strings.Contains(key, "remote error")
	default:
		return
	}
	addr := peer
	if !ours {
		// A connection that came to this node: its port is the peer's
		// own for this try; the host is what names it.
		if i := strings.LastIndexByte(peer, ':'); i > 0 {
			addr = strings.Trim(peer[:i], "[]")
		}
	}
	k := refusalKey{addr: addr, kind: kind, ours: ours}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.seen == nil {
		r.seen = map[refusalKey]*Refusal{}
	}
	f := r.seen[k]
	if f == nil {
		f = &Refusal{Addr: addr, Route: kind == "rid", Ours: ours}
		r.seen[k] = f
	}
	f.Why, f.Last = why, time.Now()
	f.Count++
}

// fresh lists the refusals of the last refusalFresh, and forgets those
// older; counts are since each was first seen lately.
func (r *refusals) fresh() []Refusal {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Refusal
	for k, f := range r.seen {
		if time.Since(f.Last) > refusalFresh {
			delete(r.seen, k)
			continue
		}
		out = append(out, *f)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Addr != out[j].Addr {
			return out[i].Addr < out[j].Addr
		}
		return !out[i].Ours && out[j].Ours
	})
	return out
}
