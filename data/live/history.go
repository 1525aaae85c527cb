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
// window/points, and only the last window: memory is bounded whatever the
// poll rate. The newest bucket's point is replaced by newer samples, so a
// chart's right edge moves live.
type history struct {
	window time.Duration
	bucket time.Duration
	max    int
	series map[string][]Point
}

func newHistory(window time.Duration, points int) *history {
	b := window / time.Duration(points)
	if b <= 0 {
		b = time.Second
	}
	return &history{window: window, bucket: b, max: points, series: map[string][]Point{}}
}

func (h *history) add(s Sample) {
	pts := h.series[s.Series]
	if n := len(pts); n > 0 {
		last := pts[n-1]
		if s.At.Before(last.At) {
			h.insert(s)
			return
		}
		if s.At.Truncate(h.bucket).Equal(last.At.Truncate(h.bucket)) {
			pts[n-1] = Point{At: s.At, Value: s.Value}
			return
		}
	}
	pts = append(pts, Point{At: s.At, Value: s.Value})
	cut := s.At.Add(-h.window)
	drop := 0
	for drop < len(pts) && pts[drop].At.Before(cut) {
		drop++
	}
	if len(pts)-drop > h.max {
		drop = len(pts) - h.max
	}
	if drop > 0 {
		// Shift in place once the slack is large, so memory stays bounded.
		if drop > len(pts)/4 || cap(pts) > 2*h.max {
			pts = append(make([]Point, 0, len(pts)-drop+16), pts[drop:]...)
		} else {
			pts = pts[drop:]
		}
	}
	h.series[s.Series] = pts
}

// insert places a sample older than the series' newest point (a backfill
// of history read after newer data): in its bucket if that bucket holds a
// point (keeping the bucket's newest, as appends do), else as a new
// point, within the window and the bound.
func (h *history) insert(s Sample) {
	pts := h.series[s.Series]
	if s.At.Before(pts[len(pts)-1].At.Add(-h.window)) {
		return
	}
	i := sort.Search(len(pts), func(i int) bool { return !pts[i].At.Before(s.At) })
	b := s.At.Truncate(h.bucket)
	if i < len(pts) && pts[i].At.Truncate(h.bucket).Equal(b) {
		return // the bucket holds a newer point: a bucket keeps its newest
	}
	if i > 0 && pts[i-1].At.Truncate(h.bucket).Equal(b) {
		pts[i-1] = Point{At: s.At, Value: s.Value}
		return
	}
	if len(pts) >= h.max {
		if i == 0 {
			return
		}
		pts = pts[1:]
		i--
	}
	pts = append(pts, Point{})
	copy(pts[i+1:], pts[i:])
	pts[i] = Point{At: s.At, Value: s.Value}
	h.series[s.Series] = pts
}

// History returns a copy of a series' points, oldest first.
func (s *Store) History(series string) []Point {
	s.mu.Lock()
	defer s.mu.Unlock()
	pts := s.history.series[series]
	return append([]Point(nil), pts...)
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
