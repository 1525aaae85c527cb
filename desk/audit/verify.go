package audit

import (
	"bufio"
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
)

// What is wrong with a broken line.
const (
	BadJSON      = "bad JSON"
	HashMismatch = "hash mismatch"
	SequenceGap  = "sequence gap"
	ChainBroken  = "chain broken"
	// Torn is a last line without its newline that is not a record: a
	// write cut short (a crash, a full disk). The Log moves it aside.
	Torn = "torn last line"
	// Shrunk is a file found shorter, or replaced, while a process had it
	// open: lines were removed or the log was swapped.
	Shrunk = "file shrunk or replaced"
	// Diverged is a local copy that differs from the site's record
	// (Replica): this host's lines are not the site's.
	Diverged = "differs from the site's record"
	// OffChain is an outcome line whose attempt is not a line that
	// carries its request and key: the chain of that request is broken.
	OffChain = "outcome off its attempt"
)

// Break is a line where the chain does not hold.
type Break struct {
	// Line is the line's number in the file, from 1 (0 for Shrunk).
	Line int
	// Kind is BadJSON, HashMismatch, SequenceGap, ChainBroken, Torn or
	// Shrunk.
	Kind string
	// Detail says what was found and what it means.
	Detail string
	// Digest is the SHA-256 (hex) of the line's bytes as found: with
	// Line, what an acknowledgement names, so that a line changed again
	// is a new break.
	Digest string
	// Ack is the line that acknowledged this break, nil while none has.
	Ack *Record
	// Reported says the break is a damage line (ActionDamage): what a
	// running process found done to the file, said in the chain, which
	// itself holds.
	Reported bool
}

func (b *Break) Error() string { return fmt.Sprintf("line %d: %s: %s", b.Line, b.Kind, b.Detail) }

// ID names a break for an acknowledgement: its line and digest.
func (b Break) ID() string { return strconv.Itoa(b.Line) + ":" + b.Digest }

// Summary is what Verify read of a log.
type Summary struct {
	Lines   int
	LastSeq uint64
	// Head is the hash of the last line (Genesis for an empty log): noted
	// elsewhere, it shows later whether lines were removed from the end,
	// which the file alone cannot.
	Head string
	// Breaks are every break of the chain, in the file's order, each with
	// the acknowledgement it was given, if any. Verify reads on past a
	// break: the lines after it are checked against each other.
	Breaks []Break
	// Open are the attempt lines no outcome line names, oldest first,
	// among every line that could be read, before a break or after it:
	// attempts in flight while the log was read, or whose process ended
	// before their answer (killed, out of memory, a power cut). The
	// platform may have applied them: check it, unless a later attempt
	// under the same key has a known outcome (Retry).
	Open []OpenAttempt
	// Settled are the attempt lines no outcome line names whose key a
	// later attempt settled (OpenAttempt.Settled), oldest first: the
	// platform answered that key.
	Settled []OpenAttempt
	// Unknown are the outcome lines that left a key unknown (no answer
	// said whether the platform applied it) which no later line of the
	// same key settled: the next decision on the record reconciles each.
	Unknown []Record
	// Torn are the repair lines of torn lines that were attempts (the
	// repair could read so much) and were not written again: if the
	// attempt was whole once, its request may have been sent with its key
	// off the chain; a write cut short by a crash sent nothing.
	Torn []Record
}

// Unacknowledged are the breaks no operator has acknowledged.
func (s Summary) Unacknowledged() []Break {
	var out []Break
	for _, b := range s.Breaks {
		if b.Ack == nil {
			out = append(out, b)
		}
	}
	return out
}

// OpenAttempt is an attempt line without an outcome.
type OpenAttempt struct {
	Record
	// AfterBreak says the line comes after a break of the chain: it is
	// read, but the chain does not vouch for it.
	AfterBreak bool
	// Retry is the last outcome line of a later attempt of the same
	// action on the same record under the same key, if one ended: a done
	// or failed retry settles what the attempt did (the platform applies a
	// key at most once).
	Retry *Record
}

// Settled reports whether a later attempt under the same key has a known
// outcome (done or failed).
func (o OpenAttempt) Settled() bool {
	return o.Retry != nil && (o.Retry.Outcome == OutcomeDone || o.Retry.Outcome == OutcomeFailed || o.Retry.Outcome == OutcomeSuperseded)
}

