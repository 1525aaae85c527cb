package table

import "slices"

// slotArray holds a version's rows by slot in chunks, so that a version
// shares with the one before it every chunk that did not change: a poll
// that changes one row of 100,000 copies the chunk index and one chunk of
// 1,024, not 800 KB of pointers (whose copying, and collecting, was most
// of the cost of a change).
type slotArray struct {
	chunks [][]*Row
	n      int
	own    map[int]bool // chunks this version may write, while it is built
}

const (
	chunkBits = 10
	chunkSize = 1 << chunkBits
)

// next is a copy to build the next version from: it shares every chunk
// until it writes one.
func (a *slotArray) next() slotArray {
	return slotArray{chunks: slices.Clone(a.chunks), n: a.n, own: map[int]bool{}}
}

func (a *slotArray) len() int { return a.n }

func (a *slotArray) get(s int32) *Row {
	if s < 0 || int(s) >= a.n {
		return nil
	}
	return a.chunks[s>>chunkBits][s&(chunkSize-1)]
}

// set puts r in slot s, copying its chunk first if another version shares
// it.
func (a *slotArray) set(s int32, r *Row) {
	c := int(s >> chunkBits)
	a.write(c)
	a.chunks[c][s&(chunkSize-1)] = r
}

// write makes chunk c this version's own.
func (a *slotArray) write(c int) {
	if a.own[c] {
		return
	}
	fresh := make([]*Row, len(a.chunks[c]), chunkSize)
	copy(fresh, a.chunks[c])
	a.chunks[c] = fresh
	a.own[c] = true
}

// grow adds a free slot and returns it.
func (a *slotArray) grow() int32 {
	s := int32(a.n)
	c := a.n >> chunkBits
	if c == len(a.chunks) {
		a.chunks = append(a.chunks, make([]*Row, 0, chunkSize))
		a.own[c] = true
	} else {
		a.write(c)
	}
	a.chunks[c] = append(a.chunks[c], nil)
	a.n++
	return s
}

// each calls f with every slot and its row (nil when free).
func (a *slotArray) each(f func(s int32, r *Row)) {
	for c, ch := range a.chunks {
		for i, r := range ch {
			f(int32(c<<chunkBits+i), r)
		}
	}
}

// done ends the building of the version: it writes no more.
func (a *slotArray) done() { a.own = nil }
