package table

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// byTimeDesc is a given order: newest first (key 0 holds the time).
func byTimeDesc(a, b *Row) int { return -compareCol(a, b, 0) }

func timedRow(i int, at time.Time, name string) Row {
	return Row{ID: "r" + strconv.Itoa(i), Cells: []string{at.Format(time.RFC3339), name, strconv.Itoa(i % 7)},
		Keys: []Key{Time(at), {}, Int(int64(i % 7))}}
}

// timedRows is n timed rows a second apart from t0, named name0 to name9
// in turn.
func timedRows(n int) []Row {
	rows := make([]Row, 0, n)
	for i := range n {
		rows = append(rows, timedRow(i, t0.Add(time.Duration(i)*time.Second), fmt.Sprint("name", i%10)))
	}
	return rows
}

// TestApplyPatchesOrders: after random upserts and removals the given
// order and every sorted order a session asked for equal a sort from
// scratch, and the versions before are unchanged.
func TestApplyPatchesOrders(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	b := NewBuilder(byTimeDesc)
	var rows []Row
	for i := range 2000 {
		rows = append(rows, timedRow(i, t0.Add(time.Duration(rng.IntN(500))*time.Second), fmt.Sprint("n", rng.IntN(100))))
	}
	d := b.Apply(rows, nil, t0)
	d.view(viewKey{col: 1})
	d.view(viewKey{col: 2, desc: true})
	next := 2000
	for step := range 50 {
		prev := d
		prevGiven := slices.Clone(prev.given)
		var up []Row
		var rm []string
		for range rng.IntN(20) {
			if rng.IntN(3) == 0 {
				up = append(up, timedRow(next, t0.Add(time.Duration(rng.IntN(600))*time.Second), "new"))
				next++
			} else {
				i := rng.IntN(next)
				up = append(up, timedRow(i, t0.Add(time.Duration(rng.IntN(600))*time.Second), fmt.Sprint("m", step)))
			}
		}
		for range rng.IntN(5) {
			rm = append(rm, "r"+strconv.Itoa(rng.IntN(next)))
		}
		d = b.Apply(up, rm, t0.Add(time.Duration(step)*time.Second))
		if !slices.Equal(prev.given, prevGiven) {
			t.Fatal("a new version changed the previous one")
		}
		fresh := &Rows{slots: d.slots, given: d.given, cache: newCache()}
		// Ascending by column 1 (the sorted order) and descending by
		// column 2 (a view of its own, sorted so, not turned round).
		for _, k := range []viewKey{{col: 1}, {col: 2, desc: true}} {
			d.cache.mu.Lock()
			patched, ok := d.cache.sorted[k.col]
			if k.desc {
				patched, ok = d.cache.views[k]
			}
			d.cache.mu.Unlock()
			if !ok {
				t.Fatalf("step %d: the order %+v was not carried over", step, k)
			}
			want := fresh.view(k)
			if !slices.Equal(patched, want) {
				t.Fatalf("step %d: the order %+v differs from one sorted afresh", step, k)
			}
			d.cachedView(k) // a session shows it: the next version patches it
		}
		// The given order is sorted and holds every row once.
		if len(d.given) != d.count {
			t.Fatalf("step %d: %d in the given order, %d rows", step, len(d.given), d.count)
		}
		for k := 1; k < len(d.given); k++ {
			if byTimeDesc(d.slots.get(d.given[k-1]), d.slots.get(d.given[k])) > 0 {
				t.Fatalf("step %d: the given order is not sorted at %d", step, k)
			}
		}
	}
}

