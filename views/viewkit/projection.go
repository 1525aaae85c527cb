package viewkit

import (
	"slices"
	"time"

	"treasury/data/live"
	"treasury/data/persist"
	"treasury/ui/table"
)

// Projected is a table's rows and the records behind them, built from a
// topic once per change for every session (live.Derive): sessions read it,
// none changes it.
type Projected[T any] struct {
	Rows *table.Rows
	recs persist.Map[T]
}

// Record returns the record behind a row.
func (p Projected[T]) Record(id string) (T, bool) { return p.recs.Get(id) }

// Projection says how a topic's data becomes table rows: which records,
// their ids, their rows (sanitized, formatted cells and sort keys) and the
// order they are given in.
type Projection[S, T any] struct {
	// Name names the projection among those of its topic ("failed").
	Name string
	From live.Key[S]
	// All lists the records of the data (a first build, a reset).
	All func(S) []T
	// Pick returns the records of the data with these ids (a change);
	// nil means scanning All once.
	Pick func(S, map[string]bool) []T
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
}

// Project registers p on the store (once per topic and name: every
// session asking gets the same rows) and returns the key of its result.
func Project[S, T any](s *live.Store, p Projection[S, T]) live.Key[Projected[T]] {
	b := table.NewBuilder(p.Given)
	return live.DeriveAlso(s, p.From, p.Also, p.Name, func(prev Projected[T], in live.Snap[S]) Projected[T] {
		now := in.FetchedAt
		keep := func(x T) bool {
			return (p.Keep == nil || p.Keep(x)) && (p.Expired == nil || !p.Expired(x, now))
		}
		if p.Given == nil || in.Changes.Reset || prev.Rows == nil {
			all := p.All(in.Data)
			rows := make([]table.Row, 0, len(all))
			recs := persist.Map[T]{}.Edit()
			for _, x := range all {
				if keep(x) {
					rows = append(rows, p.Row(x))
					recs.Set(p.ID(x), x)
				}
			}
			if p.Given == nil {
				return Projected[T]{Rows: b.Replace(rows, now), recs: recs.Done()}
			}
			var gone []string
			if prev.Rows != nil {
				for _, id := range prev.Rows.IDs() {
					if _, ok := recs.Done().Get(id); !ok {
						gone = append(gone, id)
					}
				}
			}
			return Projected[T]{Rows: b.Apply(rows, gone, now), recs: recs.Done()}
		}
		ids := make(map[string]bool, len(in.Changes.Added)+len(in.Changes.Changed))
		for _, id := range in.Changes.Added {
			ids[id] = true
		}
		for _, id := range in.Changes.Changed {
			ids[id] = true
		}
		var picked []T
		if p.Pick != nil {
			picked = p.Pick(in.Data, ids)
		} else {
			for _, x := range p.All(in.Data) {
				if ids[p.ID(x)] {
					picked = append(picked, x)
				}
			}
		}
		recs := prev.recs.Edit()
		var up []table.Row
		var gone []string
		for _, x := range picked {
			id := p.ID(x)
			if keep(x) {
				up = append(up, p.Row(x))
				recs.Set(id, x)
			} else if _, had := prev.recs.Get(id); had {
				gone = append(gone, id)
				recs.Delete(id)
			}
		}
		for _, id := range in.Changes.Removed {
			if _, had := prev.recs.Get(id); had {
				gone = append(gone, id)
				recs.Delete(id)
			}
		}
		if p.Expired != nil {
			for _, id := range prev.Rows.Oldest(func(id string) bool {
				x, ok := prev.recs.Get(id)
				return ok && p.Expired(x, now)
			}) {
				if !slices.Contains(gone, id) {
					gone = append(gone, id)
					recs.Delete(id)
				}
			}
		}
		return Projected[T]{Rows: b.Apply(up, gone, now), recs: recs.Done()}
	})
}

// ListProjection is the projection of a list topic: every record, by its
// id, as one row. With given nil the rows keep the list's order and are
// rebuilt at each change (small lists: vaults, endpoints, reports); with
// given (newest first, say) only the records that changed are formatted.
func ListProjection[E any](s *live.Store, k live.Key[[]E], name string, id func(E) string, row func(E) table.Row, given func(a, b *table.Row) int) live.Key[Projected[E]] {
	return Project(s, Projection[[]E, E]{Name: name, From: k, All: func(l []E) []E { return l }, ID: id, Row: row, Given: given})
}

// NewestFirst orders rows by their first key (a time), newest first.
func NewestFirst(a, b *table.Row) int { return b.Keys[0].Compare(a.Keys[0]) }
