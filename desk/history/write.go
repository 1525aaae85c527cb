package history

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"time"
)

// Kind is a balance's kind.
type Kind int

// The kinds of balance kept.
const (
	Liquidity Kind = iota // the liquidity account's, per asset
	Prefunded             // the payments prefunded account's, per currency
)

// Rate is a pair's minute: its last quote's mid, bid, ask and spread, the
// mid's low and high over the minute, and how many quotes it saw.
type Rate struct {
	Pair                  string
	Minute                time.Time
	Mid, Bid, Ask, Spread float64
	Low, High             float64
	Quotes                int
}

// Balance is a currency's available balance of one kind at the end of a
// minute, with its low and high over the minute.
type Balance struct {
	Currency             string
	Kind                 Kind
	Minute               time.Time
	Available, Low, High float64
}

// Runway is a prefunded currency's runway in hours at a minute (NaN:
// no outflow) and the net outflow per hour it was computed from.
type Runway struct {
	Currency       string
	Minute         time.Time
	Hours, Outflow float64
}

// Count is how many payments initiated in a minute are in a state.
type Count struct {
	State  string
	Minute time.Time
	N      int
}

// Batch is what one flush writes, in one transaction.
type Batch struct {
	// Rates replace the pairs' minutes they name.
	Rates []Rate
	// Balances merge into the minutes they name (the last value wins,
	// the low and high widen).
	Balances []Balance
	Runway   []Runway
	// Payments replace every count of the minutes [PaymentsFrom,
	// PaymentsTo) (counted again from the payments held).
	Payments                 []Count
	PaymentsFrom, PaymentsTo time.Time
}

// Empty reports whether the batch writes nothing.
func (b *Batch) Empty() bool {
	return len(b.Rates) == 0 && len(b.Balances) == 0 && len(b.Runway) == 0 && len(b.Payments) == 0 &&
		b.PaymentsFrom.Equal(b.PaymentsTo)
}

// ErrReadOnly is returned by writes of a store another process writes.
var ErrReadOnly = errors.New("history: written by another process")

func minute(t time.Time) int64 { return t.Unix() / 60 }

// nullable stores NaN (no value: a runway without outflow) as NULL.
func nullable(f float64) any {
	if f != f {
		return nil
	}
	return f
}

// Write writes b in one transaction.
func (s *Store) Write(ctx context.Context, b Batch) error {
	if !s.writer {
		return ErrReadOnly
	}
	if b.Empty() {
		return nil
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("history: %w", err)
	}
	defer tx.Rollback()
	err = s.write(ctx, tx, &b)
	if err == nil {
		err = tx.Commit()
	}
	if err != nil {
		s.mu.Lock()
		clear(s.names) // an id learnt in the transaction is gone with it
		s.mu.Unlock()
		return fmt.Errorf("history: %w", err)
	}
	s.mu.Lock()
	s.cache.clear()
	s.mu.Unlock()
	return nil
}

func (s *Store) write(ctx context.Context, tx *sql.Tx, b *Batch) error {
	err := insertAll(ctx, s, tx, `INSERT OR REPLACE INTO rates(name, minute, mid, bid, ask, spread, lo, hi, n) VALUES(?,?,?,?,?,?,?,?,?)`,
		b.Rates, func(r Rate) (string, []any) {
			return r.Pair, []any{minute(r.Minute), r.Mid, r.Bid, r.Ask, r.Spread, r.Low, r.High, r.Quotes}
		})
	if err == nil {
		err = insertAll(ctx, s, tx, `INSERT INTO balances(name, kind, minute, available, lo, hi) VALUES(?,?,?,?,?,?)
			ON CONFLICT(name, kind, minute) DO UPDATE SET available=excluded.available, lo=min(lo, excluded.lo), hi=max(hi, excluded.hi)`,
			b.Balances, func(x Balance) (string, []any) {
				return x.Currency, []any{int(x.Kind), minute(x.Minute), x.Available, x.Low, x.High}
			})
	}
	if err == nil {
		err = insertAll(ctx, s, tx, `INSERT OR REPLACE INTO runway(name, minute, hours, outflow) VALUES(?,?,?,?)`,
			b.Runway, func(x Runway) (string, []any) {
				return x.Currency, []any{minute(x.Minute), nullable(x.Hours), nullable(x.Outflow)}
			})
	}
	if err == nil && b.PaymentsFrom.Before(b.PaymentsTo) {
		_, err = tx.ExecContext(ctx, `DELETE FROM payments WHERE minute >= ? AND minute < ?`, minute(b.PaymentsFrom), minute(b.PaymentsTo))
	}
	if err == nil {
		err = insertAll(ctx, s, tx, `INSERT OR REPLACE INTO payments(name, minute, n) VALUES(?,?,?)`,
			b.Payments, func(x Count) (string, []any) { return x.State, []any{minute(x.Minute), x.N} })
	}
	return err
}

