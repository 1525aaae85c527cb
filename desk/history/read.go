package history

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"treasury/desk/live"
)

// Series only this store keeps, read by Points like the live store's
// (prefix + pair, currency or state).
const (
	SeriesBid      = "bid:"
	SeriesAsk      = "ask:"
	SeriesSpread   = "spread:"
	SeriesRunway   = "runway:"   // hours; a minute without outflow has no point
	SeriesPayments = "payments:" // payments initiated per minute in a state
)

// column is where a series is kept.
type column struct {
	table, value, name string
	kind               int // balances only; -1 elsewhere
}

// columnOf maps a series name to its column.
func columnOf(series string) (column, bool) {
	for _, c := range []struct {
		prefix, table, value string
		kind                 int
	}{
		{live.SeriesLiquidityBalance, "balances", "available", int(Liquidity)},
		{live.SeriesPaymentsBalance, "balances", "available", int(Prefunded)},
		{live.SeriesRate, "rates", "mid", -1},
		{SeriesBid, "rates", "bid", -1},
		{SeriesAsk, "rates", "ask", -1},
		{SeriesSpread, "rates", "spread", -1},
		{SeriesRunway, "runway", "hours", -1},
		{SeriesPayments, "payments", "n", -1},
	} {
		if name, ok := strings.CutPrefix(series, c.prefix); ok && name != "" {
			return column{table: c.table, value: c.value, name: name, kind: c.kind}, true
		}
	}
	return column{}, false
}

// maxCached bounds the cached reads (dropped whole when full).
const maxCached = 256

type cacheKey struct {
	series   string
	from, to int64
	points   int
}

// readCache keeps the points of recent reads: a chart redrawn at every
// poll reads the file once per minute (and after every write), not at
// every poll.
type readCache map[cacheKey][]live.Point

func (c *readCache) clear() { *c = nil }

// Points returns the points of series from from to to, oldest first, at
// most about points of them: each the last minute of its span of
// (to-from)/points (a sum for SeriesPayments). Each point is at its minute's
// start. An unknown series has none. The slice is shared: do not change it.
func (s *Store) Points(ctx context.Context, series string, from, to time.Time, points int) ([]live.Point, error) {
	col, ok := columnOf(series)
	if !ok {
		return nil, nil
	}
	lo, hi := minute(from), minute(to)
	if hi < lo {
		return nil, nil
	}
	n := min(max(points, 1), int(hi-lo+1))
	bucket := (hi - lo + int64(n)) / int64(n) // ceil of the minutes over max
	key := cacheKey{series, lo, hi, n}
	s.mu.Lock()
	pts, ok := s.cache[key]
	s.mu.Unlock()
	if ok {
		return pts, nil
	}
	agg := col.value
	if col.table == "payments" {
		agg = "sum(n)"
	}
	q := `SELECT max(minute), ` + agg + ` FROM ` + col.table + ` WHERE name = (SELECT id FROM names WHERE name = ?)
		AND minute >= ? AND minute <= ?`
	args := []any{col.name, lo, hi}
	if col.kind >= 0 {
		q += ` AND kind = ?`
		args = append(args, col.kind)
	}
	q += ` GROUP BY (minute - ?) / ? ORDER BY 1`
	args = append(args, lo, bucket)
	rows, err := s.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("history: read %s: %w", series, err)
	}
	defer rows.Close()
	pts = make([]live.Point, 0, n)
	for rows.Next() {
		var m int64
		var v sql.NullFloat64
		if err := rows.Scan(&m, &v); err != nil {
			return nil, fmt.Errorf("history: read %s: %w", series, err)
		}
		if v.Valid {
			pts = append(pts, live.Point{At: time.Unix(m*60, 0).UTC(), Value: v.Float64})
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("history: read %s: %w", series, err)
	}
	s.mu.Lock()
	if len(s.cache) >= maxCached || s.cache == nil {
		s.cache = readCache{}
	}
	s.cache[key] = pts
	s.mu.Unlock()
	return pts, nil
}

