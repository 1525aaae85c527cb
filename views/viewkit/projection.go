package viewkit

import (
	"maps"
	"slices"
	"time"

	"treasury/desk/live"
	"treasury/kit/persist"
	"treasury/ui/table"
)

// Projected is a table's rows and the records behind them, built from a
// topic once per change for every session (live.Derive): sessions read it,
// none changes it.
type Projected[T any] struct {
	Rows *table.Rows
	recs persist.Map[T]
	// find, when set (Projection.Lookup), finds a record in the data the
	// rows were built from, in place of recs.
	find func(id string) (T, bool)
	// due are the records whose rows change by themselves (Due), with
	// when; epoch is the Epoch the rows were built in.
	due   map[string]time.Time
	epoch int64
	// b builds the next version of Rows; a value built afresh (the
	// first, or after the store paused the projection) starts a new one.
	b *table.Builder
}

// Record returns the record behind a row.
func (p Projected[T]) Record(id string) (T, bool) {
	if p.find == nil {
		return p.recs.Get(id)
	}
	if _, ok := p.Rows.Get(id); !ok {
		var zero T
		return zero, false
	}
	return p.find(id)
}

// has reports whether a record is behind a row.
func (p Projected[T]) has(id string) bool {
	if p.find == nil {
		_, ok := p.recs.Get(id)
		return ok
	}
	_, ok := p.Rows.Get(id)
	return ok
}

// Projection says how a topic's data becomes table rows: which records,
// their ids, their rows (sanitized, formatted cells and sort keys) and the
// order they are given in.
type Projection[S, T any] struct {
	// Name names the projection among those of its topic ("failed").
	Name live.Name
	From live.Key[S]
	// All lists the records of the data (a first build, a reset).
	All func(S) []T
	// Pick returns the records of the data with these ids (a change);
	// nil means scanning All once.
	Pick func(S, map[string]bool) []T
	// Lookup, when set, finds a record of the data by id: the rows'
	// records are found there (Projected.Record), not kept in a map of
	// their own beside the data's (100,000 payments: the set has them by
	// id already).
	Lookup func(S, string) (T, bool)
	// Keep, when set, selects the records shown (a scope): a record that
	// stops matching leaves the rows.
	Keep func(T) bool
	ID   func(T) string
	Row  func(T) table.Row
	// Given orders the rows (newest first, say). Nil keeps the order of
	// All, rebuilding the rows' order at each change: for small lists.
	Given func(a, b *table.Row) int
	// Expired, when set with a newest-first Given, says a record has left
	// a moving window at the build's time: such rows, at the end of the
	// given order, are removed at each build without their record having
	// changed (the payments of the last 7 days, as days pass).
	Expired func(rec T, now time.Time) bool
	// Also are the topics Row reads besides From (the wallets, for their
	// names): a change of their data rebuilds every row.
	Also []live.Topic

	// Rows that depend on when they are built (a quote shown expired once
	// its time is past, a time shown without its date on its own day):
	// RowAt, instead of Row, builds a row at a time, Clock's at the
	// fetch (the platform's clock; nil: the fetch's time). Due says when
	// the row built at now changes by itself (zero: not before the next
	// Epoch); such rows are built again once due, at a fetch that changed
	// nothing too (kept in a map: for few records, such as the quotes not
	// expired yet). Epoch names the period rows are built for (the day):
	// when it changes, every row is built again.
	RowAt func(rec T, now time.Time) table.Row
	Clock func(fetched time.Time) time.Time
	Due   func(rec T, now time.Time) time.Time
	Epoch func(now time.Time) int64
}

// timed reports whether the rows depend on the time of the build: they are
// then built at every fetch of the topic, also one that changed nothing.
func (p Projection[S, T]) timed() bool { return p.Expired != nil || p.RowAt != nil }

// Project registers p on the store (once per topic and name: every
// session asking gets the same rows) and returns the key of its result.
func Project[S, T any](s *live.Store, p Projection[S, T]) live.Key[Projected[T]] {
	if !p.timed() {
		return live.DeriveAlso(s, p.From, p.Also, p.Name, func(prev Projected[T], in live.Snap[S]) Projected[T] {
			next, _ := p.build(prev, in)
			return next
		})
	}
	return live.DeriveTimed(s, p.From, p.Also, p.Name, p.build)
}

