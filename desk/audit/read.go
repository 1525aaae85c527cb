package audit

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
)

// readNew reads the lines appended since l.end and gives each to the
// chain, the recent records and the followers. A tail without its newline
// is read only when it is a record; otherwise, with the exclusive lock
// held (exclusive), it is a torn write whose process ended (a writer
// holds the lock until its line is synced): it is moved aside
// (repairTorn). The caller holds l.mu and the file lock.
func (l *Log) readNew(exclusive bool) error {
	st, err := l.f.Stat()
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	size := st.Size()
	if size == l.end {
		return nil
	}
	buf := make([]byte, size-l.end)
	if _, err := l.f.ReadAt(buf, l.end); err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("audit: %w", err)
	}
	at := l.end
	for len(buf) > 0 {
		i := bytes.IndexByte(buf, '\n')
		if i < 0 {
			return l.tail(buf, at, exclusive)
		}
		l.take(buf[:i], at)
		at += int64(i + 1)
		buf = buf[i+1:]
		l.end = at
	}
	return nil
}

// tail handles the bytes after the last newline, at offset at.
func (l *Log) tail(raw []byte, at int64, exclusive bool) error {
	if !exclusive {
		return nil // read when a writer holds the lock, which settles it
	}
	if _, _, err := unseal(raw); err == nil {
		// A whole record whose newline was not written: complete it.
		if err := l.write([]byte("\n")); err != nil {
			return err
		}
		l.take(raw, at)
		l.end = at + int64(len(raw)) + 1
		return nil
	}
	return l.repairTorn(raw, at)
}

// lastStill says whether the last line read is still where it was read:
// the file was not cut and written again beneath this process (a torn
// line repaired by another, which appended since). The caller holds the
// file lock.
func (l *Log) lastStill() bool {
	if len(l.last) == 0 {
		return true
	}
	buf := make([]byte, len(l.last)+1)
	if _, err := l.f.ReadAt(buf, l.lastAt); err != nil {
		return false
	}
	return bytes.Equal(buf[:len(l.last)], l.last) && buf[len(l.last)] == '\n'
}

// take gives one complete line, found at offset at, to the chain, the
// recent records and the followers.
func (l *Log) take(raw []byte, at int64) {
	l.last, l.lastAt = append(l.last[:0], raw...), at
	r, b := l.w.line(raw)
	if b != nil && b.Kind == BadJSON {
		r = Record{Outcome: "unreadable", Error: fmt.Sprintf("the line at byte %d is not a record of the log (%s)", at, b.Detail)}
	}
	if b != nil {
		r.Broken = b.Kind + ": " + b.Detail
	}
	l.remember(r)
	l.seen(r)
	if r.Action == ActionAck && r.Target.Detail["break"] == ReportedBreaks {
		for i := range l.shrunk {
			if l.shrunk[i].Ack == nil {
				l.shrunk[i].Ack = &r
			}
		}
		l.unsaid = nil // acknowledged before it was said: nothing to report

	}
	if r.Seq != 0 {
		for _, fn := range l.followers {
			fn(r)
		}
	}
}

// remember keeps r among the last records.
func (l *Log) remember(r Record) {
	l.recent = append(l.recent, r)
	if len(l.recent) > 2*l.keep {
		l.recent = append([]Record(nil), l.recent[len(l.recent)-l.keep:]...)
	}
}

// sync makes l current with the file before an append or a read: it
// reopens the path when the file was moved away or replaced, and reads
// what other processes appended. A file found shorter than what was read
// is reported (a Shrunk break) and read again from its start. It returns
// the file lock's release; the caller holds l.mu.
func (l *Log) sync(exclusive bool) (func(), error) {
	if l.closed {
		return nil, errors.New("audit: log closed")
	}
	if l.f == nil {
		if err := l.openFile(); err != nil {
			return nil, err
		}
		if l.f == nil {
			l.settleWatch()
			return func() {}, nil
		}
	}
	if st, err := l.f.Stat(); err == nil {
		if cur, err := os.Stat(l.path); err != nil || !os.SameFile(st, cur) {
			how := "replaced"
			if err != nil {
				how = "moved away or removed"
			}
			l.lost(fmt.Sprintf("the file was %s while this process had it open (%d bytes read)", how, l.end))
			if err := l.openFile(); err != nil {
				return nil, err
			}
			if l.f == nil {
				l.settleWatch()
				return func() {}, nil
			}
		}
	}
	unlock, err := lockFile(l.f, exclusive && l.cannot == nil)
	if err != nil {
		return nil, fmt.Errorf("audit: lock %s: %w", l.path, err)
	}
	st, err := l.f.Stat()
	if err != nil {
		unlock()
		return nil, fmt.Errorf("audit: %w", err)
	}
	switch {
	case st.Size() < l.end:
		l.lost(fmt.Sprintf("the file shrank from %d to %d bytes while this process had it open: lines were removed", l.end, st.Size()))
		l.end = 0
	case !l.lastStill():
		// Cut and written again past where this process had read: the
		// size alone cannot tell.
		l.lost(fmt.Sprintf("the file was cut and written again while this process had it open: its line at byte %d is not the one read there", l.lastAt))
		l.end = 0
	}
	if err := l.readNew(exclusive && l.cannot == nil); err != nil {
		unlock()
		return nil, err
	}
	l.settleWatch()
	return unlock, nil
}

