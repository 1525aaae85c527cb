package audit

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"
)

// Options tune Open.
type Options struct {
	// Now stamps each line; time.Now when nil (the host's clock, never a
	// simulated one: the log says when a person acted).
	Now func() time.Time
	// Host names the machine in each line; os.Hostname when empty.
	Host string
	// Keep is how many of the last records Recent returns (default 1000).
	Keep int
	// Wrap, when set, wraps every write of the log and of its writability
	// probe: tests give it a writer that fails as a full disk does.
	Wrap func(io.Writer) io.Writer
}

// tailBytes is how much of the end of the file Open reads for the last
// records and the head of the chain.
const tailBytes = 1 << 20

// Log is the writer of the log: one per process, shared by every session,
// safe for concurrent use. Appends are serialized by its mutex (lines in
// order, each synced to disk before Append returns) and, against other
// processes on the same file, by an advisory file lock under which the
// Log first reads what they appended, so the chain stays one chain.
type Log struct {
	path string
	now  func() time.Time
	host string
	keep int
	wrap func(io.Writer) io.Writer

	mu   sync.Mutex
	f    *os.File
	end  int64  // the size of the file as last read or written
	seq  uint64 // the last line's seq and hash: what the next line chains to
	head string
	// recent are the last records, oldest first, at most keep.
	recent []Record
	// broken, once set, refuses every append: a line was written in part
	// and could not be removed, so the file no longer ends with a line of
	// the chain.
	broken error
	// unwritable is why the last write failed (a full disk, a file system
	// remounted read-only, permission denied): every later append and
	// Writable checks the directory again first (check), and clear it once
	// a probe is written and synced.
	unwritable error
	hooks      []func()
}

// Open opens (creating it, mode 0600, in a directory of mode 0700) the log
// in dir and reads the end of the file to continue its chain. A file that
// group or others can read is refused (it names who did what to which
// money), and so is one whose last line is not a record of the chain (the
// log is damaged: `treasury audit verify` says where).
func Open(dir string, o Options) (*Log, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Host == "" {
		o.Host, _ = os.Hostname()
	}
	if o.Keep <= 0 {
		o.Keep = 1000
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	l := &Log{path: filepath.Join(dir, FileName), now: o.Now, host: o.Host, keep: o.Keep, wrap: o.Wrap}
	if err := l.open(); err != nil {
		return nil, err
	}
	return l, nil
}

// open opens the file at l.path and reads its end, under the file lock.
func (l *Log) open() error {
	f, err := os.OpenFile(l.path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return fmt.Errorf("audit: %w", err)
	}
	if st.Mode().Perm()&0o077 != 0 {
		f.Close()
		return fmt.Errorf("audit: %s has mode %v; it must be readable by its owner only (chmod 600 %s)", l.path, st.Mode().Perm(), l.path)
	}
	unlock, err := lockFile(f, true)
	if err != nil {
		f.Close()
		return fmt.Errorf("audit: lock %s: %w", l.path, err)
	}
	defer unlock()
	l.f = f
	if err := l.reload(); err != nil {
		l.f = nil
		f.Close()
		return err
	}
	return nil
}

// reload reads the end of the file: the last records and the head of the
// chain. The caller holds the file lock.
func (l *Log) reload() error {
	st, err := l.f.Stat()
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	size := st.Size()
	from := max(size-tailBytes, 0)
	buf := make([]byte, size-from)
	if _, err := l.f.ReadAt(buf, from); err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("audit: read %s: %w", l.path, err)
	}
	if from > 0 { // the first line read is partial
		if i := bytes.IndexByte(buf, '\n'); i >= 0 {
			buf, from = buf[i+1:], from+int64(i+1)
		}
	}
	seq, head := uint64(0), Genesis
	var recent []Record
	if len(buf) > 0 {
		if buf[len(buf)-1] != '\n' {
			return l.damaged("its last line is incomplete")
		}
		at := from
		// The lines read are checked as Verify would, so a view can say
		// which of them break the chain; a tail that starts mid-file
		// trusts its first line's seq and prev.
		chain := Summary{Head: Genesis}
		for line := range bytes.Lines(buf) {
			raw := bytes.TrimSuffix(line, []byte("\n"))
			r, _, err := unseal(raw)
			switch {
			case err != nil:
				r = Record{Outcome: "unreadable", Error: fmt.Sprintf("the line at byte %d is not a record of the log (%v)", at, err)}
			default:
				if at == from && from > 0 {
					chain.LastSeq, chain.Head = r.Seq-1, r.Prev
				}
				if _, b := check(raw, 0, &chain); b != nil {
					r.Broken = b.Kind + ": " + b.Detail
					chain.LastSeq, chain.Head = r.Seq, r.Hash
				}
			}
			recent = append(recent, r)
			at += int64(len(line))
		}
		last := recent[len(recent)-1]
		if last.Hash == "" || last.Outcome == "unreadable" {
			return l.damaged("its last line is not a record of the chain")
		}
		seq, head = last.Seq, last.Hash
	}
	if len(recent) > l.keep {
		recent = recent[len(recent)-l.keep:]
	}
	l.end, l.seq, l.head, l.recent = size, seq, head, recent
	return nil
}