// build makes the rows of the data in from the previous ones, and says
// whether they changed.
func (p Projection[S, T]) build(prev Projected[T], in live.Snap[S]) (Projected[T], bool) {
	b := prev.b
	if b == nil {
		b = table.NewBuilder(p.Given)
	}
	now := in.FetchedAt
	if p.Clock != nil {
		now = p.Clock(now)
	}
	var epoch int64
	if p.Epoch != nil {
		epoch = p.Epoch(now)
	}
	due := dueList[T]{of: p.Due, at: now, m: prev.due}
	row := func(x T) table.Row {
		due.note(p.ID(x), x)
		if p.RowAt != nil {
			return p.RowAt(x, now)
		}
		return p.Row(x)
	}
	keep := func(x T) bool {
		return (p.Keep == nil || p.Keep(x)) && (p.Expired == nil || !p.Expired(x, now))
	}
	var find func(id string) (T, bool)
	if p.Lookup != nil {
		data := in.Data
		find = func(id string) (T, bool) { return p.Lookup(data, id) }
	}
	// recs keeps the records by id, unless the data finds them (Lookup).
	recs := prev.recs.Edit()
	set := func(id string, x T) {
		if find == nil {
			recs.Set(id, x)
		}
	}
	if p.Given == nil || in.Changes.Reset || prev.Rows == nil || epoch != prev.epoch {
		due.m = nil
		all := p.All(in.Data)
		rows := make([]table.Row, 0, len(all))
		recs = persist.Map[T]{}.Edit()
		kept := make(map[string]struct{}, len(all))
		for _, x := range all {
			if keep(x) {
				rows = append(rows, row(x))
				set(p.ID(x), x)
				kept[p.ID(x)] = struct{}{}
			}
		}
		if p.Given == nil {
			return Projected[T]{Rows: b.Replace(rows, now), recs: recs.Done(), find: find, due: due.m, epoch: epoch, b: b}, true
		}
		var gone []string
		if prev.Rows != nil {
			for _, id := range prev.Rows.IDs() {
				if _, ok := kept[id]; !ok {
					gone = append(gone, id)
				}
			}
		}
		return Projected[T]{Rows: b.Apply(rows, gone, now), recs: recs.Done(), find: find, due: due.m, epoch: epoch, b: b}, true
	}
	ids := make(map[string]bool, len(in.Changes.Added)+len(in.Changes.Changed))
	for _, id := range in.Changes.Added {
		ids[id] = true
	}
	for _, id := range in.Changes.Changed {
		ids[id] = true
	}
	var dueNow []string
	for id, at := range prev.due {
		if !now.Before(at) {
			ids[id] = true // its row changes by itself now
			dueNow = append(dueNow, id)
		}
	}
	var picked []T
	if len(ids) > 0 {
		if p.Pick != nil {
			picked = p.Pick(in.Data, ids)
		} else {
			for _, x := range p.All(in.Data) {
				if ids[p.ID(x)] {
					picked = append(picked, x)
				}
			}
		}
	}
	var up []table.Row
	var gone []string
	for _, x := range picked {
		id := p.ID(x)
		if keep(x) {
			up = append(up, row(x))
			set(id, x)
		} else if prev.has(id) {
			gone = append(gone, id)
			recs.Delete(id)
		}
	}
	for _, id := range in.Changes.Removed {
		if prev.has(id) {
			gone = append(gone, id)
			recs.Delete(id)
		}
	}
	if p.Expired != nil {
		for _, id := range prev.Rows.Oldest(func(id string) bool {
			x, ok := prev.Record(id)
			return ok && p.Expired(x, now)
		}) {
			if !slices.Contains(gone, id) {
				gone = append(gone, id)
				recs.Delete(id)
			}
		}
	}
	for _, id := range gone {
		due.drop(id)
	}
	next := b.Apply(up, gone, now)
	for _, id := range dueNow {
		if _, ok := next.Get(id); !ok {
			due.drop(id) // gone from the data
		}
	}
	changed := !in.Changes.Empty() || next != prev.Rows || due.copied
	return Projected[T]{Rows: next, recs: recs.Done(), find: find, due: due.m, epoch: epoch, b: b}, changed
}

// dueList keeps the records whose rows change by themselves, and when: a
// map shared with the previous version until a build changes it.
type dueList[T any] struct {
	of     func(rec T, now time.Time) time.Time
	at     time.Time
	m      map[string]time.Time
	copied bool
}

// note records when the row of rec, built now, is due again.
func (d *dueList[T]) note(id string, rec T) {
	if d.of == nil {
		return
	}
	at := d.of(rec, d.at)
	if old, ok := d.m[id]; ok && old.Equal(at) || !ok && at.IsZero() {
		return
	}
	d.own()
	if at.IsZero() {
		delete(d.m, id)
	} else {
		d.m[id] = at
	}
}

func (d *dueList[T]) drop(id string) {
	if _, ok := d.m[id]; ok {
		d.own()
		delete(d.m, id)
	}
}

func (d *dueList[T]) own() {
	if !d.copied {
		d.m, d.copied = maps.Clone(d.m), true
		if d.m == nil {
			d.m = map[string]time.Time{}
		}
	}
}

// ListProjection is the projection of a list topic: every record, by its
// id, as one row. With given nil the rows keep the list's order and are
// rebuilt at each change (small lists: vaults, endpoints, reports); with
// given (newest first, say) only the records that changed are formatted.
func ListProjection[E any](s *live.Store, k live.Key[[]E], name live.Name, id func(E) string, row func(E) table.Row, given func(a, b *table.Row) int) live.Key[Projected[E]] {
	return Project(s, Projection[[]E, E]{Name: name, From: k, All: func(l []E) []E { return l }, ID: id, Row: row, Given: given})
}

// NewestFirst orders rows by their first key (a time), newest first.
func NewestFirst(a, b *table.Row) int { return b.Key(0).Compare(a.Key(0)) }
