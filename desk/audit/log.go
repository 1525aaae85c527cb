package audit

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"treasury/kit/diskfree"
)

// Options tune Open.
type Options struct {
	// Now stamps each line; time.Now when nil (the host's clock, never a
	// simulated one: the log says when a person acted).
	Now func() time.Time
	// Host names the machine in each line; os.Hostname when empty.
	Host string
	// Cmd names the command of this process in each line (Proc.Cmd).
	Cmd string
	// Who is the process's own operator, named on the lines the log
	// writes of itself (a repair); the local OS user when zero.
	Who Who
	// ReadOnly opens the log for reading only, whatever the directory's
	// permissions (--read-only): every append is refused.
	ReadOnly bool
	// Follow, when set, is a follower (see Log.Follow) from the first
	// line Open reads: the log is read once at start, where Follow
	// afterwards reads it a second time.
	Follow func(Record)
	// Keep is how many of the last records Recent returns (default 1000).
	Keep int
	// Replica, when set, is the site's record, which every append goes
	// to first (see Replica): the local file is its copy.
	Replica Replica
	// Wrap, when set, wraps every write of the log and of its writability
	// probe: tests give it a writer that fails as a full disk does.
	Wrap func(io.Writer) io.Writer
	// OnAppend, when set, is told each append this process tried (a
	// record decided: not one whose decide refused), how long it took
	// (the lock, the other processes' lines, the replica, the write and
	// its sync) and its failure: the process's metrics.
	OnAppend func(d time.Duration, err error)
}

// ErrReadOnly is why a log opened with Options.ReadOnly refuses appends.
var ErrReadOnly = errors.New("audit: the log is open read-only (--read-only or read_only: true)")

// Log is one process's view and writer of the log, shared by every
// session, safe for concurrent use. Appends are serialized by its mutex
// and, against other processes on the same file, by an exclusive advisory
// file lock under which the Log first reads what they appended, so the
// chain stays one chain and a decision taken under it (AppendDecided) sees
// every line before it.
type Log struct {
	dir, path string
	now       func() time.Time
	host      string
	proc      Proc
	who       Who
	keep      int
	wrap      func(io.Writer) io.Writer
	readOnly  bool // Options.ReadOnly
	live      *procs
	replica   Replica // Options.Replica
	onAppend  func(time.Duration, error)

	mu sync.Mutex
	f  *os.File // nil while the file cannot be opened at all
	// cannot is why the file is open for reading only (nil when it is
	// open for writing): Options.ReadOnly, or a directory or file this
	// process may not write. Writable tries again.
	cannot error
	// end is the size of the complete lines read or written; a torn tail
	// past it is not read. last is the last line read, found at lastAt:
	// still there at the next read, or the file was cut and written again
	// beneath this process (lastStill).
	end    int64
	last   []byte
	lastAt int64
	// w is the chain as read so far. A file read again from its start
	// (shrunk, replaced) gives the followers its lines again: they apply
	// a line twice as once.
	w       walker
	shrunk  []Break // the files found shorter or replaced while open
	closed  bool
	recent  []Record
	notices []string
	// unwritable is why the last write failed (a full disk, a file system
	// remounted read-only): every later append and Writable checks the
	// directory again first (check), and clear it once a probe is written
	// and synced.
	unwritable error
	followers  []func(Record)
	hooks      []func()
	// joined is set once the local file was compared with the replica;
	// diverged is why every append is refused when they differ.
	joined   bool
	diverged error
	// siteErr is why the replica could not be reached at the last try.
	siteErr error
	// unregister ends this process's word to the site that it runs.
	unregister func()

	// What waits to be written (mend.go): owed outcomes, attempt lines to
	// write again (lostOpen, found missing among those watched
	// while the file is read again), damage found and not yet said as a
	// line (unsaid); moved maps an attempt line written again to its copy.
	owed     []Record
	watched  map[uint64]Record
	lostOpen []Record
	moved    map[uint64]uint64
	unsaid   []Break
}

// Open opens (creating it, mode 0600, in a directory of mode 0700) the log
// in dir and reads it whole: the chain and its breaks, the last records,
// the attempts without an outcome. A torn last line (a crash mid-write) is
// moved aside to a file beside the log and the repair appended as a line.
// A log that cannot be written (ReadOnly, a read-only directory or file)
// is opened for reading: it starts, and every append is refused with the
// reason (Writable). Open fails only when the file cannot be read.
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
	if o.Who == (Who{}) {
		o.Who = Who{Via: ViaLocal, User: osUser()}
	}
	l := &Log{dir: dir, path: filepath.Join(dir, FileName), now: o.Now, host: o.Host, who: o.Who, keep: o.Keep,
		wrap: o.Wrap, readOnly: o.ReadOnly, replica: o.Replica, onAppend: o.OnAppend, proc: Proc{ID: newProcID(), PID: os.Getpid(), Cmd: o.Cmd}}
	l.live = &procs{dir: filepath.Join(dir, ProcsDir), self: l.proc.ID, host: l.host}
	if o.Follow != nil {
		l.followers = append(l.followers, o.Follow)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.openFile(); err != nil {
		return nil, err
	}
	if lv, ok := o.Replica.(Lives); ok && l.cannot == nil {
		l.unregister = lv.Register(l.proc.ID) // this process runs, for the site's other hosts
	}
	return l, nil
}

