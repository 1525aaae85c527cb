package audit

import (
	"cmp"
	"fmt"
	"strconv"
)

// What the log mends on its own, so that damage never takes a request's
// key off the chain:
//
//   - An outcome line that could not be written when its answer came (a
//     full disk, a file system turned read-only, the site unreachable) is
//     owed: the process that holds it writes it, before any other line, as
//     soon as the log can be written (the next append, Writable, Refresh).
//   - An attempt line without an outcome that this process had read, and
//     that is no longer on the chain as it was once the file was found
//     shrunk or replaced (torn while its request waited, a line removed),
//     is written again whole (Record.Replaces), and every outcome that
//     names it names the copy: the outcome's attempt is a line that
//     carries the request and the key.
//   - What a running process found done to the file (shrunk, replaced) is
//     a line of the log (ActionDamage), so `treasury audit verify` reports
//     the same break the header does, until an acknowledgement.

// ErrOwed says an outcome line could not be written now: the log keeps
// it and writes it as soon as it can (AppendOutcome).
type ErrOwed struct{ Err error }

func (e ErrOwed) Error() string {
	return "its outcome line is held until the audit log can be written (" + e.Err.Error() + ")"
}

func (e ErrOwed) Unwrap() error { return e.Err }

// AppendOutcome appends r, the outcome line of an attempt this process
// wrote (r.Attempt), as Append does. When the line cannot be written now,
// the log keeps it and writes it before any other line as soon as it can
// (the next append, Writable, Refresh), and returns the failure as
// ErrOwed; a closed log owes nothing (the attempt stays open, and the
// next decision on its record reconciles it with the platform).
func (l *Log) AppendOutcome(r Record) (Record, error) {
	got, err := l.Append(r)
	if err == nil {
		return got, nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return Record{}, err
	}
	l.owed = append(l.owed, r)
	return Record{}, ErrOwed{err}
}

// needsMend says whether lines are waiting to be written by this process:
// owed outcomes, attempts to write again, damage to say. The caller holds
// l.mu.
func (l *Log) needsMend() bool {
	return len(l.owed) > 0 || len(l.lostOpen) > 0 || len(l.unsaid) > 0
}

// mend writes what waits to be written, in order: the damage found, the
// attempt lines to write again, then the owed outcomes (which may name
// those copies). The caller holds l.mu and the exclusive file lock, and
// has read the file (and the replica) to its end.
func (l *Log) mend() error {
	for len(l.unsaid) > 0 {
		b := l.unsaid[0]
		if _, err := l.appendLocked(Record{Who: l.who, Action: ActionDamage, Outcome: OutcomeDone, Reason: b.Detail,
			Target: Target{Kind: "audit", ID: "file", Detail: map[string]string{"kind": b.Kind}}}); err != nil {
			return err
		}
		l.unsaid = l.unsaid[1:]
		// The file says it now: its line is the break the state reports.
		for i := range l.shrunk {
			if l.shrunk[i].Digest == b.Digest {
				l.shrunk = append(l.shrunk[:i], l.shrunk[i+1:]...)
				break
			}
		}
	}
	for len(l.lostOpen) > 0 {
		// Taken off first: the copy, once read, clears what stands for it
		// (seen).
		r := l.lostOpen[0]
		l.lostOpen = l.lostOpen[1:]
		if _, again := l.moved[r.Seq]; again {
			continue
		}
		old := r.Seq
		r.Replaces, r.Seq, r.Prev, r.Hash, r.Broken = old, 0, "", "", ""
		got, err := l.appendLocked(r)
		if err != nil {
			r.Seq, r.Replaces = old, 0
			l.lostOpen = append([]Record{r}, l.lostOpen...)
			return err
		}
		l.notices = append(l.notices, fmt.Sprintf(
			"audit: the attempt line seq %d (%s of %s under %s) was no longer on the chain as it was written: written again whole as seq %d, which its outcome names",
			old, r.Action, r.Target.ID, keyOf(r), got.Seq))
	}
	for len(l.owed) > 0 {
		if _, err := l.appendLocked(l.owed[0]); err != nil {
			return err
		}
		l.owed = l.owed[1:]
	}
	return nil
}

// keyOf is a record's idempotency key, whichever it is.
func keyOf(r Record) string {
	if r.MutationID != "" {
		return "mutationId " + r.MutationID
	}
	return "intentId " + r.IntentID
}

// watchOpen notes, as the file is found shrunk or replaced, the attempt
// lines without an outcome read so far: once it is read again, each that
// is not on the chain as it was is written again (settleWatch). The
// caller holds l.mu.
func (l *Log) watchOpen() {
	if l.watched == nil {
		l.watched = map[uint64]Record{}
	}
	for seq, a := range l.w.open {
		if _, ok := l.watched[seq]; !ok {
			l.watched[seq] = a.Record
		}
	}
}

// seen takes a line read into account for the watched attempts and the
// copies: the watched line found as it was, or a copy of it written. The
// caller holds l.mu.
func (l *Log) seen(r Record) {
	if c, ok := l.watched[r.Seq]; ok && r.Hash == c.Hash {
		delete(l.watched, r.Seq)
	}
	// Found again as it was (a site's copy of it, written back to this
	// host's file): nothing to write again.
	for i := 0; i < len(l.lostOpen); i++ {
		if l.lostOpen[i].Seq == r.Seq && l.lostOpen[i].Hash == r.Hash {
			l.lostOpen = append(l.lostOpen[:i], l.lostOpen[i+1:]...)
			i--
		}
	}
	if r.Replaces == 0 || r.Outcome != OutcomeAttempt {
		return
	}
	if l.moved == nil {
		l.moved = map[uint64]uint64{}
	}
	l.moved[r.Replaces] = r.Seq
	delete(l.watched, r.Replaces)
	for i := 0; i < len(l.lostOpen); i++ {
		if l.lostOpen[i].Seq == r.Replaces {
			l.lostOpen = append(l.lostOpen[:i], l.lostOpen[i+1:]...)
			i--
		}
	}
}

// settleWatch ends a reading of the file from its start: the watched
// attempts not found as they were are to be written again. The caller
// holds l.mu.
func (l *Log) settleWatch() {
	for seq, r := range l.watched {
		if _, again := l.moved[seq]; !again {
			l.lostOpen = append(l.lostOpen, r)
		}
		delete(l.watched, seq)
	}
}

// attemptOf is the seq an outcome names for the attempt line of seq: the
// copy written last when that line was written again.
func (l *Log) attemptOf(seq uint64) uint64 {
	for i := 0; i < 8; i++ { // a copy of a copy, at most a few times
		next, ok := l.moved[seq]
		if !ok {
			break
		}
		seq = next
	}
	return seq
}

// unsaidDamage queues the damage a running process found, to be written
// as a line (mend). The caller holds l.mu.
func (l *Log) unsaidDamage(b Break) {
	l.unsaid = append(l.unsaid, b)
}

// damageBreak is the break a damage line reports.
func damageBreak(r Record) *Break {
	who := "a process"
	if r.Proc != nil {
		who = r.Proc.String()
	}
	if r.Host != "" {
		who += " on " + r.Host
	}
	return &Break{Kind: cmp.Or(r.Target.Detail["kind"], Shrunk), Reported: true,
		Detail: r.Reason + " (reported by " + who + " as seq " + strconv.FormatUint(r.Seq, 10) + ")"}
}