func (l *Log) damaged(what string) error {
	return fmt.Errorf("audit: %s is damaged: %s; run `treasury audit verify --file %s` to see where, and move the file aside to start a new log",
		l.path, what, l.path)
}

// sync makes l current with the file before an append or a read: it
// reopens the path when the file was moved away or replaced, and reads
// the end again when another process appended (or the file shrank). It
// returns the file lock's release; the caller holds l.mu.
func (l *Log) sync(exclusive bool) (func(), error) {
	if l.f == nil {
		return nil, errors.New("audit: log closed")
	}
	if st, err := l.f.Stat(); err == nil {
		if cur, err := os.Stat(l.path); err != nil || !os.SameFile(st, cur) {
			old := l.f
			if err := l.open(); err != nil {
				l.f = old
				return nil, err
			}
			old.Close()
		}
	}
	unlock, err := lockFile(l.f, exclusive)
	if err != nil {
		return nil, fmt.Errorf("audit: lock %s: %w", l.path, err)
	}
	st, err := l.f.Stat()
	if err != nil {
		unlock()
		return nil, fmt.Errorf("audit: %w", err)
	}
	if st.Size() != l.end {
		if err := l.reload(); err != nil {
			unlock()
			return nil, err
		}
	}
	return unlock, nil
}

// Path is the log file.
func (l *Log) Path() string { return l.path }

// Err is why appends are refused for good (the file's end is damaged),
// or why the last write failed; nil once a write has worked. Writable
// checks again.
func (l *Log) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.broken != nil {
		return l.broken
	}
	return l.unwritable
}

// Writable says whether an append can be written now: nil, or why not.
// After a failed write it does not assume the fault is gone: it writes
// and syncs a probe in the log's directory (check), and only then takes
// appends again.
func (l *Log) Writable() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.writable()
}

// writable is Writable with l.mu held.
func (l *Log) writable() error {
	if l.broken != nil {
		return l.broken
	}
	if l.f == nil {
		return errors.New("audit: log closed")
	}
	if l.unwritable == nil {
		return nil
	}
	if err := l.check(); err != nil {
		return err
	}
	l.unwritable = nil
	return nil
}

// OnAppend registers fn, called after each append of this Log (outside
// its lock).
func (l *Log) OnAppend(fn func()) {
	l.mu.Lock()
	l.hooks = append(l.hooks, fn)
	l.mu.Unlock()
}