// lost records a file found shorter or replaced and starts reading the
// chain afresh.
//
// The attempts without an outcome read so far are watched while it is read
// again: one not found as it was is written again (mend.go). What was found
// is said as a line of the log too, so that Verify reports it as the
// header does.
func (l *Log) lost(detail string) {
	l.last = l.last[:0]
	b := Break{Kind: Shrunk, Detail: detail, Digest: digest([]byte(detail + l.now().String()))}
	l.shrunk = append(l.shrunk, b)
	if !l.readOnly {
		l.unsaidDamage(b)
	}
	l.watchOpen()
	l.w, l.recent = walker{}, nil
}

// Follow calls fn with every record of the log, oldest first: at once
// with those read so far, then with each line appended, by this process or
// another (read at the next append, Refresh or Recent), in the file's
// order, each once. fn runs with the log locked: it must not call the Log.
// Lines that are not records are not given.
func (l *Log) Follow(fn func(Record)) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	unlock, err := l.sync(false)
	if err != nil {
		return err
	}
	defer unlock()
	err = l.replay(fn)
	l.followers = append(l.followers, fn)
	return err
}

// replay gives fn the records of the file's complete lines read so far.
// The caller holds l.mu and the file lock.
func (l *Log) replay(fn func(Record)) error {
	if l.f == nil {
		return nil
	}
	return scanLines(io.NewSectionReader(l.f, 0, l.end), func(_ int, r Record, err error) error {
		if err == nil && r.Seq != 0 {
			fn(r)
		}
		return nil
	})
}

// Refresh reads what other processes appended since the last read, and
// tells OnChange when there was anything.
//
// With a replica, it reads what other hosts appended to it too (Pull,
// when the local copy can be written), and says why when it cannot be
// reached.
func (l *Log) Refresh() error {
	l.mu.Lock()
	mend := l.needsMend()
	l.mu.Unlock()
	if mend {
		_ = l.Writable() // writes what is owed once it can; why not is the state's
	}
	var pulled error
	l.mu.Lock()
	copies := l.replica != nil && l.cannot == nil && l.unwritable == nil // it can write what it pulls
	l.mu.Unlock()
	if copies {
		if pulled = l.Pull(); pulled == nil {
			return nil
		}
	}
	if err := l.RefreshLocal(); err != nil {
		return err
	}
	return pulled
}

// RefreshLocal is Refresh without the site: it reads what other
// processes appended to the local file, and asks nothing of the network,
// so a session may call it as a key is pressed (Actor.Key) and a list of
// the records be read while the site cannot be reached. What other hosts
// appended comes through the replica's watcher (Pull) and the periodic
// Refresh within moments, and an append reads the site again before it
// decides anything.
func (l *Log) RefreshLocal() error { return l.refreshLocal(true) }

// refreshLocal is RefreshLocal; tell says whether OnChange is told of
// what it read (not when a follower of OnChange reads: Recent).
func (l *Log) refreshLocal(tell bool) error {
	l.mu.Lock()
	end, lost := l.end, len(l.shrunk)
	unlock, err := l.sync(false)
	if err != nil {
		l.mu.Unlock()
		return err
	}
	unlock()
	changed := l.end != end || len(l.shrunk) != lost
	hooks := l.hooks
	l.mu.Unlock()
	if changed && tell {
		for _, fn := range hooks {
			fn()
		}
	}
	return nil
}

// Recent returns the last records, newest first, with those other
// processes appended since (RefreshLocal: the local copy, readable while
// the site is not). It tells OnChange nothing: its callers are what
// OnChange tells to read (the store's Audit topic), and telling them from
// inside their own read would have them wait on themselves.
func (l *Log) Recent() ([]Record, error) {
	if err := l.refreshLocal(false); err != nil {
		return nil, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
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
	f, err := os.Open(l.path)
	if err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	defer f.Close()
	var out []Record
	err = scanLines(f, func(n int, r Record, err error) error {
		if err != nil {
			return fmt.Errorf("audit: %s line %d: %w", l.path, n, err)
		}
		out = append(out, r)
		return nil
	})
	return out, err
}

// scanLines calls fn with each line's record, or why it is not one.
func scanLines(r io.Reader, fn func(n int, r Record, err error) error) error {
	br := bufio.NewReaderSize(r, 64*1024)
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			rec, _, uerr := unseal(bytes.TrimSuffix(line, []byte("\n")))
			if ferr := fn(n, rec, uerr); ferr != nil {
				return ferr
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}