// insertAll runs the statement q for each row, its first argument the id
// of the row's name, the others args'.
func insertAll[T any](ctx context.Context, s *Store, tx *sql.Tx, q string, rows []T, args func(T) (string, []any)) error {
	if len(rows) == 0 {
		return nil
	}
	st, err := tx.PrepareContext(ctx, q)
	if err != nil {
		return err
	}
	defer st.Close()
	for _, r := range rows {
		name, rest := args(r)
		id, err := s.nameID(ctx, tx, name)
		if err != nil {
			return err
		}
		if _, err := st.ExecContext(ctx, append([]any{id}, rest...)...); err != nil {
			return err
		}
	}
	return nil
}

// nameID is the id of a pair, currency or state, added when new.
func (s *Store) nameID(ctx context.Context, tx *sql.Tx, name string) (int64, error) {
	s.mu.Lock()
	id, ok := s.names[name]
	s.mu.Unlock()
	if ok {
		return id, nil
	}
	if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO names(name) VALUES(?)`, name); err != nil {
		return 0, err
	}
	if err := tx.QueryRowContext(ctx, `SELECT id FROM names WHERE name = ?`, name).Scan(&id); err != nil {
		return 0, err
	}
	s.mu.Lock() // forgotten if the transaction rolls back (Write)
	s.names[name] = id
	s.mu.Unlock()
	return id, nil
}

// day is a day in minutes.
const day = 24 * 60

// tables are the tables of minutes, pruned alike.
var tables = [...]string{"rates", "balances", "runway", "payments"}

// Prune deletes the minutes older than Keep before now, then, while the
// file is larger than MaxBytes, the oldest day left (never the last
// day), and gives the freed
// pages back to the file system. It returns how many rows it deleted.
func (s *Store) Prune(ctx context.Context, now time.Time) (int64, error) {
	if !s.writer {
		return 0, ErrReadOnly
	}
	n, err := s.deleteBefore(ctx, minute(now.Add(-s.opts.Keep)))
	if err != nil {
		return n, err
	}
	for range 64 { // at most 64 days dropped for size in one prune
		used, err := s.used(ctx)
		if err != nil || used <= s.opts.MaxBytes {
			break
		}
		var oldest, newest sql.NullInt64
		if err := s.db.QueryRowContext(ctx, `SELECT min(lo), max(hi) FROM (
			SELECT min(minute) lo, max(minute) hi FROM rates UNION ALL SELECT min(minute), max(minute) FROM balances
			UNION ALL SELECT min(minute), max(minute) FROM runway UNION ALL SELECT min(minute), max(minute) FROM payments)`).Scan(&oldest, &newest); err != nil ||
			!oldest.Valid || oldest.Int64+day > newest.Int64 {
			break // the newest minute stays, whatever its size
		}
		k, err := s.deleteBefore(ctx, oldest.Int64+day)
		n += k
		if err != nil {
			return n, err
		}
	}
	if n > 0 {
		if _, err := s.db.ExecContext(ctx, "PRAGMA incremental_vacuum"); err != nil {
			return n, fmt.Errorf("history: %w", err)
		}
		s.mu.Lock()
		s.cache.clear()
		s.mu.Unlock()
	}
	return n, nil
}

func (s *Store) deleteBefore(ctx context.Context, m int64) (int64, error) {
	var n int64
	for _, t := range tables {
		r, err := s.db.ExecContext(ctx, `DELETE FROM `+t+` WHERE minute < ?`, m)
		if err != nil {
			return n, fmt.Errorf("history: prune %s: %w", t, err)
		}
		k, _ := r.RowsAffected()
		n += k
	}
	return n, nil
}

// used is the bytes of the file's pages in use.
func (s *Store) used(ctx context.Context) (int64, error) {
	var pages, free, size int64
	if err := s.db.QueryRowContext(ctx, "PRAGMA page_count").Scan(&pages); err != nil {
		return 0, err
	}
	if err := s.db.QueryRowContext(ctx, "PRAGMA freelist_count").Scan(&free); err != nil {
		return 0, err
	}
	if err := s.db.QueryRowContext(ctx, "PRAGMA page_size").Scan(&size); err != nil {
		return 0, err
	}
	return (pages - free) * size, nil
}

// Size is the bytes of the file and its write-ahead log.
func (s *Store) Size() int64 {
	var n int64
	for _, p := range []string{s.path, s.path + "-wal"} {
		if fi, err := os.Stat(p); err == nil {
			n += fi.Size()
		}
	}
	return n
}
