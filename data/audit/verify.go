package audit

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
)

// What is wrong with the first broken line.
const (
	BadJSON      = "bad JSON"
	HashMismatch = "hash mismatch"
	SequenceGap  = "sequence gap"
	ChainBroken  = "chain broken"
)

// Break is the first line where the chain does not hold.
type Break struct {
	// Line is the line's number in the file, from 1.
	Line int
	// Kind is BadJSON, HashMismatch, SequenceGap or ChainBroken.
	Kind string
	// Detail says what was found and what it means.
	Detail string
}

func (b *Break) Error() string { return fmt.Sprintf("line %d: %s: %s", b.Line, b.Kind, b.Detail) }

// Summary is what Verify read of an intact log.
type Summary struct {
	Lines   int
	LastSeq uint64
	// Head is the hash of the last line (Genesis for an empty log): noted
	// elsewhere, it shows later whether lines were removed from the end,
	// which the file alone cannot.
	Head string
	// Open are the attempt lines no outcome line names, oldest first:
	// attempts in flight while the log was read, or whose process ended
	// before their answer (killed, out of memory, a power cut). The
	// platform may have applied them: check it, unless a later attempt
	// under the same key has a known outcome (Retry).
	Open []OpenAttempt
}

// OpenAttempt is an attempt line without an outcome.
type OpenAttempt struct {
	Record
	// Retry is the last outcome line of a later attempt of the same
	// action on the same record under the same key, if one ended: a done
	// or failed retry settles what the attempt did (the platform applies a
	// key at most once).
	Retry *Record
}

// Settled reports whether a later attempt under the same key has a known
// outcome (done or failed).
func (o OpenAttempt) Settled() bool {
	return o.Retry != nil && (o.Retry.Outcome == OutcomeDone || o.Retry.Outcome == OutcomeFailed)
}

// Verify reads a log and checks, line by line, that each is a record
// (BadJSON), that its content matches its hash (HashMismatch: the line was
// changed), that its seq follows the previous line's (SequenceGap: a line
// was removed or lines were moved) and that its prev is the previous
// line's hash (ChainBroken). It returns the first break as a *Break; any
// other error is a failure to read.
func Verify(r io.Reader) (s Summary, err error) {
	s = Summary{Head: Genesis}
	open := openAttempts{}
	defer func() { s.Open = open.list() }()
	br := bufio.NewReaderSize(r, 64*1024)
	for {
		line, rerr := br.ReadBytes('\n')
		if len(line) == 0 && errors.Is(rerr, io.EOF) {
			return s, nil
		}
		if rerr != nil && !errors.Is(rerr, io.EOF) {
			return s, fmt.Errorf("audit: line %d: %w", s.Lines+1, rerr)
		}
		s.Lines++
		rec, b := check(bytes.TrimSuffix(line, []byte("\n")), s.Lines, &s)
		if b != nil {
			return s, b
		}
		open.add(rec)
		if rerr != nil { // the last line, without a newline
			return s, nil
		}
	}
}

// openAttempts are the attempt lines read so far that no outcome names,
// by seq.
type openAttempts map[uint64]*OpenAttempt

func (o openAttempts) add(r Record) {
	switch {
	case r.Outcome == OutcomeAttempt:
		o[r.Seq] = &OpenAttempt{Record: r}
	case r.Attempt != 0:
		delete(o, r.Attempt)
		for _, a := range o {
			if a.Action == r.Action && a.Target.ID == r.Target.ID && a.MutationID == r.MutationID && a.IntentID == r.IntentID {
				a.Retry = &r
			}
		}
	}
}

func (o openAttempts) list() []OpenAttempt {
	out := make([]OpenAttempt, 0, len(o))
	for _, a := range o {
		out = append(out, *a)
	}
	slices.SortFunc(out, func(a, b OpenAttempt) int { return cmp.Compare(a.Seq, b.Seq) })
	return out
}

// check checks one line against the chain so far and, when it holds,
// moves the chain on to it and returns its record.
func check(line []byte, n int, s *Summary) (Record, *Break) {
	if len(bytes.TrimSpace(line)) == 0 {
		return Record{}, &Break{Line: n, Kind: BadJSON, Detail: "an empty line"}
	}
	r, h, err := unseal(line)
	switch {
	case errors.Is(err, errNoHash):
		return r, &Break{Line: n, Kind: HashMismatch, Detail: err.Error()}
	case err != nil:
		return r, &Break{Line: n, Kind: BadJSON, Detail: err.Error()}
	case h != r.Hash:
		return r, &Break{Line: n, Kind: HashMismatch, Detail: fmt.Sprintf(
			"the line's content hashes to %s, not to the %s it carries: it was changed after it was written", short(h), short(r.Hash))}
	}
	if want := s.LastSeq + 1; r.Seq != want {
		what := "a line before it is missing"
		if r.Seq < want {
			what = "a line is repeated or out of order"
		}
		return r, &Break{Line: n, Kind: SequenceGap, Detail: fmt.Sprintf("seq %d where %d was expected: %s", r.Seq, want, what)}
	}
	if r.Prev != s.Head {
		prev := "the hash of the line before"
		if n == 1 {
			prev = "the genesis value"
		}
		return r, &Break{Line: n, Kind: ChainBroken, Detail: fmt.Sprintf(
			"prev %s is not %s (%s): a line before it was changed or replaced", short(r.Prev), prev, short(s.Head))}
	}
	s.LastSeq, s.Head = r.Seq, r.Hash
	return r, nil
}

// short abbreviates a hash for messages.
func short(h string) string {
	if len(h) > 12 {
		return h[:12] + "…"
	}
	if h == "" {
		return "(none)"
	}
	return h
}

// VerifyFile verifies the log at path, holding a shared lock on it so no
// append of this or another process is read half-written.
func VerifyFile(path string) (Summary, error) {
	f, err := os.Open(path)
	if err != nil {
		return Summary{}, err
	}
	defer f.Close()
	unlock, err := lockFile(f, false)
	if err != nil {
		return Summary{}, fmt.Errorf("audit: lock %s: %w", path, err)
	}
	defer unlock()
	return Verify(f)
}
