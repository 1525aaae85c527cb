package live

import (
	"fmt"
	"strings"
	"time"
)

// A combination is a derivation of several topics: a figure that needs
// them all (balances of two interfaces converted at the latest rates, a
// runway from the balances and the ledger), built again whenever any of
// them changes, once for the whole process, off the sessions' goroutines.
// Unlike a derivation of one topic it is built before all its inputs
// have answered, and from their errors too: build sees each input's state
// (loading, failed, stale) and says what the figure is without it.

// Inputs are the snapshots of a combination's topics as they were when its
// build began. Read them through their keys (Input).
type Inputs struct {
	snaps map[Topic]Snapshot
	// At is the build's time: the newest fetch of the inputs (zero when
	// none has answered yet). Builds use it rather than a clock, so that
	// a value depends only on its inputs.
	At time.Time
}

// Input returns the snapshot of the topic of k among the inputs (the zero
// snapshot, not loaded, when k is not one of them). Its Changes are not
// set: a combination is built from its inputs whole.
func Input[T any](in Inputs, k Key[T]) Snap[T] {
	e := in.snaps[k.topic]
	out := Snap[T]{Snapshot: e}
	if v, ok := e.data.(T); ok {
		out.Data = v
	}
	return out
}

// CombineOptions are what a combination does besides its value.
type CombineOptions[R any] struct {
	// Alerts, when set, evaluates data-driven alert conditions on each
	// new value at the build's time (Inputs.At); its result replaces the
	// combination's previous alerts, as a feed's Alerts does.
	Alerts func(v R, at time.Time) []Alert
	// Timed rebuilds the value at every fetch of an input, also one that
	// changed nothing: for a value that depends on when its inputs were
	// read (the outflow of the last hour moves with the clock).
	Timed bool
	// Judged, when set, says whether a value can be judged for alerts
	// (its inputs have answered): until it can, Alerts is not asked and
	// the combination raises none, and the first alerts it raises then
	// are what was found at start (AlertEvent.Initial), not news.
	Judged func(v R) bool
}

// Combine registers, once per name, a value built from the topics of srcs
// every time one of them changes, and returns its key; later calls with
// the same name return the same key whatever they pass (the first
// registration's build runs). build is called at once, and again after
// every change, whether or not every input has answered: it reads each
// through Input, with its state. The combination's snapshot is loaded once
// an input is, fetched at the newest input's fetch; its Err is nil (the
// value says which inputs failed). Watching it watches its sources.
//
// As with Derive, build must not keep in and must return a new value
// rather than change prev, which sessions may be reading.
func Combine[R any](s *Store, name Name, build func(prev R, in Inputs) R, o CombineOptions[R], srcs ...Topic) Key[R] {
	names := make([]string, len(srcs))
	for i, t := range srcs {
		names[i] = string(t)
	}
	t := Topic(strings.Join(names, "+") + "#" + nameText(name))
	shape := shapeOf[R](o.Timed, nil) + fmt.Sprintf(" alerts=%v", o.Alerts != nil)
	s.mu.Lock()
	defer s.mu.Unlock()
	if d, ok := s.derivedBy[t]; ok {
		sameShape(d, t, shape)
		return Key[R]{topic: t}
	}
	d := &deriver{topic: t, srcs: append([]Topic(nil), srcs...), shape: shape, signal: make(chan struct{}, 1), used: time.Now(),
		combine: func(prev any, in Inputs) any {
			p, _ := prev.(R)
			return build(p, in)
		}}
	if o.Alerts != nil {
		d.alerts = func(v any, at time.Time) []Alert {
			r, _ := v.(R)
			return o.Alerts(r, at)
		}
	}
	d.timed = o.Timed
	if o.Judged != nil {
		d.judged = func(v any) bool {
			r, _ := v.(R)
			return o.Judged(r)
		}
	}
	s.derivedBy[t] = d
	for _, src := range d.srcs {
		if !containsDeriver(s.derived[src], d) {
			s.derived[src] = append(s.derived[src], d)
		}
	}
	s.startLocked(d)
	return Key[R]{topic: t}
}