// Verify reads a log and checks, line by line, that each is a record
// (BadJSON), that its content matches its hash (HashMismatch: the line was
// changed), that its seq follows the previous line's (SequenceGap: a line
// was removed or lines were moved) and that its prev is the previous
// line's hash (ChainBroken); a last line without its newline that is not a
// record is Torn. It reads on past a break (Summary.Breaks has them all,
// with their acknowledgements) and lists the attempts without an outcome
// of every line it could read. It returns the first break no one has
// acknowledged as a *Break error; any other error is a failure to read.
func Verify(r io.Reader) (Summary, error) {
	w := walker{strict: true}
	br := bufio.NewReaderSize(r, 64*1024)
	for {
		line, rerr := br.ReadBytes('\n')
		if len(line) == 0 && errors.Is(rerr, io.EOF) {
			break
		}
		if rerr != nil && !errors.Is(rerr, io.EOF) {
			return w.summary(), fmt.Errorf("audit: line %d: %w", w.s.Lines+1, rerr)
		}
		if rerr != nil { // the last line, without a newline
			w.last(line)
			break
		}
		w.line(bytes.TrimSuffix(line, []byte("\n")))
	}
	s := w.summary()
	if un := s.Unacknowledged(); len(un) > 0 {
		return s, &un[0]
	}
	return s, nil
}

// walker checks the lines of a log one after another: the chain so far,
// its breaks and the attempts without an outcome.
type walker struct {
	s Summary
	// resync is set after a break that left no hash to chain to (a line
	// that is not a record): the next record starts the chain again.
	resync bool
	open   openAttempts
	// strict (Verify) checks that every outcome names a line that carries
	// its request and key: attempts are the keys of every attempt line,
	// by seq; replaced the seqs of attempt lines written again; torn the
	// repairs of torn attempt lines, by seq.
	strict   bool
	attempts map[uint64]string
	replaced map[uint64]bool
	torn     map[uint64]Record
	unknown  map[string]Record // by key
}

// line checks one complete line (without its newline) and returns its
// record (a zero Record with the break when it is not one) and the break
// it makes, if any.
func (w *walker) line(raw []byte) (Record, *Break) {
	w.s.Lines++
	r, b := w.check(raw)
	if b == nil && r.Action == ActionDamage {
		b = damageBreak(r)
	}
	if b == nil && w.strict {
		b = w.offChain(r)
	}
	if b != nil {
		b.Line, b.Digest = w.s.Lines, digest(raw)
		w.s.Breaks = append(w.s.Breaks, *b)
	}
	switch {
	case r.Hash != "" && (b == nil || b.Kind != BadJSON):
		// The chain goes on from the hash the line carries: an edited
		// line is one break, and the line after it still chains to it.
		w.s.LastSeq, w.s.Head, w.resync = r.Seq, r.Hash, false
	case b != nil:
		w.resync = true
	}
	if b == nil || b.Kind != BadJSON {
		w.note(r, w.broken())
	}
	return r, b
}

// broken says whether a break of the chain came before: a damage line
// reports one, while the chain after it holds.
func (w *walker) broken() bool {
	for _, b := range w.s.Breaks {
		if !b.Reported {
			return true
		}
	}
	return false
}

// offChain checks, in Verify, that an outcome line names the attempt line
// of its request and key (or a copy of it written again), and keeps what
// later lines are checked against.
func (w *walker) offChain(r Record) *Break {
	key := cmp.Or(r.MutationID, r.IntentID)
	switch {
	case r.Outcome == OutcomeAttempt:
		if w.attempts == nil {
			w.attempts, w.replaced = map[uint64]string{}, map[uint64]bool{}
		}
		w.attempts[r.Seq] = key
		if r.Replaces != 0 {
			w.replaced[r.Replaces] = true
		}
	case r.Action == ActionRepair && r.Target.Detail["attempt"] != "":
		if w.torn == nil {
			w.torn = map[uint64]Record{}
		}
		w.torn[r.Seq] = r
	case r.Attempt != 0:
		if w.unknown == nil {
			w.unknown = map[string]Record{}
		}
		switch r.Outcome {
		case OutcomeUnknown:
			w.unknown[key] = r
		case OutcomeDone, OutcomeFailed, OutcomeSuperseded:
			delete(w.unknown, key)
		}
		if got, ok := w.attempts[r.Attempt]; !ok || got != key {
			return &Break{Kind: OffChain, Detail: fmt.Sprintf(
				"the %s outcome of %s %s names seq %d as its attempt, which is not the attempt line of that key: its request is not on the chain",
				r.Outcome, r.Action, r.Target.ID, r.Attempt)}
		}
	}
	return nil
}