// TestSessionsShareViews: two sessions showing one version with the same
// filter and sort share one computed view; a large table computes it in a
// command, the old view staying shown meanwhile.
func TestSessionsShareViews(t *testing.T) {
	b := NewBuilder(byTimeDesc)
	rows := timedRows(syncRows * 3)
	d := b.Apply(rows, nil, t0)
	a, c := newPlain(paymentCols(), 80, 10), newPlain(paymentCols(), 80, 10)
	a.SetData(d)
	c.SetData(d)
	if a.Len() != len(rows) || a.Computing() {
		t.Fatalf("the given order needs no computing: %d shown, computing %v", a.Len(), a.Computing())
	}
	cmd := a.SetFilter("name3")
	if cmd == nil || !a.Computing() || a.Len() != len(rows) {
		t.Fatal("a large filter is computed in a command, the old view shown meanwhile")
	}
	a.Update(cmd())
	want := 0
	for i := range rows {
		if i%10 == 3 {
			want++
		}
	}
	if a.Computing() || a.Len() != want {
		t.Fatalf("after the command: %d shown, want %d", a.Len(), want)
	}
	if cmd := c.SetFilter("name3"); cmd != nil || c.Len() != want {
		t.Fatal("the second session did not reuse the first one's view")
	}
}

func BenchmarkApplyOneOf100k(b *testing.B) {
	bld := NewBuilder(byTimeDesc)
	d := bld.Apply(timedRows(100_000), nil, t0)
	d.view(viewKey{col: 1}) // a session sorts by a column: the order is kept up to date
	n := 0
	for b.Loop() {
		n++
		bld.Apply([]Row{timedRow(n%100_000, t0.Add(time.Duration(n)*time.Second), "changed")}, nil, t0)
	}
}

// TestFollowMode: on the first row the table follows the newest; moved
// away it holds still, counting what arrives above, until Home.
func TestFollowMode(t *testing.T) {
	b := NewBuilder(byTimeDesc)
	var rows []Row
	for i := range 20 {
		rows = append(rows, timedRow(i, t0.Add(time.Duration(i)*time.Second), "n"))
	}
	m := newPlain(paymentCols(), 80, 8)
	m.SetFollow(true)
	m.SetData(b.Apply(rows, nil, t0))
	if id := m.SelectedID(); id != "r19" {
		t.Fatalf("selected %s, want the newest", id)
	}
	m.SetData(b.Apply([]Row{timedRow(20, t0.Add(time.Minute), "n")}, nil, t0.Add(time.Minute)))
	if id := m.SelectedID(); id != "r20" || !m.Following() {
		t.Fatalf("selected %s: a following table stays on the newest", id)
	}
	m.MoveCursor(2)
	if m.Following() || m.SelectedID() != "r18" {
		t.Fatalf("after moving down: following %v, selected %s", m.Following(), m.SelectedID())
	}
	top := m.offset
	m.SetData(b.Apply([]Row{timedRow(21, t0.Add(2*time.Minute), "n"), timedRow(22, t0.Add(3*time.Minute), "n")}, nil, t0.Add(3*time.Minute)))
	if m.SelectedID() != "r18" || m.NewAbove() != 2 || m.offset != top+2 {
		t.Fatalf("held: selected %s, %d new, offset %d (was %d)", m.SelectedID(), m.NewAbove(), m.offset, top)
	}
	if !strings.Contains(m.Footer(), "↑ 2 new") {
		t.Fatalf("footer %q", m.Footer())
	}
	m.Home()
	if m.SelectedID() != "r22" || !m.Following() || strings.Contains(m.Footer(), "new") {
		t.Fatalf("after Home: selected %s, footer %q", m.SelectedID(), m.Footer())
	}
}

// TestMarkerWithoutColour: the selected row is marked by a gutter "▸",
// which shows in plain text.
func TestMarkerWithoutColour(t *testing.T) {
	m := newPlain(paymentCols(), 60, 6)
	m.SetMarker(true)
	m.SetRows(samplePayments(), t0)
	m.MoveCursor(1)
	lines := strings.Split(m.View(), "\n")
	if !strings.HasPrefix(lines[2], "▸ ") || !strings.HasPrefix(lines[1], "  ") || !strings.HasPrefix(lines[0], "  ") {
		t.Fatalf("lines:\n%s", strings.Join(lines, "\n"))
	}
}

