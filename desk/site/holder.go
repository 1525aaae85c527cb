package site

import (
	"encoding/json"
	"time"

	"github.com/nats-io/nats.go"
)

// The lease moves only when its holder is gone. Its key lives in a
// replicated bucket whose leader may be on any node: when a follower's
// node dies or is cut off and it led the bucket, no put is taken until
// the site elects another leader (seconds: four to nine), the key's TTL
// can run out meanwhile, and the first process to put after the election
// would take the lease from a holder that never stopped. So the holder
// also says it is alive on core NATS at each beat (beatSubject, which
// needs no leader), and a process that heard another's beat within
// leaseTTL does not take the lease even when its key is gone; the
// holder puts the key again (a new take: its fence opens anew) once the
// bucket answers. A holder killed, stopped or cut off from the others
// beats no more: its lease runs out and is taken as before; one that
// leaves says so (Gone), and its lease is taken at the next beat.
const beatSubject = "treasury.poller.beat"

// beatFor bounds how long after the site last took one of its puts a
// holder still says it is alive: the bucket's leader elected meanwhile
// (four to nine seconds) and the key's TTL. A holder whose puts keep
// failing past it (its node cut off from the bucket's, or slow) says no
// more: a beat heard is not a lease, and while it went on the others
// would never take the lease, nobody polling (its fence shut).
const beatFor = leaseTTL + 9*time.Second

// holderBeat is a holder's word that it is alive, or (Gone) leaving.
type holderBeat struct {
	Proc string `json:"proc"`
	Node string `json:"node"`
	Gone bool   `json:"gone,omitempty"`
}

// beatsLocked reports whether this process says it holds the lease at
// this beat: it holds it, and the site took one of its puts within
// beatFor (a take whose answer was lost beats from its first put the
// site takes). p.mu is held.
func (p *Polling) beatsLocked(now time.Time) bool {
	return p.held != 0 && !p.renewed.IsZero() && now.Sub(p.renewed) < beatFor
}

// sayAlive publishes this process's beat while it holds the lease.
func (p *Polling) sayAlive(gone bool) {
	b, _ := json.Marshal(holderBeat{Proc: p.proc, Node: p.s.opts.Node, Gone: gone})
	_ = p.s.nc.Publish(beatSubject, b)
}

// heardBeat notes another process's beat.
func (p *Polling) heardBeat(msg *nats.Msg) {
	var hb holderBeat
	if json.Unmarshal(msg.Data, &hb) != nil || hb.Proc == p.proc {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case hb.Gone && hb.Proc == p.heard.Proc:
		p.heard, p.heardAt = lease{}, time.Time{}
	case !hb.Gone:
		p.heard, p.heardAt = lease{Node: hb.Node, Proc: hb.Proc}, time.Now()
	}
}

// holderAliveLocked reports whether another process said within leaseTTL
// that it holds the lease. p.mu is held.
func (p *Polling) holderAliveLocked() bool {
	return p.heard.Proc != "" && time.Since(p.heardAt) < leaseTTL
}
