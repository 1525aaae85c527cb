package table

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"treasury/kit/persist"
)

// Rows is one version of a table's rows. It is built once per change of
// its data, by one Builder (a projection shared by every session showing
// the table), and never changes after: sessions read it without a lock.
// What a session needs beyond it (the rows sorted by a column, those
// matching a filter) is computed on demand, cached in the version and
// shared with every other session that asks the same; the sorted orders
// are carried to the next version and patched there from what changed,
// not sorted again.
type Rows struct {
	slots   slotArray // by slot: a row keeps its slot while it lives; nil is free
	count   int
	ids     persist.Map[int32]
	given   []int32 // slots in the order the rows were given
	version uint64
	last    int64               // latest change, unix nanos
	cmp     func(a, b *Row) int // the given order, for patching (nil: Replace only)
	cache   *rowsCache
	// measures are the widths and fractions of each column's cells
	// (ContentWidth, FracWidth).
	measures measures
}

// viewKey names a view of the rows: the filter (lowercased), the sort
// column (-1: the given order) and its direction.
type viewKey struct {
	filter  string
	names   string // the columns' names a filter's name:value may use
	col     int
	desc    bool
	group   string
	grouped bool
}

type rowsCache struct {
	mu     sync.Mutex
	sorted map[int][]int32 // ascending by column; ties in the given order
	views  map[viewKey][]int32
	// asked are the views a session asked of this version: those the next
	// version patches (Apply) rather than computes again. A view patched
	// and not asked is not carried further.
	asked map[viewKey]bool
}

func newCache() *rowsCache {
	return &rowsCache{sorted: map[int][]int32{}, views: map[viewKey][]int32{}, asked: map[viewKey]bool{}}
}

// Len counts the rows.
func (d *Rows) Len() int {
	if d == nil {
		return 0
	}
	return d.count
}

// Version increases with every change.
func (d *Rows) Version() uint64 {
	if d == nil {
		return 0
	}
	return d.version
}

// Get returns the row of an id.
func (d *Rows) Get(id string) (*Row, bool) {
	if d == nil {
		return nil, false
	}
	s, ok := d.ids.Get(id)
	if !ok {
		return nil, false
	}
	return d.slots.get(s), true
}

// row returns the row in slot s, nil when free (or out of this version).
func (d *Rows) row(s int32) *Row {
	if d == nil {
		return nil
	}
	return d.slots.get(s)
}

// cachedView returns a view computed before, if any.
func (d *Rows) cachedView(k viewKey) ([]int32, bool) {
	if d == nil {
		return nil, true
	}
	if k.filter == "" && k.col < 0 && !k.desc && !k.grouped {
		return d.given, true
	}
	d.cache.mu.Lock()
	defer d.cache.mu.Unlock()
	v, ok := d.cache.views[k]
	if ok {
		d.cache.asked[k] = true
	}
	return v, ok
}

// view computes (or returns the cached) view k: the slots sorted and
// filtered. It may take tens of milliseconds at 100,000 rows: sessions
// call it in a command, off their UI goroutine, and share its result.
func (d *Rows) view(k viewKey) []int32 {
	if v, ok := d.cachedView(k); ok {
		return v
	}
	base := d.given
	switch {
	case k.col >= 0 && k.desc:
		// Descending, but rows with equal keys stay in the given order:
		// sorted so, not turned round.
		base = sortColumn(d.given, d.slots.get, k.col, true)
	case k.col >= 0:
		base = d.sortedBy(k.col)
	}
	out := make([]int32, 0, len(base))
	switch {
	case k.desc && k.col < 0:
		for i := len(base) - 1; i >= 0; i-- {
			out = append(out, base[i])
		}
	default:
		out = append(out, base...)
	}
	if k.filter != "" || k.grouped {
		matches := k.matcher()
		kept := out[:0]
		for _, s := range out {
			r := d.slots.get(s)
			if matches(r) {
				kept = append(kept, s)
			}
		}
		out = slices.Clip(kept)
	}
	d.cache.mu.Lock()
	d.cache.views[k] = out
	d.cache.asked[k] = true
	d.cache.mu.Unlock()
	return out
}

