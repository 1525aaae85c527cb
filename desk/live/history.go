package live

import (
	"sort"
	"time"
)

// Sample is one point of a chart series, such as a pair's mid rate or a
// currency's available balance. Values are float64 because they are only
// ever plotted; amounts shown as text come from the records, as decimals.
type Sample struct {
	Series string
	At     time.Time
	Value  float64
}

// Point is a stored sample.
type Point struct {
	At    time.Time
	Value float64
}

// history keeps, per series, at most one point per bucket of
// window/points, and only the last window, in a ring buffer of points
// allocated once: memory is bounded whatever the poll rate and however
// long the process runs. The newest bucket's point is replaced by newer
// samples, so a chart's right edge moves live.
type history struct {
	window time.Duration
	bucket time.Duration
	max    int
	series map[string]*ring
}

func newHistory(window time.Duration, points int) *history {
	b := window / time.Duration(points)
	if b <= 0 {
		b = time.Second
	}
	return &history{window: window, bucket: b, max: points, series: map[string]*ring{}}
}

// ring is a bounded sequence of points, oldest first.
type ring struct {
	buf      []Point
	start, n int
}

func (r *ring) at(i int) *Point { return &r.buf[(r.start+i)%len(r.buf)] }

// push appends p, dropping the oldest point when full.
func (r *ring) push(p Point) {
	if r.n == len(r.buf) {
		r.start = (r.start + 1) % len(r.buf)
		r.n--
	}
	*r.at(r.n) = p
	r.n++
}

// dropFront removes the k oldest points.
func (r *ring) dropFront(k int) {
	k = min(k, r.n)
	r.start = (r.start + k) % len(r.buf)
	r.n -= k
}

// insert puts p at index i (0..n), shifting the newer points up; when full
// the oldest point goes first (a point older than every point is then
// not kept).
func (r *ring) insert(i int, p Point) {
	if r.n == len(r.buf) {
		if i == 0 {
			return
		}
		r.dropFront(1)
		i--
	}
	r.n++
	for j := r.n - 1; j > i; j-- {
		*r.at(j) = *r.at(j - 1)
	}
	*r.at(i) = p
}

func (h *history) add(s Sample) {
	r := h.series[s.Series]
	if r == nil {
		r = &ring{buf: make([]Point, min(h.max, 64))}
		h.series[s.Series] = r
	}
	p := Point{At: s.At, Value: s.Value}
	if r.n > 0 {
		last := r.at(r.n - 1)
		if s.At.Before(last.At) {
			h.insert(r, p)
			return
		}
		if s.At.Truncate(h.bucket).Equal(last.At.Truncate(h.bucket)) {
			*last = p
			return
		}
	}
	if r.n == len(r.buf) && len(r.buf) < h.max {
		r.grow(h.max)
	}
	r.push(p)
	cut := s.At.Add(-h.window)
	drop := 0
	for drop < r.n && r.at(drop).At.Before(cut) {
		drop++
	}
	r.dropFront(drop)
}

// grow doubles the ring's buffer up to max, keeping its points.
func (r *ring) grow(max int) {
	buf := make([]Point, min(2*len(r.buf), max))
	for i := range r.n {
		buf[i] = *r.at(i)
	}
	r.buf, r.start = buf, 0
}

// insert places a sample older than the series' newest point (a backfill
// of history read after newer data): in its bucket if that bucket holds a
// point (keeping the bucket's newest, as appends do), else as a new
// point, within the window and the bound.
func (h *history) insert(r *ring, p Point) {
	if p.At.Before(r.at(r.n - 1).At.Add(-h.window)) {
		return
	}
	i := sort.Search(r.n, func(i int) bool { return !r.at(i).At.Before(p.At) })
	b := p.At.Truncate(h.bucket)
	if i < r.n && r.at(i).At.Truncate(h.bucket).Equal(b) {
		return // the bucket holds a newer point: a bucket keeps its newest
	}
	if i > 0 && r.at(i-1).At.Truncate(h.bucket).Equal(b) {
		*r.at(i - 1) = p
		return
	}
	if r.n == len(r.buf) && len(r.buf) < h.max {
		r.grow(h.max)
	}
	r.insert(i, p)
}

// HistoryWindow is how far back History reaches: the window of the chart
// history (Options.HistoryWindow).
func (s *Store) HistoryWindow() time.Duration { return s.history.window }

// HistorySpan is the time of a series' oldest and newest points, zero
// without any: what a chart's title says it covers, read without copying
// the points.
func (s *Store) HistorySpan(series string) (first, last time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.history.series[series]
	if r == nil || r.n == 0 {
		return time.Time{}, time.Time{}
	}
	return r.at(0).At, r.at(r.n - 1).At
}

// History returns a copy of a series' points, oldest first.
func (s *Store) History(series string) []Point {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.history.series[series]
	if r == nil {
		return nil
	}
	out := make([]Point, r.n)
	for i := range out {
		out[i] = *r.at(i)
	}
	return out
}

// historyFrom returns a copy of a series' points at or after t (after t
// when strictly is set), oldest first: a chart of the last hour copies an
// hour's points, not the whole memory.
func (s *Store) historyFrom(series string, t time.Time, strictly bool) []Point {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.history.series[series]
	if r == nil {
		return nil
	}
	i := sort.Search(r.n, func(i int) bool {
		if strictly {
			return r.at(i).At.After(t)
		}
		return !r.at(i).At.Before(t)
	})
	out := make([]Point, r.n-i)
	for k := range out {
		out[k] = *r.at(i + k)
	}
	return out
}

// Series lists the names of the series with points, sorted.
func (s *Store) Series(prefix string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for name := range s.history.series {
		if len(name) >= len(prefix) && name[:len(prefix)] == prefix {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}