func containsDeriver(ds []*deriver, d *deriver) bool {
	for _, x := range ds {
		if x == d {
			return true
		}
	}
	return false
}

// refetchedLocked tells what is built from t that t was fetched again
// without change: a derivation takes t's new state (its fetch time, no
// error) without being built again, a combination its latest fetch time,
// and a timed derivation or combination is built again. Nobody is
// notified but of what a timed build changed: the age moves on, and
// readers see it at their next tick.
func (s *Store) refetchedLocked(t Topic) {
	src := s.snaps[t]
	for _, d := range s.derived[t] {
		out, ok := s.snaps[d.topic]
		rebuild := false
		switch {
		case !ok || !out.Loaded():
			continue // not built yet: its build takes the state
		case d.combine == nil && d.src == t:
			data, version, seq, ch := out.data, out.Version, out.Seq, out.Changes
			out = src
			out.Topic, out.data, out.Version, out.Seq, out.Changes = d.topic, data, version, seq, ch
			rebuild = d.timed // built again at the fetch's time
		case d.combine != nil && src.FetchedAt.After(out.FetchedAt):
			out.FetchedAt = src.FetchedAt
		default:
			continue
		}
		s.snaps[d.topic] = out
		s.refetchedLocked(d.topic)
		if rebuild {
			s.signalLocked(d)
		}
	}
	s.signalCombinationsLocked(t, true)
}

func (s *Store) signalCombinationsLocked(t Topic, timedOnly bool) {
	for _, d := range s.derived[t] {
		if d.combine == nil || (timedOnly && !d.timed) {
			continue
		}
		s.signalLocked(d)
	}
}

// signalLocked asks for a build of d (with the changes it holds, if any).
func (s *Store) signalLocked(d *deriver) {
	if d.paused {
		return
	}
	d.dirty = true
	if s.opts.Inline {
		s.buildLocked(d)
		return
	}
	select {
	case d.signal <- struct{}{}:
		s.pending++
	default:
	}
	if !d.running {
		d.running = true
		go s.derive(d)
	}
}

// combineLocked builds the combination d from its inputs' latest
// snapshots and publishes it. It is called with s.mu held, and releases
// it while building.
func (s *Store) combineLocked(d *deriver) {
	in := Inputs{snaps: make(map[Topic]Snapshot, len(d.srcs))}
	var out Snapshot
	for _, t := range d.srcs {
		sn := s.snaps[t]
		sn.Changes = Changes{}
		in.snaps[t] = sn
		if sn.FetchedAt.After(in.At) {
			in.At = sn.FetchedAt
		}
		out.Interval = max(out.Interval, sn.Interval)
		if !sn.Since.IsZero() && (out.Since.IsZero() || sn.Since.Before(out.Since)) {
			out.Since = sn.Since
		}
	}
	d.acc, d.dirty = Changes{}, false
	prev := s.snaps[d.topic]
	var inputs uint64
	for i, t := range d.srcs {
		inputs |= stateOf(in.snaps[t]) << (2 * (i % 32))
	}
	s.mu.Unlock()
	v := d.combine(prev.data, in)
	judge := d.alerts != nil && (d.judged == nil || d.judged(v))
	var alerts []Alert
	if judge {
		alerts = d.alerts(v, in.At)
	}
	s.mu.Lock()
	mark := s.alerts.journal.mark
	if judge {
		s.alerts.replaceData(d.topic, alerts, in.At)
	}
	out.Topic, out.data, out.Changes, out.FetchedAt = d.topic, v, Changes{Reset: true}, in.At
	out.Version = prev.Version + 1
	s.seq++
	out.Seq = s.seq
	s.snaps[d.topic] = out
	if prev.data != nil && inputs == d.srcState {
		s.notifyRoutineLocked(d.topic)
	} else {
		s.notifyLocked(d.topic) // the first value built, or a source answered or failed
	}
	d.srcState = inputs
	switch {
	case s.alerts.journal.mark != mark:
		s.notifyLocked("") // the header counts the alerts
	case d.alerts != nil:
		s.notifyRoutineLocked("") // the alerts' last seen and counts
	}
	s.changedLocked(d.topic, out.Changes)
}