// matcher says which rows belong in view k: those of its group that
// match its filter (a search: see query).
func (k viewKey) matcher() func(r *Row) bool {
	var q *query
	if k.filter != "" {
		q = compileQuery(k.filter, strings.Split(k.names, "\x00"))
	}
	return func(r *Row) bool {
		return (!k.grouped || r.Group == k.group) && (q == nil || q.match(r))
	}
}

// order is the comparison view k is sorted by, given the table's given
// order (with its id tie-break): a column ascending or descending (equal
// keys in the given order, as view builds it), or the given order, either
// way.
func (k viewKey) order(given func(a, b *Row) int) func(a, b *Row) int {
	switch {
	case k.col >= 0 && k.desc:
		return func(a, b *Row) int { return cmp.Or(-compareCol(a, b, k.col), given(a, b)) }
	case k.col >= 0:
		return func(a, b *Row) int { return cmp.Or(compareCol(a, b, k.col), given(a, b)) }
	case k.desc:
		return func(a, b *Row) int { return -given(a, b) }
	}
	return given
}

// sortedBy returns the slots ascending by column c, ties in the given
// order: computed once per version (or patched from the previous one).
func (d *Rows) sortedBy(c int) []int32 {
	d.cache.mu.Lock()
	s, ok := d.cache.sorted[c]
	d.cache.mu.Unlock()
	if ok {
		return s
	}
	out := sortColumn(d.given, d.slots.get, c, false)
	d.cache.mu.Lock()
	d.cache.sorted[c] = out
	d.cache.mu.Unlock()
	return out
}

// compareCol orders two rows by column c: by key kind, then key (the cell
// text for a zero key).
func compareCol(a, b *Row, c int) int {
	ka, kb := a.Key(c), b.Key(c)
	if ka.kind == kindNone && kb.kind == kindNone {
		return strings.Compare(cellAt(a, c), cellAt(b, c))
	}
	return ka.Compare(kb)
}

// Builder makes the versions of one table's rows. One goroutine uses it
// (a projection of the live store); the versions it returns are read by
// any number.
type Builder struct {
	given func(a, b *Row) int
	cur   *Rows
	free  []int32
	// names are the sets of fields' names its rows share (namesOf).
	names map[string]string
}

// NewBuilder returns a builder whose rows are kept in the order given
// (for Apply; Replace takes its rows in order).
func NewBuilder(given func(a, b *Row) int) *Builder {
	return &Builder{given: given, cur: &Rows{cache: newCache(), cmp: given}}
}

// Rows is the latest version.
func (b *Builder) Rows() *Rows { return b.cur }

// prepare makes r what a version keeps (kept.go) and, when its cells
// changed from old's, notes the time it changed; a row that did not
// change shares old's text and keys.
func (b *Builder) prepare(r *Row, old *Row, now int64, first bool, buf []byte) []byte {
	if r.kept {
		return buf // a row of a version: kept already
	}
	buf = joinText(buf, r.Cells, r.Fields)
	keys := keptKeys(r.Keys)
	names := b.namesOf(r.Fields)
	r.ncells = uint16(min(len(r.Cells), math.MaxUint16))
	if old != nil && old.Group == r.Group && old.text == string(buf) && old.names == names && old.ncells == r.ncells && sameKeys(old.Keys, keys) {
		r.text, r.Keys, r.plain, r.changed = old.text, old.Keys, old.plain, old.changed
	} else {
		r.text, r.Keys = string(buf), keys
		r.plain = !foldsToASCII(r.text)
		if !first {
			r.changed = now
		}
	}
	r.names, r.keyed, r.kept = names, keyedOf(r.Keys), true
	r.Cells, r.Fields = nil, nil
	return buf
}