// Append writes r as the next line of the chain and syncs it to disk; it
// returns the record as written (Seq, Prev, Time, Host and Hash set). A
// line that could not be written is removed again; when that fails too,
// or the file cannot be synced, the log refuses every later append (Err).
func (l *Log) Append(r Record) (Record, error) {
	l.mu.Lock()
	if err := l.writable(); err != nil {
		l.mu.Unlock()
		return Record{}, err
	}
	unlock, err := l.sync(true)
	if err != nil {
		l.mu.Unlock()
		return Record{}, err
	}
	r.Seq, r.Prev, r.Time, r.Host = l.seq+1, l.head, l.now().UTC(), l.host
	line, h, err := seal(r)
	if err == nil {
		err = l.write(append(line, '\n'))
	}
	if err != nil {
		unlock()
		l.mu.Unlock()
		return Record{}, err
	}
	r.Hash = h
	l.end += int64(len(line) + 1)
	l.seq, l.head = r.Seq, h
	l.recent = append(l.recent, r)
	if len(l.recent) > 2*l.keep {
		l.recent = append([]Record(nil), l.recent[len(l.recent)-l.keep:]...)
	}
	unlock()
	hooks := l.hooks
	l.mu.Unlock()
	for _, fn := range hooks {
		fn()
	}
	return r, nil
}

// write appends one line and syncs the file; the caller holds both locks.
// A line that could not be written in full is removed again, and the log
// is unwritable until a check says otherwise; one that cannot be removed
// breaks the log for good.
func (l *Log) write(line []byte) error {
	if _, err := l.writer(l.f).Write(line); err != nil {
		if terr := l.f.Truncate(l.end); terr != nil {
			l.broken = fmt.Errorf("audit: %s: a line was written in part (%v) and could not be removed (%v)", l.path, err, terr)
			return l.broken
		}
		l.unwritable = fmt.Errorf("audit: %w", err) // a PathError: "write FILE: no space left on device"
		return l.unwritable
	}
	if err := l.f.Sync(); err != nil {
		// The line may or may not be on disk: the file is read again
		// before the next append (its size no longer matches).
		l.unwritable = fmt.Errorf("audit: %w", err)
		return l.unwritable
	}
	return nil
}

func (l *Log) writer(w io.Writer) io.Writer {
	if l.wrap != nil {
		return l.wrap(w)
	}
	return w
}

// Recent returns the last records, newest first, with those other
// processes appended since.
func (l *Log) Recent() ([]Record, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	unlock, err := l.sync(false)
	if err != nil {
		return nil, err
	}
	unlock()
	n := min(len(l.recent), l.keep)
	out := make([]Record, n)
	for i := range n {
		out[i] = l.recent[len(l.recent)-1-i]
	}
	return out, nil
}

// Read returns every record of the file, oldest first; a line that is not
// a record is an error naming it (Verify says more).
func (l *Log) Read() ([]Record, error) {
	var out []Record
	err := scanFile(l.path, func(n int, r Record, err error) error {
		if err != nil {
			return fmt.Errorf("audit: %s line %d: %w", l.path, n, err)
		}
		out = append(out, r)
		return nil
	})
	return out, err
}

// Scan calls fn with every record of the file, oldest first, under a
// shared lock; lines that are not records are skipped and counted.
func (l *Log) Scan(fn func(Record)) (skipped int, err error) {
	f, err := os.Open(l.path)
	if err != nil {
		return 0, fmt.Errorf("audit: %w", err)
	}
	defer f.Close()
	unlock, err := lockFile(f, false)
	if err != nil {
		return 0, fmt.Errorf("audit: lock %s: %w", l.path, err)
	}
	defer unlock()
	err = scanLines(f, func(_ int, r Record, err error) error {
		if err != nil {
			skipped++
			return nil
		}
		fn(r)
		return nil
	})
	return skipped, err
}

func scanFile(path string, fn func(n int, r Record, err error) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	defer f.Close()
	return scanLines(f, fn)
}

// scanLines calls fn with each line's record, or why it is not one.
func scanLines(r io.Reader, fn func(n int, r Record, err error) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), tailBytes)
	for n := 1; sc.Scan(); n++ {
		r, _, err := unseal(sc.Bytes())
		if err := fn(n, r, err); err != nil {
			return err
		}
	}
	return sc.Err()
}

// Close closes the file; later appends fail.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}

// ID is a record's id in tables: its seq (an unreadable line, which has
// none, is named by what says where it is).
func ID(r Record) string {
	if r.Seq == 0 {
		return "?" + r.Error
	}
	return strconv.FormatUint(r.Seq, 10)
}
