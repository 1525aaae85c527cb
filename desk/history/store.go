// Package history is the dashboard's memory across restarts: an embedded
// SQLite file (the pure-Go modernc.org/sqlite, WAL mode, no server) in the
// state directory that keeps, per minute, the rates of each pair (mid,
// bid, ask, spread, and the mid's low and high), the balances of each
// currency and kind (liquidity, prefunded), the runway of each prefunded
// currency and the payments per state, for Options.Keep (30 days by
// default) and at most Options.MaxBytes, pruned on a schedule.
//
// One process writes a file: the first to open it takes an advisory lock
// (flock) on a lock file beside it and holds it while it runs; another
// process on the same state directory (a second dashboard beside
// `treasury serve`) opens the file read-only and shows the same history.
// The lock file, not SQLite's own locks, says who writes: SQLite locks a
// file for a transaction, not for a process's life, so two writers would
// both append their own minutes; flock is released by the kernel when the
// process dies, so a killed writer leaves no stale lock.
//
// A file that cannot be read as a history (garbage, a truncated copy, a
// newer schema) is moved aside as <name>.damaged-<UTC time> by the writer,
// which starts a fresh one and says so (Opened.Notice): history is a
// convenience, never a reason not to start.
//
// The values are float64: they are only ever plotted (as live.Sample's
// are); amounts shown as text come from the records, as decimals.
//
// Series are read by the names of the live store's chart series
// (live.SeriesRate+pair is the mid, live.SeriesLiquidityBalance and
// live.SeriesPaymentsBalance + currency the balances) and by the names
// below for what only this store keeps (SeriesBid, SeriesAsk,
// SeriesSpread, SeriesRunway, SeriesPayments).
package history

import (
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	_ "modernc.org/sqlite" // the database/sql driver "sqlite"
)

// Defaults of Options.
const (
	DefaultKeep     = 30 * 24 * time.Hour
	DefaultMaxBytes = 256 << 20
)

// Options tune Open.
type Options struct {
	// Keep is how long rows are kept (DefaultKeep when zero).
	Keep time.Duration
	// MaxBytes bounds the file: Prune drops the oldest days until it
	// fits (DefaultMaxBytes when zero).
	MaxBytes int64
	// Now is the clock of the damaged file's name (time.Now when nil).
	Now func() time.Time
	// WriterCheck is how often a process that reads the file (another
	// writes it) checks whether the writer has ended, to take the role
	// over (DefaultWriterCheck when zero).
	WriterCheck time.Duration
}

// DefaultWriterCheck is how often a reader checks for a writer that has
// ended: the role passes within it.
const DefaultWriterCheck = 20 * time.Second

// Store is one history file, open for writing (Writer) or reading.
type Store struct {
	path   string
	db     *sql.DB
	writer bool
	unlock func()
	opts   Options

	mu    sync.Mutex
	names map[string]int64 // name -> id, as written or read
	cache readCache
}

// Opened is what Open found: the store, and a message for the operator
// when the file was damaged or could not be used.
type Opened struct {
	*Store
	// Notice says what happened to a file that could not be read (moved
	// aside, or left to its writer), "" when nothing did.
	Notice string
	// Modes says which files others could read and were made 0600.
	Modes []string
}

// FileName is the history file of a profile in the state directory:
// one per profile, so that a test environment's rates never join
// production's.
func FileName(profile string) string {
	clean := strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, profile)
	if clean == "" {
		clean = "default"
	}
	return "history-" + clean + ".db"
}

// Open opens (or creates) the history file path. The first process to
// open a path writes it; a process that finds the lock taken reads it
// (and may take the role over later: TryWrite). A damaged file is moved
// aside and replaced by the writer; a reader that cannot read it returns
// an error (its writer will replace it).
func Open(path string, o Options) (*Opened, error) {
	o = o.withDefaults()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	unlock, locked, err := lockPath(path + ".lock")
	if err != nil {
		return nil, fmt.Errorf("history: lock %s: %w", path+".lock", err)
	}
	if !locked {
		s := &Store{path: path, unlock: unlock, opts: o, names: map[string]int64{}}
		if err := s.openReader(); err != nil {
			unlock()
			return nil, err
		}
		return &Opened{Store: s}, nil
	}
	return openWriter(path, o, unlock)
}

// TryWrite opens path for writing when no process writes it now (its lock
// is free: the writer ended, however it ended): how a reader takes the
// role over. It returns nil, and no error, while another process writes.
func TryWrite(path string, o Options) (*Opened, error) {
	o = o.withDefaults()
	unlock, locked, err := lockPath(path + ".lock")
	if err != nil {
		return nil, fmt.Errorf("history: lock %s: %w", path+".lock", err)
	}
	if !locked {
		return nil, nil
	}
	return openWriter(path, o, unlock)
}