// Replace makes a version of rows, in the order given: rows whose cells
// did not change keep their identity and highlight; new and changed rows
// are highlighted from now (except in the first version). A list that
// did not change returns the current version.
func (b *Builder) Replace(rows []Row, now time.Time) *Rows {
	prev, t := b.cur, now.UnixNano()
	first := prev.count == 0 && prev.version == 0
	next := &Rows{slots: prev.slots.next(), cmp: b.given, cache: newCache(), last: prev.last}
	ids := prev.ids.Edit()
	keep := make(map[int32]bool, len(rows))
	var buf []byte
	changed := len(rows) != prev.count
	next.given = make([]int32, 0, len(rows))
	for i := range rows {
		r := &Row{}
		*r = rows[i]
		s, ok := prev.ids.Get(r.ID)
		if !ok || keep[s] { // new, or an id given twice: its own slot
			s = b.slot(next)
			ids.Set(r.ID, s)
			changed = true
		}
		old := prev.row(s)
		if ok && !keep[s] {
			buf = b.prepare(r, old, t, first, buf)
			if old.text == r.text && old.changed == r.changed && old.ID == r.ID {
				r = old // unchanged: share the row
			} else {
				changed = true
			}
		} else {
			buf = b.prepare(r, nil, t, first, buf)
		}
		if r.changed > next.last {
			next.last = r.changed
		}
		keep[s] = true
		next.slots.set(s, r)
		next.given = append(next.given, s)
		if !changed && (i >= len(prev.given) || prev.given[i] != s) {
			changed = true
		}
	}
	prev.slots.each(func(s int32, r *Row) {
		if r != nil && !keep[s] {
			next.slots.set(s, nil)
			if cur, ok := ids.Done().Get(r.ID); ok && cur == s {
				ids.Delete(r.ID)
			}
			b.free = append(b.free, s)
			changed = true
		}
	})
	if !changed && !first {
		return prev
	}
	var own []bool
	for _, sl := range next.given {
		own = next.measures.add(next.slots.get(sl), 1, own)
	}
	next.slots.done()
	next.ids, next.count, next.version = ids.Done(), len(rows), prev.version+1
	b.cur = next
	return next
}

// slot returns a free slot of next, growing it when none is free.
func (b *Builder) slot(next *Rows) int32 {
	if n := len(b.free); n > 0 {
		s := b.free[n-1]
		b.free = b.free[:n-1]
		return s
	}
	return next.slots.grow()
}

// Apply makes a version with some rows added or changed (upserts) and some
// removed (by id): only those are prepared, and the given order and the
// sorted orders sessions asked for are patched by binary insertion. The
// builder must have a given order (NewBuilder with a comparison).
func (b *Builder) Apply(upserts []Row, removed []string, now time.Time) *Rows {
	prev, t := b.cur, now.UnixNano()
	first := prev.count == 0 && prev.version == 0
	next := &Rows{slots: prev.slots.next(), count: prev.count, cmp: b.given, cache: newCache(), last: prev.last,
		measures: slices.Clone(prev.measures)}
	var own []bool // the measures of columns copied for this version
	ids := prev.ids.Edit()
	out := map[int32]bool{} // slots to take out of the orders (old rows)
	var in []int32          // slots to put into the orders (new rows)
	inSet := map[int32]bool{}
	var buf []byte
	for _, id := range removed {
		s, ok := ids.Done().Get(id)
		if !ok {
			continue
		}
		ids.Delete(id)
		out[s] = true
		if old := next.slots.get(s); old != nil {
			own = next.measures.add(old, -1, own)
		}
		next.slots.set(s, nil)
		b.free = append(b.free, s)
		next.count--
	}
	for i := range upserts {
		r := &Row{}
		*r = upserts[i]
		s, ok := ids.Done().Get(r.ID)
		if ok {
			old := next.slots.get(s)
			buf = b.prepare(r, old, t, first, buf)
			if old != nil && old.text == r.text && old.changed == r.changed && old.Group == r.Group && sameKeys(old.Keys, r.Keys) {
				continue // unchanged
			}
			if old != nil {
				own = next.measures.add(old, -1, own)
			}
			out[s] = true
		} else {
			buf = b.prepare(r, nil, t, first, buf)
			s = b.slot(next)
			ids.Set(r.ID, s)
			next.count++
		}
		next.slots.set(s, r)
		own = next.measures.add(r, 1, own)
		if !inSet[s] { // an id given twice in one batch: its last row, once
			inSet[s] = true
			in = append(in, s)
		}
		next.last = max(next.last, r.changed)
	}
	if len(out) == 0 && len(in) == 0 && !first {
		return prev
	}
	next.ids, next.version = ids.Done(), prev.version+1
	next.slots.done()
	newRow := func(s int32) *Row { return next.slots.get(s) }
	oldRow := func(s int32) *Row { return prev.slots.get(s) }
	order := b.given
	given := func(x, y *Row) int { return cmp.Or(order(x, y), strings.Compare(x.ID, y.ID)) }
	next.given = patch(prev.given, out, in, oldRow, newRow, given)
	prev.cache.mu.Lock()
	sorted := make(map[int][]int32, len(prev.cache.sorted))
	for c, o := range prev.cache.sorted {
		sorted[c] = o
	}
	prev.cache.mu.Unlock()
	for c, o := range sorted {
		byCol := func(a, b *Row) int { return cmp.Or(compareCol(a, b, c), given(a, b)) }
		next.cache.sorted[c] = patch(o, out, in, oldRow, newRow, byCol)
	}
	// The filtered and re-sorted views sessions asked of the last version
	// are patched too: a session with its own filter or sort costs the
	// rows that changed, not a pass over every row.
	prev.cache.mu.Lock()
	views := make(map[viewKey][]int32, len(prev.cache.asked))
	for k := range prev.cache.asked {
		views[k] = prev.cache.views[k]
	}
	prev.cache.mu.Unlock()
	for k, o := range views {
		var kin []int32
		matches := k.matcher()
		for _, s := range in {
			if matches(newRow(s)) {
				kin = append(kin, s)
			}
		}
		next.cache.views[k] = patch(o, out, kin, oldRow, newRow, k.order(given))
	}
	b.cur = next
	return next
}

