package serve

import (
	"context"
	"slices"
	"sync/atomic"
	"time"

	"treasury/process"
	"treasury/wire/apierr"
)

// pulse is how the store answers, known without asking it at each probe:
// one goroutine asks it every pulseEvery (its lock taken, and which
// interfaces have no data yet) and notes when each ask began and what it
// answered. /healthz, /readyz, /metrics and systemd's watchdog read what
// it noted: a probe starts no work, so any number of probes of a store
// stuck on its lock leave nothing behind (one ask is under way, the
// pulse's own, however many probes came).
type pulse struct {
	ask func() []apierr.Interface
	// asking is when the ask under way began (UnixNano), 0 between asks.
	asking atomic.Int64
	// unread is the last ask's answer: the interfaces with no data yet.
	unread atomic.Pointer[[]apierr.Interface]
}

// pulseEvery is how often the pulse asks the store: well within
// probeTimeout and the shortest watchdog interval systemd is given.
const pulseEvery = 250 * time.Millisecond

// startPulse asks rt's store once now, then every pulseEvery until ctx
// ends.
func startPulse(ctx context.Context, rt *process.Runtime) *pulse {
	return startPulseOf(ctx, func() []apierr.Interface {
		rt.Platform.Store.Seq() // the store's lock, whatever the profile reads
		return rt.Platform.Unread()
	})
}

func startPulseOf(ctx context.Context, ask func() []apierr.Interface) *pulse {
	p := &pulse{ask: ask}
	p.beat()
	go func() {
		t := time.NewTicker(pulseEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				p.beat()
			}
		}
	}()
	return p
}

// beat asks the store once, noting when it began until it answers.
func (p *pulse) beat() {
	p.asking.Store(time.Now().UnixNano())
	un := slices.Clip(p.ask())
	p.unread.Store(&un)
	p.asking.Store(0)
}

// stalled is how long the store has not answered: how long the ask
// under way has waited (0 between asks).
func (p *pulse) stalled() time.Duration {
	at := p.asking.Load()
	if at == 0 {
		return 0
	}
	return max(0, time.Since(time.Unix(0, at)))
}

// stuck says the store has not answered for longer than d.
func (p *pulse) stuck(d time.Duration) bool { return p.stalled() > d }

// unreadNow is the interfaces that had no data yet at the last answer.
func (p *pulse) unreadNow() []apierr.Interface {
	if un := p.unread.Load(); un != nil {
		return *un
	}
	return nil
}
