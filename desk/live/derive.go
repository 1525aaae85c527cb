package live

import (
	"fmt"
	"reflect"
	"strings"
	"time"
)

// A derivation is built from one topic every time it changes, once for the
// whole process (every SSH session reads the same result), off the
// goroutines of the sessions and of the poller: the rows of a table, a
// chart, a total. Its result is a topic of its own, with the state of its
// source (when fetched, the last error), read through its key like any
// other.
type deriver struct {
	topic, src Topic
	// build makes the new value from the previous one and the source's
	// snapshot, whose Changes say what changed since the last build, and
	// says whether it changed (a timed build at a fetch that changed
	// nothing may leave it as it was).
	build func(prev any, in Snapshot) (any, bool)
	// srcs and combine, instead of src and build, make a combination
	// (Combine): a value built from several topics.
	srcs    []Topic
	combine func(prev any, in Inputs) any
	alerts  func(v any, at time.Time) []Alert
	judged  func(v any) bool
	timed   bool
	// also are topics the build reads besides its source (the names of
	// the wallets in the rows of their transactions): a change of their
	// data rebuilds the value whole.
	also []Topic

	// srcState is which of a combination's sources had answered and which
	// had failed at its last build (two bits a source; store.mu): a
	// build that changes them is news to subscribers (Subscription.News).
	srcState uint64

	signal chan struct{} // coalesced: at most one pending
	acc    Changes       // the changes not yet built from (store.mu)
	dirty  bool          // acc holds something (store.mu)

	// Pausing (pause.go), all under store.mu: paused drops the value and
	// stops the builds; used is when it was last read (real time);
	// pinned keeps it built; tellAll makes the next build tell every
	// subscriber (it was resumed by a read).
	paused, pinned, tellAll bool
	used                    time.Time
	// shape is what makes a registration the same as another of its
	// topic: the value's type, timed, the also topics (registered).
	shape string
	// running says the derivation's goroutine runs (store.mu): it ends
	// once the derivation is paused, and starts again when it resumes.
	running bool
}

// Derive registers, once per name for a source topic, a value built from
// the topic on every change, and returns its key. Every later call with
// the same name returns the same key and its build is not used: the
// first registration's runs. A later call whose value is of another type,
// or timed otherwise, or reading other topics, is a program error: it
// panics, never answers with another build's value. Building starts at once on
// the store's own goroutine; until the first build is done, the derived
// snapshot is not Loaded.
//
// build must not keep in (it may keep parts of in.Data, which is
// immutable), and must return a new value rather than change prev, which
// sessions may be reading.
func Derive[S, R any](s *Store, src Key[S], name Name, build func(prev R, in Snap[S]) R) Key[R] {
	return DeriveAlso(s, src, nil, name, build)
}

// DeriveAlso is Derive for a build that also reads the topics also (from
// the store, while building): a change of their data rebuilds the value
// whole, as a reset of the source would. Their state (a failed read) is
// not the value's: that stays the source's.
func DeriveAlso[S, R any](s *Store, src Key[S], also []Topic, name Name, build func(prev R, in Snap[S]) R) Key[R] {
	return derive(s, src, also, name, false, func(prev R, in Snap[S]) (R, bool) { return build(prev, in), true })
}

// DeriveTimed is DeriveAlso for a value that depends on when its source
// was read too (rows that leave a moving window as time passes, a quote
// shown expired once its time is past): build is also called at a fetch
// of the source that changed nothing, with no Changes, and says whether
// the value changed. A value left as it was takes the source's new state
// (its fetch time) as any derivation does, and nobody is notified.
func DeriveTimed[S, R any](s *Store, src Key[S], also []Topic, name Name, build func(prev R, in Snap[S]) (R, bool)) Key[R] {
	return derive(s, src, also, name, true, build)
}

func derive[S, R any](s *Store, src Key[S], also []Topic, name Name, timed bool, build func(prev R, in Snap[S]) (R, bool)) Key[R] {
	t := Topic(string(src.topic) + "#" + nameText(name))
	shape := shapeOf[R](timed, also)
	s.mu.Lock()
	defer s.mu.Unlock()
	if d, ok := s.derivedBy[t]; ok {
		sameShape(d, t, shape)
		return Key[R]{topic: t}
	}
	d := &deriver{topic: t, src: src.topic, also: also, timed: timed, shape: shape, signal: make(chan struct{}, 1), used: time.Now(),
		build: func(prev any, in Snapshot) (any, bool) {
			p, _ := prev.(R)
			typed := Snap[S]{Snapshot: in}
			if v, ok := in.data.(S); ok {
				typed.Data = v
			}
			return build(p, typed)
		}}
	s.derivedBy[t] = d
	for _, from := range append([]Topic{src.topic}, also...) {
		s.derived[from] = append(s.derived[from], d)
	}
	s.startLocked(d)
	return Key[R]{topic: t}
}

// startLocked makes a registered derivation's first build: at once with
// Options.Inline, else on its own goroutine, which then builds it at each
// change until the store closes.
func (s *Store) startLocked(d *deriver) {
	if _, ok := s.snaps[d.topic]; !ok {
		s.snaps[d.topic] = Snapshot{Topic: d.topic}
	}
	d.acc, d.dirty = Changes{Reset: true}, true
	if s.opts.Inline {
		s.buildLocked(d)
		return
	}
	s.pending++
	d.signal <- struct{}{}
	d.running = true
	go s.derive(d)
}