// openFile opens the file at l.path, for writing when it can, and reads
// it from its start under the file lock. The caller holds l.mu.
func (l *Log) openFile() error {
	f, cannot := l.openWritable()
	if cannot != nil {
		var err error
		if f, err = os.Open(l.path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("audit: %w", err)
		}
	}
	if l.f != nil {
		l.f.Close()
	}
	l.f, l.cannot, l.end, l.last = f, cannot, 0, nil
	if f == nil {
		return nil // nothing to read yet, and nothing can be written
	}
	if cannot == nil {
		l.register()
	}
	unlock, err := lockFile(f, cannot == nil)
	if err != nil {
		return fmt.Errorf("audit: lock %s: %w", l.path, err)
	}
	defer unlock()
	return l.readNew(cannot == nil)
}

// openWritable opens the file for appending (creating it and its
// directory), or says why it cannot be: ReadOnly, permissions, a
// read-only file system. A file that group or others can read is made
// 0600, or not written when it cannot be.
func (l *Log) openWritable() (*os.File, error) {
	if l.readOnly {
		return nil, ErrReadOnly
	}
	if err := os.MkdirAll(l.dir, 0o700); err != nil {
		return nil, fmt.Errorf("audit: the state directory cannot be written: %w", err)
	}
	f, err := os.OpenFile(l.path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("audit: %s cannot be written: %w", l.path, err)
	}
	// The directory too: a torn line is moved aside in it, each process
	// marks itself running in it, and every write is checked with a probe
	// in it. A probe is written and synced, not assumed.
	if err := diskfree.Probe(l.dir, l.wrap); err != nil {
		f.Close()
		return nil, fmt.Errorf("audit: the state directory %s cannot be written: %w", l.dir, err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("audit: %w", err)
	}
	if perm := st.Mode().Perm(); perm&0o077 != 0 {
		if err := f.Chmod(0o600); err != nil {
			f.Close()
			return nil, fmt.Errorf("audit: %s has mode %04o (others may read who did what to which money) and cannot be made 0600: %w", l.path, perm, err)
		}
		l.notices = append(l.notices, fmt.Sprintf("audit: %s had mode %04o: made 0600 (it names who did what to which money)", l.path, perm))
	}
	return f, nil
}

// Path is the log file.
func (l *Log) Path() string { return l.path }

// Self is this process, as its lines name it.
func (l *Log) Self() Proc { return l.proc }

// Notices are what the log did on its own since the last call, which the
// operator should read in the log: a torn line moved aside (at open, or
// before an append), a mode made 0600. Each is returned once.
func (l *Log) Notices() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.notices
	l.notices = nil
	return out
}

// OnChange registers fn, called (outside the log's lock) after each
// append of this Log and after a read that found lines of other
// processes.
func (l *Log) OnChange(fn func()) {
	l.mu.Lock()
	l.hooks = append(l.hooks, fn)
	l.mu.Unlock()
}

// Err is why appends are refused now (the file cannot be written, or the
// last write failed); nil once a write has worked. Writable checks again.
func (l *Log) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.cannot != nil {
		return l.cannot
	}
	return l.unwritable
}

// Writable says whether an append can be written now: nil, or why not.
// It does not assume a fault is gone: a file opened for reading only is
// opened for writing again, and after a failed write a probe is written
// and synced in the log's directory (check); only then are appends taken
// again.
//
// With a replica, an append is refused too while the replica could not
// be reached at the last try (the process tries again periodically:
// Refresh), or while the local copy differs from it.
//
// Once it can be written, what waits to be written is (mend): an outcome
// line that could not be written when its answer came, an attempt line to
// write again, damage to say.
func (l *Log) Writable() error {
	l.mu.Lock()
	err := l.writable()
	if err == nil {
		err = cmp.Or(l.diverged, l.siteErr)
	}
	mend := err == nil && l.needsMend()
	l.mu.Unlock()
	if mend {
		return l.locked(func() error { return nil })
	}
	return err
}