// patch makes a new order from o: the slots in out taken away, the slots
// in added put at their place by compare (o is sorted by it over the
// previous version's rows, old). Each is found by binary search and the
// order copied once, so a change of a few rows costs one copy of the
// order, not a pass of comparisons over it. Many added rows are sorted
// in with the rest.
func patch(o []int32, out map[int32]bool, added []int32, old, row func(int32) *Row, compare func(a, b *Row) int) []int32 {
	if len(added) > 64 && len(added) > len(o)/16 {
		next := make([]int32, 0, len(o)+len(added))
		for _, s := range o {
			if !out[s] {
				next = append(next, s)
			}
		}
		next = append(next, added...)
		slices.SortFunc(next, func(a, b int32) int { return compare(row(a), row(b)) })
		return next
	}
	// Where each leaving row is in o (o's order is total: found exactly,
	// or not in o at all, as a row a filtered view never held).
	gone := make([]int, 0, len(out))
	for s := range out {
		r := old(s)
		if r == nil {
			continue
		}
		i, found := slices.BinarySearchFunc(o, r, func(x int32, r *Row) int { return compare(old(x), r) })
		if found && o[i] == s {
			gone = append(gone, i)
		}
	}
	slices.Sort(gone)
	// Where each new row goes in o, in order.
	type place struct {
		at int
		s  int32
	}
	put := make([]place, 0, len(added))
	for _, s := range added {
		r := row(s)
		i, _ := slices.BinarySearchFunc(o, r, func(x int32, r *Row) int { return compare(old(x), r) })
		put = append(put, place{i, s})
	}
	slices.SortFunc(put, func(a, b place) int { return cmp.Or(cmp.Compare(a.at, b.at), compare(row(a.s), row(b.s))) })
	next := make([]int32, 0, len(o)-len(gone)+len(put))
	from, g, p := 0, 0, 0
	for from < len(o) || p < len(put) {
		// The next stop: a leaving row or a place to put one.
		stop := len(o)
		if g < len(gone) {
			stop = gone[g]
		}
		if p < len(put) && put[p].at < stop {
			stop = put[p].at
		}
		next = append(next, o[from:stop]...)
		from = stop
		for p < len(put) && put[p].at == stop {
			next = append(next, put[p].s)
			p++
		}
		if g < len(gone) && gone[g] == stop {
			from = stop + 1
			g++
		}
		if stop == len(o) && p == len(put) {
			break
		}
	}
	return next
}

// IDs lists the ids of the rows, in the given order.
func (d *Rows) IDs() []string {
	if d == nil {
		return nil
	}
	out := make([]string, len(d.given))
	for i, s := range d.given {
		out[i] = d.slots.get(s).ID
	}
	return out
}

// Oldest returns the ids at the end of the given order while gone says
// they are gone (the rows that left a moving window, when the given order
// is newest first): it stops at the first row that is not.
func (d *Rows) Oldest(gone func(id string) bool) []string {
	if d == nil {
		return nil
	}
	var out []string
	for i := len(d.given) - 1; i >= 0; i-- {
		id := d.slots.get(d.given[i]).ID
		if !gone(id) {
			break
		}
		out = append(out, id)
	}
	return out
}