// Buckets is how Points divides from..to for points: the buckets start
// at from's minute, each bucket minutes long, and there are n of them (the
// last may end after to). A point of Points is in the bucket
// (At-start)/bucket: a chart sums them into columns of whole buckets.
func Buckets(from, to time.Time, points int) (start time.Time, bucket time.Duration, n int) {
	lo, hi := minute(from), minute(to)
	if hi < lo {
		return time.Unix(lo*60, 0).UTC(), time.Minute, 0
	}
	k := min(max(points, 1), int(hi-lo+1))
	b := (hi - lo + int64(k)) / int64(k)
	return time.Unix(lo*60, 0).UTC(), time.Duration(b) * time.Minute, int((hi - lo + b) / b)
}

// Recent returns the minutes since since of the series the live store
// charts (each pair's mid, each balance), as samples to seed its memory
// after a start, oldest first per series.
func (s *Store) Recent(ctx context.Context, since time.Time) ([]live.Sample, error) {
	m := minute(since)
	var out []live.Sample
	read := func(q, prefix string, args ...any) error {
		rows, err := s.db.QueryContext(ctx, q, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var name string
			var at int64
			var v sql.NullFloat64
			if err := rows.Scan(&name, &at, &v); err != nil {
				return err
			}
			if v.Valid {
				out = append(out, live.Sample{Series: prefix + name, At: time.Unix(at*60, 0).UTC(), Value: v.Float64})
			}
		}
		return rows.Err()
	}
	if err := read(`SELECT n.name, r.minute, r.mid FROM rates r JOIN names n ON n.id = r.name WHERE r.minute >= ? ORDER BY r.name, r.minute`,
		live.SeriesRate, m); err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	for _, k := range []struct {
		kind   Kind
		prefix string
	}{{Liquidity, live.SeriesLiquidityBalance}, {Prefunded, live.SeriesPaymentsBalance}} {
		if err := read(`SELECT n.name, b.minute, b.available FROM balances b JOIN names n ON n.id = b.name
			WHERE b.kind = ? AND b.minute >= ? ORDER BY b.name, b.minute`, k.prefix, int(k.kind), m); err != nil {
			return nil, fmt.Errorf("history: %w", err)
		}
	}
	return out, nil
}

// Last is the newest minute written of each kind of row (zero for
// none): where a writer that starts again carries on, and whether the
// file is new (every one zero).
type Last struct {
	Rates, Balances, Runway, Payments time.Time
}

// Empty reports whether nothing was ever written.
func (l Last) Empty() bool {
	return l.Rates.IsZero() && l.Balances.IsZero() && l.Runway.IsZero() && l.Payments.IsZero()
}

// Newest reads the newest minute of each table.
func (s *Store) Newest(ctx context.Context) (Last, error) {
	var out Last
	for i, dst := range []*time.Time{&out.Rates, &out.Balances, &out.Runway, &out.Payments} {
		var m sql.NullInt64
		if err := s.db.QueryRowContext(ctx, `SELECT max(minute) FROM `+tables[i]).Scan(&m); err != nil {
			return out, fmt.Errorf("history: %w", err)
		}
		if m.Valid {
			*dst = time.Unix(m.Int64*60, 0).UTC()
		}
	}
	return out, nil
}

// Done reports whether the step named key (a backfill) was marked done.
func (s *Store) Done(ctx context.Context, key string) bool {
	var v string
	err := s.db.QueryRowContext(ctx, `SELECT value FROM meta WHERE key = ?`, "done:"+key).Scan(&v)
	return err == nil
}

// MarkDone marks the step named key done.
func (s *Store) MarkDone(ctx context.Context, key string) error {
	if !s.writer {
		return ErrReadOnly
	}
	_, err := s.db.ExecContext(ctx, `INSERT OR REPLACE INTO meta(key, value) VALUES(?, 'yes')`, "done:"+key)
	return err
}

// minutesWithRates are the minutes since since that hold a rate.
func (s *Store) minutesWithRates(ctx context.Context, since time.Time) (map[int64]bool, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT DISTINCT minute FROM rates WHERE minute >= ?`, minute(since))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]bool{}
	for rows.Next() {
		var m int64
		if err := rows.Scan(&m); err != nil {
			return nil, err
		}
		out[m] = true
	}
	return out, rows.Err()
}
