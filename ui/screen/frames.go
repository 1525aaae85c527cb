package screen

import (
	"fmt"
	"hash/maphash"
	"slices"
	"sync"
)

// Frames is what the screens of a process share: the terminal states
// they are in and the bytes that take one state to the next. A state is
// a kind of terminal (size, colour profile, TERM) showing some lines,
// with the pen reset (the cursor anywhere: each draw starts with an
// absolute move). Screens in the same state that are shown the same lines
// (sessions at one size on one view: their frames change with the store
// and the clock's second, the same for all) write the same bytes, and
// only the first works them out; the others find them. A screen shown
// lines no other screen in its state was goes its own way at the cost
// of one draw (and, when another screen took the state's renderer, of
// rebuilding one for it).
//
// A state is kept while a screen is in it; a transition while a screen
// is in the state it leaves.
type Frames struct {
	seed maphash.Seed

	mu     sync.Mutex
	states map[stateKey]*state
	paints int // transitions worked out (not found)

	// beforePaint, when set (by tests), is called with the lines about
	// to be painted.
	beforePaint func(lines []string)
}

// NewFrames returns an empty set of shared states.
func NewFrames() *Frames {
	return &Frames{seed: maphash.MakeSeed(), states: map[stateKey]*state{}}
}

// stateKey finds a state: its kind and the hash of its lines (fresh for
// a screen to be erased, before its first frame).
type stateKey struct {
	kind
	sum   uint64
	fresh bool
}

// state is one state of a terminal.
type state struct {
	key   stateKey
	lines []string // nil when fresh
	users int      // screens in this state, under Frames.mu

	mu   sync.Mutex
	p    *painter // a painter of this state; nil once a transition took it
	next map[uint64]*transition
}

// transition is what takes a state to lines: the bytes, once done is
// closed, and the state they lead to; or why they could not be worked
// out.
type transition struct {
	lines []string
	done  chan struct{}
	out   []byte
	to    *state
	err   error
}

// sum is the hash of lines.
func (f *Frames) sum(lines []string) uint64 {
	var h maphash.Hash
	h.SetSeed(f.seed)
	for _, l := range lines {
		h.WriteString(l)
		h.WriteByte('\n')
	}
	return h.Sum64()
}

// fresh is the state of a terminal of kind k about to be erased, which a
// screen enters at its first frame and after a resize.
func (f *Frames) fresh(k kind) *state {
	return f.enter(stateKey{kind: k, fresh: true}, nil, nil)
}

// enter is the state of key with lines (the one kept, when its lines are
// these), one more screen in it; p, when the state has no painter, is
// given it.
func (f *Frames) enter(key stateKey, lines []string, p *painter) *state {
	f.mu.Lock()
	st := f.states[key]
	if st == nil || !slices.Equal(st.lines, lines) {
		st = &state{key: key, lines: lines}
		if f.states[key] == nil {
			f.states[key] = st
		}
	}
	st.users++
	f.mu.Unlock()
	if p != nil {
		st.mu.Lock()
		if st.p == nil {
			st.p = p
		}
		st.mu.Unlock()
	}
	return st
}

// join notes one more screen in st (reached by a transition another
// screen made).
func (f *Frames) join(st *state) {
	f.mu.Lock()
	st.users++
	if f.states[st.key] == nil {
		f.states[st.key] = st
	}
	f.mu.Unlock()
}

// leave notes one screen fewer in st; the last one out forgets it.
func (f *Frames) leave(st *state) {
	if st == nil {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if st.users--; st.users == 0 && f.states[st.key] == st {
		delete(f.states, st.key)
	}
}

// Len is the number of states kept, and of transitions worked out so
// far (the others were found).
func (f *Frames) Len() (states, paints int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.states), f.paints
}

// move returns what to write to take a screen from st to lines, and the
// state it is then in (st left, the new one entered). Nothing is written
// when the lines are st's. When the renderer fails (panics) on the
// lines, the screen stays in st and every screen waiting for the same
// transition gets the error: none waits for ever, and a later move from
// st works it out again, with a new renderer.
func (f *Frames) move(st *state, lines []string) ([]byte, *state, error) {
	sum := f.sum(lines)
	if !st.key.fresh && sum == st.key.sum && slices.Equal(lines, st.lines) {
		return nil, st, nil
	}
	st.mu.Lock()
	t, known := st.next[sum]
	if known && slices.Equal(t.lines, lines) {
		st.mu.Unlock()
		<-t.done
		if t.err != nil {
			return nil, st, t.err
		}
		f.join(t.to)
		f.leave(st)
		return t.out, t.to, nil
	}
	t = &transition{lines: lines, done: make(chan struct{})}
	if !known { // a hash shared by other lines: this transition is not kept
		if st.next == nil {
			st.next = map[uint64]*transition{}
		}
		st.next[sum] = t
	}
	p := st.p
	st.p = nil
	st.mu.Unlock()
	out, p, err := f.paint(p, st, lines)
	if err != nil {
		st.mu.Lock()
		if st.next[sum] == t {
			delete(st.next, sum)
		}
		st.mu.Unlock()
		t.err = err
		close(t.done)
		return nil, st, err
	}
	t.out = out
	f.mu.Lock()
	f.paints++
	f.mu.Unlock()
	t.to = f.enter(stateKey{kind: st.key.kind, sum: sum}, lines, p)
	close(t.done)
	f.leave(st)
	return t.out, t.to, nil
}

// paint is what p (nil: a new painter of st) writes to take st to lines,
// the bytes its caller's, and the painter, now of lines; a panic of the
// renderer is returned as an error, and the painter then lost.
func (f *Frames) paint(p *painter, st *state, lines []string) (out []byte, painted *painter, err error) {
	defer func() {
		if v := recover(); v != nil {
			out, painted, err = nil, nil, fmt.Errorf("drawing a frame: panic: %v", v)
		}
	}()
	if f.beforePaint != nil {
		f.beforePaint(lines)
	}
	if p == nil {
		if st.key.fresh {
			p = newPainter(st.key.kind)
		} else {
			p = painterAt(st.key.kind, st.lines)
		}
	}
	return slices.Clone(p.paint(lines)), p, nil
}
