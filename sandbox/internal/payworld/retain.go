package payworld

import "treasury/sandbox/internal/simkit"

// Size is how much the world holds: payments (those pruned from the span
// but still moving included), ids indexed and ledger entries.
type Size struct {
	Payments      int `json:"payments"`
	IDs           int `json:"ids"`
	LedgerEntries int `json:"ledger_entries"`
}

// Size reports how much the world holds, brought up to the clock.
func (w *World) Size() Size {
	w.Advance()
	w.mu.RLock()
	defer w.mu.RUnlock()
	s := Size{Payments: len(w.pays) + len(w.held), IDs: len(w.byID)}
	for i := range w.accounts {
		s.LedgerEntries += len(w.accounts[i].entries)
	}
	return s
}

// keepFrom is the unix ms from which the world keeps payments and ledger
// entries at unix ms t, and whether it prunes at all (Options.Retain).
func (w *World) keepFrom(t int64) (int64, bool) {
	from, ok := simkit.KeepFrom(w.retain, ms(t))
	return from.UnixMilli(), ok
}

// prune drops, once every simkit.PruneEvery of sandbox time, the payments created
// and the ledger entries booked before keepFrom: nothing any answer about
// the kept span needs (a ledger window, a search or a report inside it
// reads the same; a search reaching further back finds what is kept). A
// payment created before that is still moving (a return due days after
// its completion) moves on in held until it settles, and can be looked
// up by id until then. Each account keeps its last entry, its balance.
// The slices are compacted only once an eighth of them is due, so a
// prune costs, over time, a constant per payment. w.mu must be held.
func (w *World) prune() {
	if w.processed < w.nextPrune {
		return
	}
	w.nextPrune = w.processed + simkit.PruneEvery.Milliseconds()
	from, ok := w.keepFrom(w.processed)
	if !ok {
		return
	}
	for seq, p := range w.held {
		if w.settled(p) {
			delete(w.held, seq)
			w.unindex(seq)
		}
	}
	k := 0 // pays[:k] are created before from
	for k < len(w.pays) && w.base+k < w.nextArrival && w.pays[k].created < from {
		k++
	}
	if k > 0 && k >= len(w.pays)/8 {
		for i := range k {
			seq := uint32(w.base + i)
			if p := &w.pays[i]; !w.settled(p) {
				c := *p
				w.held[seq] = &c
				continue
			}
			w.unindex(seq)
		}
		w.pays = compact(w.pays, k)
		w.base += k
	}
	for i := range w.accounts {
		a := &w.accounts[i]
		n := 0 // entries[:n] are booked before from; the last one stays
		for n < len(a.entries)-1 && a.entries[n].at < from {
			n++
		}
		if n > 0 && n >= len(a.entries)/8 {
			a.entries = compact(a.entries, n)
		}
	}
}

// settled reports whether p has entered its last state.
func (w *World) settled(p *pay) bool {
	s, n := p.steps()
	return s[n-1].at <= w.processed
}

// unindex forgets the ids of payment seq. w.mu must be held.
func (w *World) unindex(seq uint32) {
	k := idIndexKey(w.seed, w.kPay, seq)
	if w.byID[k] == seq {
		delete(w.byID, k)
	}
	if c := w.created[seq]; c != nil {
		if c.internalID != "" && w.byInternal[c.internalID] == seq {
			delete(w.byInternal, c.internalID)
		}
		delete(w.created, seq)
	}
}

// compact drops s[:k] in place, or into a smaller array when s would use
// less than a quarter of its own (a world retained shorter than before).
func compact[T any](s []T, k int) []T {
	n := len(s) - k
	if cap(s) > 4*n+1024 {
		return append(make([]T, 0, n+n/4+64), s[k:]...)
	}
	copy(s, s[k:])
	return s[:n]
}