func (o Options) withDefaults() Options {
	if o.Keep <= 0 {
		o.Keep = DefaultKeep
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.WriterCheck <= 0 {
		o.WriterCheck = DefaultWriterCheck
	}
	return o
}

// openWriter opens path read-write, this process holding its lock
// (unlock releases it): files of mode 0600, a damaged one moved aside.
func openWriter(path string, o Options, unlock func()) (*Opened, error) {
	s := &Store{path: path, writer: true, unlock: unlock, opts: o, names: map[string]int64{}}
	out := &Opened{Store: s}
	out.Modes = private(path)
	if err := s.openWriter(); err != nil {
		moved, merr := moveAside(path, o.Now())
		if merr != nil {
			unlock()
			return nil, fmt.Errorf("history: %s is unreadable (%v) and could not be moved aside: %w", path, err, merr)
		}
		out.Notice = fmt.Sprintf("history file %s could not be read (%v): moved aside to %s; history starts afresh", path, err, moved)
		private(path)
		if err := s.openWriter(); err != nil {
			unlock()
			return nil, fmt.Errorf("history: a fresh %s: %w", path, err)
		}
	}
	return out, nil
}

// private makes the history's files readable by their owner only (they
// hold balances and payment counts): a new file is created 0600 (SQLite
// gives its -wal and -shm files the mode of the database), an existing
// one that others may read is made 0600. It returns what it changed.
func private(path string) []string {
	var changed []string
	if f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600); err == nil {
		f.Close()
	}
	for _, p := range []string{path, path + "-wal", path + "-shm", path + ".lock"} {
		st, err := os.Stat(p)
		if err != nil || st.Mode().Perm()&0o077 == 0 {
			continue
		}
		if os.Chmod(p, 0o600) == nil {
			changed = append(changed, fmt.Sprintf("%s had mode %04o: made 0600", p, st.Mode().Perm()))
		}
	}
	return changed
}

// Path is the file's path.
func (s *Store) Path() string { return s.path }

// Writer reports whether this process writes the file (it holds the
// lock); a reader only reads what the writer wrote.
func (s *Store) Writer() bool { return s.writer }

// Close closes the file and releases the lock.
func (s *Store) Close() error {
	var err error
	if s.db != nil {
		err = s.db.Close()
	}
	if s.unlock != nil {
		s.unlock()
	}
	return err
}

// schemaVersion is written in the file; a file of another version is
// treated as unreadable (moved aside), not migrated.
const schemaVersion = 1

const schema = `
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS names(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS rates(name INTEGER NOT NULL, minute INTEGER NOT NULL,
	mid REAL, bid REAL, ask REAL, spread REAL, lo REAL, hi REAL, n INTEGER NOT NULL,
	PRIMARY KEY(name, minute)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS balances(name INTEGER NOT NULL, kind INTEGER NOT NULL, minute INTEGER NOT NULL,
	available REAL, lo REAL, hi REAL, PRIMARY KEY(name, kind, minute)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS runway(name INTEGER NOT NULL, minute INTEGER NOT NULL,
	hours REAL, outflow REAL, PRIMARY KEY(name, minute)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS payments(name INTEGER NOT NULL, minute INTEGER NOT NULL, n INTEGER NOT NULL,
	PRIMARY KEY(name, minute)) WITHOUT ROWID;
`

// openWriter opens the file read-write, in WAL mode with incremental
// vacuum (so that a prune can give pages back), checks it and creates
// the tables.
func (s *Store) openWriter() error {
	db, err := sql.Open("sqlite", "file:"+s.path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		return err
	}
	db.SetMaxOpenConns(2) // one writing, one reading beside it (WAL)
	err = initialize(db)
	if err != nil {
		db.Close()
		return err
	}
	s.db = db
	return nil
}

func initialize(db *sql.DB) error {
	var pages int64
	if err := db.QueryRow("PRAGMA page_count").Scan(&pages); err != nil {
		return err
	}
	if pages == 0 { // a new file: auto_vacuum is set before any table
		if _, err := db.Exec("PRAGMA auto_vacuum=INCREMENTAL"); err != nil {
			return err
		}
	}
	var mode string
	if err := db.QueryRow("PRAGMA journal_mode=WAL").Scan(&mode); err != nil {
		return err
	}
	if !strings.EqualFold(mode, "wal") {
		return fmt.Errorf("journal mode %s, not WAL", mode)
	}
	if _, err := db.Exec("PRAGMA synchronous=NORMAL"); err != nil {
		return err
	}
	var check string
	if err := db.QueryRow("PRAGMA quick_check(1)").Scan(&check); err != nil {
		return err
	}
	if check != "ok" {
		return errors.New("integrity check: " + check)
	}
	if _, err := db.Exec(schema); err != nil {
		return err
	}
	var v string
	err := db.QueryRow("SELECT value FROM meta WHERE key='schema'").Scan(&v)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		_, err = db.Exec("INSERT INTO meta(key, value) VALUES('schema', ?)", fmt.Sprint(schemaVersion))
		return err
	case err != nil:
		return err
	case v != fmt.Sprint(schemaVersion):
		return fmt.Errorf("schema version %s, this build reads %d", v, schemaVersion)
	}
	return nil
}

// openReader opens the file read-only (its writer runs elsewhere).
func (s *Store) openReader() error {
	if _, err := os.Stat(s.path); err != nil {
		return fmt.Errorf("history: another process writes %s, which cannot be read yet: %w", s.path, err)
	}
	db, err := sql.Open("sqlite", "file:"+s.path+"?mode=ro&_pragma=busy_timeout(5000)")
	if err != nil {
		return fmt.Errorf("history: %w", err)
	}
	var v string
	if err := db.QueryRow("SELECT value FROM meta WHERE key='schema'").Scan(&v); err != nil || v != fmt.Sprint(schemaVersion) {
		db.Close()
		if err == nil {
			err = fmt.Errorf("schema version %s, this build reads %d", v, schemaVersion)
		}
		return fmt.Errorf("history: %s, written by another process, cannot be read: %w", s.path, err)
	}
	s.db = db
	return nil
}

// moveAside renames a damaged file (and its WAL and shared-memory files)
// to <path>.damaged-<time>, and returns the new name.
func moveAside(path string, now time.Time) (string, error) {
	to := path + ".damaged-" + now.UTC().Format("20060102T150405Z")
	if err := os.Rename(path, to); err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	for _, ext := range []string{"-wal", "-shm"} {
		if err := os.Rename(path+ext, to+ext); err != nil && !errors.Is(err, os.ErrNotExist) {
			return "", err
		}
	}
	return to, nil
}