// writable is Writable with l.mu held.
func (l *Log) writable() error {
	if l.closed {
		return errors.New("audit: log closed")
	}
	if l.cannot != nil {
		if l.readOnly {
			return l.cannot
		}
		if err := l.reopenWritable(); err != nil {
			return err
		}
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

// reopenWritable opens for writing a log that was open for reading only,
// once the file can be written: the same file goes on from where it was
// read; another (the file was created or replaced meanwhile) is read from
// its start. The caller holds l.mu.
func (l *Log) reopenWritable() error {
	f, err := l.openWritable()
	if err != nil {
		l.cannot = err
		return err
	}
	same := false
	if l.f != nil {
		a, aerr := l.f.Stat()
		b, berr := f.Stat()
		same = aerr == nil && berr == nil && os.SameFile(a, b)
		l.f.Close()
	}
	l.f, l.cannot = f, nil
	if !same {
		l.w, l.recent, l.end, l.last = walker{}, nil, 0, nil
	}
	l.register()
	return nil
}

// register marks this process running, once it may write: without the
// mark, other processes take its attempts without an outcome as
// interrupted.
func (l *Log) register() {
	if err := l.live.register(); err != nil {
		l.notices = append(l.notices, fmt.Sprintf("audit: this process cannot mark itself running in %s (%v): other processes take its attempts on their way as interrupted", l.live.dir, err))
	}
}

// Append writes r as the next line of the chain and syncs it to disk; it
// returns the record as written (Seq, Prev, Time, Host, Proc and Hash
// set). A line that could not be written is removed again; when that
// fails, the torn line is moved aside at the next append that finds the
// directory writable.
func (l *Log) Append(r Record) (Record, error) {
	return l.AppendDecided(func() (Record, error) { return r, nil })
}

// AppendDecided appends the record decide returns: decide runs after the
// lines of every other process have been read (and given to the
// followers) and with the file locked against their appends, so what it
// decides from the followers' state (which key an action sends) holds
// when its line is written. An error from decide appends nothing and is
// returned as it is.
//
// With a replica (a site), another host may append between the read and
// the append: the log then reads its lines and decide runs again.
func (l *Log) AppendDecided(decide func() (Record, error)) (Record, error) {
	start := time.Now()
	var r Record
	var refused error // decide's own: no append, nothing to tell OnAppend
	for range maxRaces {
		err := l.locked(func() error {
			var err error
			if r, err = decide(); err != nil {
				refused = err
				return err
			}
			r, err = l.appendLocked(r)
			return err
		})
		if refused != nil {
			return r, refused
		}
		if !errors.Is(err, ErrBehind) {
			l.appended(start, err)
			return r, err
		}
	}
	err := fmt.Errorf("audit: %d hosts' appends to %s came first in a row: refused, try again", maxRaces, l.replica.Name())
	l.appended(start, err)
	return Record{}, err
}

// appended tells Options.OnAppend of an append that started at start.
func (l *Log) appended(start time.Time, err error) {
	if l.onAppend != nil {
		l.onAppend(time.Since(start), err)
	}
}

// locked runs fn with the log writable, read to its end and locked
// against every other process's append, then tells OnChange.
func (l *Log) locked(fn func() error) error {
	l.mu.Lock()
	if err := l.writable(); err != nil {
		l.mu.Unlock()
		return err
	}
	end, siteDown := l.end, l.siteErr != nil
	unlock, err := l.sync(true)
	if err != nil {
		l.mu.Unlock()
		return err
	}
	if err = l.pullReplica(); err == nil {
		err = l.mend()
	}
	if err == nil {
		err = fn()
	}
	unlock()
	hooks := l.hooks
	// A change is a line read or written, or the site found reachable
	// again or not (the alerts say it).
	changed := l.end != end || siteDown != (l.siteErr != nil)
	l.mu.Unlock()
	if changed {
		for _, fn := range hooks {
			fn()
		}
	}
	return err
}

// appendLocked writes r at the end of the chain; the caller holds l.mu
// and the exclusive file lock, and has read the file to its end.
func (l *Log) appendLocked(r Record) (Record, error) {
	proc := l.proc
	if r.Replaces != 0 {
		// An attempt line written again: it stays the sending process's.
		r.By = &proc
	} else {
		r.Host, r.Proc = l.host, &proc
	}
	if r.Attempt != 0 {
		r.Attempt = l.attemptOf(r.Attempt)
	}
	r.Seq, r.Prev, r.Time = l.w.s.LastSeq+1, l.head(), l.now().UTC()
	line, h, err := seal(r)
	if err != nil {
		return Record{}, err
	}
	if err := l.putReplica(r.Seq, line); err != nil {
		return Record{}, err
	}
	if err := l.write(append(line, '\n')); err != nil {
		return Record{}, err
	}
	r.Hash = h
	l.take(line, l.end)
	l.end += int64(len(line) + 1)
	return r, nil
}

// head is the hash the next line chains to.
func (l *Log) head() string {
	if l.w.s.Head == "" {
		return Genesis
	}
	return l.w.s.Head
}

// write appends bytes and syncs the file; the caller holds both locks. A
// write that fails part-way is cut off again (when that fails too, the
// torn bytes are moved aside by the next append), and the log is
// unwritable until a check says otherwise.
func (l *Log) write(b []byte) error {
	if _, err := l.writer(l.f).Write(b); err != nil {
		_ = l.f.Truncate(l.end)
		l.unwritable = fmt.Errorf("audit: %w", err) // a PathError: "write FILE: no space left on device"
		return l.unwritable
	}
	if err := l.f.Sync(); err != nil {
		// The line may or may not be on disk: the file is read again
		// before the next append.
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

// Close closes the file and ends this process's mark of running; later
// appends fail.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.live.release()
	if l.unregister != nil {
		l.unregister()
		l.unregister = nil
	}
	l.closed = true
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