// changedLocked tells the derivations of t that it changed.
func (s *Store) changedLocked(t Topic, ch Changes) {
	for _, d := range s.derived[t] {
		if d.paused {
			continue // built whole when resumed
		}
		ch := ch
		if d.combine == nil && t != d.src {
			if ch.Empty() {
				continue // another topic's state is not d's
			}
			ch = Changes{Reset: true}
		}
		if d.combine != nil {
			d.dirty = true // a combination is built from its inputs whole
		} else if d.dirty {
			d.acc = d.acc.merge(ch)
		} else {
			d.acc, d.dirty = ch, true
		}
		s.signalLocked(d) // a build already due will see these changes
	}
}

// derive runs d's builds until the store closes or d is paused (a
// paused derivation holds no goroutine: resuming starts one).
func (s *Store) derive(d *deriver) {
	for {
		select {
		case <-s.life.Done():
			return
		case <-d.signal:
		}
		s.mu.Lock()
		s.buildLocked(d)
		s.pending--
		s.idle.Broadcast()
		if d.paused && len(d.signal) == 0 {
			d.running = false
			s.mu.Unlock()
			return
		}
		s.mu.Unlock()
	}
}

// buildLocked builds d from its source's latest snapshot and publishes it.
// It is called with s.mu held, and releases it while building.
func (s *Store) buildLocked(d *deriver) {
	if d.paused {
		return // paused after this build was asked for
	}
	tell := d.tellAll
	d.tellAll = false
	if tell {
		defer s.notifyLocked("") // resumed by a reader that may watch nothing of it
	}
	if d.combine != nil {
		s.combineLocked(d)
		return
	}
	{
		in := s.snaps[d.src]
		ch := d.acc
		d.acc, d.dirty = Changes{}, false
		prev := s.snaps[d.topic]
		s.mu.Unlock()
		in.Changes = ch
		// Only a change of the source's data is built from; a change of
		// its state alone (a failed read, a read that failed no more) is
		// published with the value held. A timed value is built at every
		// fetch, and one left as it was is not published again.
		v, changed := prev.data, true
		if in.Loaded() && (!ch.Empty() || prev.data == nil || d.timed) {
			v, changed = d.build(prev.data, in)
		}
		s.mu.Lock()
		if !changed && prev.data != nil {
			out := in
			out.Topic, out.data, out.Version, out.Seq, out.Changes = d.topic, prev.data, prev.Version, prev.Seq, prev.Changes
			s.snaps[d.topic] = out
			return
		}
		out := in // the source's state: fetched, failed, stale
		out.Topic, out.Changes, out.data = d.topic, Changes{Reset: true}, v
		out.Version = prev.Version + 1
		s.seq++
		out.Seq = s.seq
		s.snaps[d.topic] = out
		if prev.data != nil && stateOf(prev) == stateOf(out) {
			s.notifyRoutineLocked(d.topic)
		} else {
			s.notifyLocked(d.topic) // the first value built, or its source answered or failed
		}
		s.changedLocked(d.topic, out.Changes)
	}
}

// Sync waits until every derivation has been built from the latest data
// and every read by id under way has been folded in (tests and
// benchmarks). A failed read waiting to be tried again is not waited for.
func (s *Store) Sync() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for (s.pending > 0 || s.details.busy > 0) && s.life.Err() == nil {
		s.idle.Wait()
	}
}

// sourcesLocked are the topics a topic is polled through: its own, or the
// sources of a derivation or a combination (recursively).
func (s *Store) sourcesLocked(t Topic) []Topic {
	d, ok := s.derivedBy[t]
	switch {
	case !ok:
		return []Topic{t}
	case d.combine == nil:
		out := s.sourcesLocked(d.src)
		for _, also := range d.also {
			out = append(out, s.sourcesLocked(also)...)
		}
		return out
	}
	var out []Topic
	for _, src := range d.srcs {
		out = append(out, s.sourcesLocked(src)...)
	}
	return out
}

// stateOf is whether sn answered and whether its last read failed, two
// bits.
func stateOf(sn Snapshot) uint64 {
	var b uint64
	if sn.Loaded() {
		b |= 1
	}
	if sn.Err != nil {
		b |= 2
	}
	return b
}

// shapeOf is a registration's shape: the value's type, timed, the topics
// read besides the source.
func shapeOf[R any](timed bool, also []Topic) string {
	return fmt.Sprintf("%v timed=%v also=%v", reflect.TypeFor[R](), timed, also)
}

// sameShape panics when a registration of t is not of the shape of the
// one held: two builders under one name.
func sameShape(d *deriver, t Topic, shape string) {
	if d.shape != shape {
		panic(fmt.Sprintf("live: %s registered twice with different builders (%s, then %s)", t, d.shape, shape))
	}
}

// Name names a derivation among those of its sources: a constant string
// ("count"), or a value of a comparable type of the caller's own that
// holds what makes it distinct (a scope and a window), never a string
// built by hand: its text is its type and fields, so two packages' names
// cannot collide.
type Name any

// nameText is a name's text in its topic: a string as it is, a struct
// as its type and fields ("paystats.groupsName{scope:3 win:24h0m0s}",
// durations written as durations).
func nameText(n Name) string {
	if s, ok := n.(string); ok {
		return s
	}
	v := reflect.ValueOf(n)
	if v.Kind() != reflect.Struct {
		return fmt.Sprintf("%T(%v)", n, n)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%T{", n)
	for i := range v.NumField() {
		if i > 0 {
			b.WriteByte(' ')
		}
		f := v.Field(i)
		b.WriteString(v.Type().Field(i).Name + ":")
		switch {
		case f.Type() == reflect.TypeFor[time.Duration]():
			b.WriteString(time.Duration(f.Int()).String())
		case f.Kind() == reflect.String:
			b.WriteString(f.String())
		default:
			fmt.Fprintf(&b, "%v", f)
		}
	}
	b.WriteByte('}')
	return b.String()
}