// TestApplyPatchesSessionViews: the filtered, re-sorted and reversed
// views sessions asked of a version are patched into the next (not
// computed again) and equal a view computed from scratch, row for row;
// a view nobody asked of a version is not carried further.
func TestApplyPatchesSessionViews(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	b := NewBuilder(byTimeDesc)
	var rows []Row
	for i := range 2000 {
		rows = append(rows, timedRow(i, t0.Add(time.Duration(rng.IntN(500))*time.Second), fmt.Sprint("n", rng.IntN(100))))
	}
	keys := []viewKey{{filter: "n1", col: -1}, {filter: "n", col: 1, desc: true}, {col: -1, desc: true}, {col: 2}, {filter: "m", col: 0, desc: true}}
	d := b.Apply(rows, nil, t0)
	for _, k := range keys {
		d.view(k)
	}
	next := 2000
	for step := range 60 {
		var up []Row
		var rm []string
		for range rng.IntN(12) {
			i := rng.IntN(next)
			if rng.IntN(3) == 0 {
				i, next = next, next+1
			}
			up = append(up, timedRow(i, t0.Add(time.Duration(rng.IntN(600))*time.Second), fmt.Sprint([]string{"n", "m"}[rng.IntN(2)], rng.IntN(30))))
		}
		for range rng.IntN(4) {
			rm = append(rm, "r"+strconv.Itoa(rng.IntN(next)))
		}
		d = b.Apply(up, rm, t0.Add(time.Duration(step)*time.Second))
		fresh := &Rows{slots: d.slots, given: d.given, cache: newCache()}
		for _, k := range keys {
			d.cache.mu.Lock()
			patched, ok := d.cache.views[k]
			d.cache.mu.Unlock()
			if !ok {
				t.Fatalf("step %d: view %+v was not patched into the new version", step, k)
			}
			if want := fresh.view(k); !slices.Equal(patched, want) {
				t.Fatalf("step %d: view %+v patched to %d rows, computed %d; they differ", step, k, len(patched), len(want))
			}
			d.view(k) // the session asks again
		}
	}
	// Not asked of the last version: patched once more, then dropped.
	d = b.Apply([]Row{timedRow(0, t0, "n1")}, nil, t0.Add(time.Hour))
	d = b.Apply([]Row{timedRow(1, t0, "n1")}, nil, t0.Add(2*time.Hour))
	if n := len(d.cache.views); n != 0 {
		t.Fatalf("%d views carried that nobody asked for", n)
	}
}

// BenchmarkApplyWithSessionViews: one changed row of n, with no session
// view beyond the given order (the shared work of a change), with a
// session on a filter, and with one sorted by another column, reversed:
// what a session's own view adds to a change is the difference.
func BenchmarkApplyWithSessionViews(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		rows := timedRows(n)
		for _, v := range []struct {
			name string
			keys []viewKey
		}{{"shared", nil}, {"filtered", []viewKey{{filter: "name3", col: -1}}}, {"resorted", []viewKey{{col: 2, desc: true}}}} {
			b.Run(fmt.Sprintf("%d/%s", n, v.name), func(b *testing.B) {
				bld := NewBuilder(byTimeDesc)
				d := bld.Apply(rows, nil, t0)
				for _, k := range v.keys {
					d.view(k)
				}
				i := 0
				b.ReportAllocs()
				for b.Loop() {
					i++
					d = bld.Apply([]Row{timedRow(i%n, t0.Add(time.Duration(n+i)*time.Second), "name3 changed")}, nil, t0)
					for _, k := range v.keys {
						if _, ok := d.cachedView(k); !ok {
							b.Fatal("a session's view was computed again")
						}
					}
				}
			})
		}
	}
}

// BenchmarkViewComputed is what a session's filter cost per change before
// views were patched: the view computed again over every row.
func BenchmarkViewComputed(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		rows := timedRows(n)
		d := NewBuilder(byTimeDesc).Apply(rows, nil, t0)
		for _, v := range []struct {
			name string
			k    viewKey
		}{{"filtered", viewKey{filter: "name3", col: -1}}} {
			b.Run(fmt.Sprintf("%d/%s", n, v.name), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					fresh := &Rows{slots: d.slots, given: d.given, cache: newCache()}
					fresh.view(v.k)
				}
			})
		}
	}
}
