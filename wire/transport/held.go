package transport

import (
	"context"
	"sync"
)

// Held keeps the failures of the calls made with its context instead of
// reporting them (Config.OnCall) at once. A client that probes what a
// server accepts (a page size, the form of a path, a filter field) holds
// the failures of its probes: when another way then works, the server only
// told the client its choice, and the failures are dropped (they stay in
// the request log); when nothing works, they are released as the failures
// they are. Successes are reported at once.
type Held struct {
	mu     sync.Mutex
	report []func()
	parent *Held
}

type heldKey struct{}

// Hold returns a context whose failed calls are kept by the returned Held.
func Hold(ctx context.Context) (context.Context, *Held) {
	h := &Held{}
	h.parent, _ = ctx.Value(heldKey{}).(*Held)
	return context.WithValue(ctx, heldKey{}, h), h
}

// keep holds report when ctx has a Held; it reports whether it did.
func keep(ctx context.Context, report func()) bool {
	h, _ := ctx.Value(heldKey{}).(*Held)
	if h == nil {
		return false
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.report = append(h.report, report)
	return true
}

// Release reports the failures held (to an enclosing Held, if any).
func (h *Held) Release() {
	h.mu.Lock()
	rs := h.report
	h.report = nil
	h.mu.Unlock()
	for _, r := range rs {
		if h.parent != nil {
			h.parent.mu.Lock()
			h.parent.report = append(h.parent.report, r)
			h.parent.mu.Unlock()
			continue
		}
		r()
	}
}

// Drop forgets the failures held.
func (h *Held) Drop() {
	h.mu.Lock()
	h.report = nil
	h.mu.Unlock()
}

// Settle drops the failures held when err is nil (another way worked) and
// releases them otherwise.
func (h *Held) Settle(err error) {
	if err == nil {
		h.Drop()
		return
	}
	h.Release()
}