// last checks a last line that has no newline: a record is taken as it
// is; anything else is a torn write.
func (w *walker) last(raw []byte) (Record, *Break) {
	if _, _, err := unseal(raw); err != nil {
		w.s.Lines++
		b := Break{Line: w.s.Lines, Kind: Torn, Digest: digest(raw), Detail: fmt.Sprintf(
			"the last %s end without a newline and are not a record: a write was cut short (a crash, a full disk); the next treasury to start, or to write the log, moves them aside and records the repair",
			countBytes(len(raw)))}
		w.s.Breaks = append(w.s.Breaks, b)
		return Record{}, &b
	}
	return w.line(raw)
}

// check checks one line against the chain so far.
func (w *walker) check(line []byte) (Record, *Break) {
	if len(bytes.TrimSpace(line)) == 0 {
		return Record{}, &Break{Kind: BadJSON, Detail: "an empty line"}
	}
	r, h, err := unseal(line)
	switch {
	case errors.Is(err, errNoHash):
		return r, &Break{Kind: HashMismatch, Detail: err.Error()}
	case err != nil:
		return Record{}, &Break{Kind: BadJSON, Detail: err.Error()}
	case h != r.Hash:
		return r, &Break{Kind: HashMismatch, Detail: fmt.Sprintf(
			"the line's content hashes to %s, not to the %s it carries: it was changed after it was written", short(h), short(r.Hash))}
	}
	if w.resync {
		return r, nil
	}
	if want := w.s.LastSeq + 1; r.Seq != want {
		what := "a line before it is missing"
		if r.Seq < want {
			what = "a line is repeated or out of order"
		}
		return r, &Break{Kind: SequenceGap, Detail: fmt.Sprintf("seq %d where %d was expected: %s", r.Seq, want, what)}
	}
	if head := cmp.Or(w.s.Head, Genesis); r.Prev != head {
		prev := "the hash of the line before"
		if w.s.Lines == 1 {
			prev = "the genesis value"
		}
		return r, &Break{Kind: ChainBroken, Detail: fmt.Sprintf(
			"prev %s is not %s (%s): a line before it was changed or replaced", short(r.Prev), prev, short(head))}
	}
	return r, nil
}

// note follows the attempts and acknowledgements of a readable record.
func (w *walker) note(r Record, afterBreak bool) {
	if r.Action == ActionAck {
		id := r.Target.Detail["break"]
		for i := range w.s.Breaks {
			if b := &w.s.Breaks[i]; b.ID() == id && b.Ack == nil {
				b.Ack = &r
			}
		}
		return
	}
	if w.open == nil {
		w.open = openAttempts{}
	}
	w.open.add(r, afterBreak)
}

func (w *walker) summary() Summary {
	s := w.s
	if s.Head == "" {
		s.Head = Genesis
	}
	s.Breaks = slices.Clone(s.Breaks)
	s.Open, s.Settled = nil, nil
	for _, a := range w.open.list() {
		if a.Settled() {
			s.Settled = append(s.Settled, a)
		} else {
			s.Open = append(s.Open, a)
		}
	}
	s.Torn = nil
	for seq, r := range w.torn {
		if !w.replaced[seq] {
			s.Torn = append(s.Torn, r)
		}
	}
	slices.SortFunc(s.Torn, func(a, b Record) int { return cmp.Compare(a.Seq, b.Seq) })
	s.Unknown = nil
	for _, r := range w.unknown {
		s.Unknown = append(s.Unknown, r)
	}
	slices.SortFunc(s.Unknown, func(a, b Record) int { return cmp.Compare(a.Seq, b.Seq) })
	return s
}

// openAttempts are the attempt lines read so far that no outcome names,
// by seq.
type openAttempts map[uint64]*OpenAttempt

func (o openAttempts) add(r Record, afterBreak bool) {
	switch {
	case r.Outcome == OutcomeAttempt:
		o[r.Seq] = &OpenAttempt{Record: r, AfterBreak: afterBreak}
	case r.Attempt != 0:
		delete(o, r.Attempt)
		for _, a := range o {
			if a.Action == r.Action && a.Target.ID == r.Target.ID && a.MutationID == r.MutationID && a.IntentID == r.IntentID {
				a.Retry = &r
			}
		}
	}
	if r.Replaces != 0 {
		delete(o, r.Replaces) // its copy stands for it
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

// digest is the SHA-256 (hex) of a line's bytes.
func digest(raw []byte) string {
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:])
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

func countBytes(n int) string {
	if n == 1 {
		return "1 byte"
	}
	return strconv.Itoa(n) + " bytes"
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
