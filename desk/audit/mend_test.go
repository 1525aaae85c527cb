package audit

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"treasury/kit/fulldisk"
)

// disk is a state directory on a file system the test can fill: a real
// tmpfs where one can be mounted (as root), else a directory whose writes
// fail as a full disk's do while full is set (wrap).
type disk struct {
	dir  string
	real *fulldisk.Disk
	full atomic.Bool
}

func newDisk(t *testing.T) *disk {
	t.Helper()
	d := &disk{}
	if real, err := fulldisk.Mount(t.TempDir(), 256<<10); err == nil {
		d.real, d.dir = real, real.Dir
		t.Cleanup(func() { real.Unmount() })
		return d
	} else {
		t.Logf("no real full disk (%v): writes fail as one does", err)
	}
	d.dir = t.TempDir()
	return d
}

func (d *disk) wrap() func(io.Writer) io.Writer {
	if d.real != nil {
		return nil
	}
	return func(w io.Writer) io.Writer { return fullDisk{w, &d.full} }
}

func (d *disk) fill(t *testing.T) {
	t.Helper()
	if d.real != nil {
		if err := d.real.Fill(); err != nil {
			t.Fatal(err)
		}
		return
	}
	d.full.Store(true)
}

func (d *disk) free(t *testing.T) {
	t.Helper()
	if d.real != nil {
		if err := d.real.Free(); err != nil {
			t.Fatal(err)
		}
		return
	}
	d.full.Store(false)
}

func outcomeOf(a Record, outcome string) Record {
	r := rec(a.Action, a.Target.ID)
	r.Outcome, r.Attempt, r.MutationID = outcome, a.Seq, a.MutationID
	return r
}

// The disk fills between an attempt's line and its outcome's: the outcome
// is owed, not lost. Every append is refused while the disk is full; once
// it has room, the next check writes the outcome (before anything else),
// naming its attempt: the request's chain is whole, and Verify has no
// attempt without an outcome.
func TestAnOutcomeOwedIsWrittenOnceTheDiskHasRoom(t *testing.T) {
	d := newDisk(t)
	l, err := Open(d.dir, Options{Host: "h", Wrap: d.wrap()})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	a, err := l.Append(attemptRec("t1", "k1"))
	if err != nil {
		t.Fatal(err)
	}
	d.fill(t)
	// A full file system still takes what fits in the log's last block:
	// other lines take it first (each refused once it does not fit).
	for i := 0; i < 64; i++ {
		if _, err := l.Append(rec("cancelled", "pad")); err != nil {
			break
		}
	}
	_, err = l.AppendOutcome(outcomeOf(a, OutcomeDone))
	if !errors.As(err, new(ErrOwed)) || !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("an outcome on a full disk: %v, want it owed (ENOSPC)", err)
	}
	if err := l.Writable(); err == nil {
		t.Fatal("a full disk is writable")
	}
	if st := l.State(); st.Unwritable == nil {
		t.Fatalf("state %+v, want unwritable", st)
	}
	d.free(t)
	if err := l.Writable(); err != nil {
		t.Fatalf("with room again: %v", err)
	}
	s, br := verifyFile(t, l.Path())
	if br != nil || len(s.Open) != 0 {
		t.Fatalf("after the disk had room: %+v %v, want the attempt and its outcome", s, br)
	}
	rs, _ := l.Read()
	if last := rs[len(rs)-1]; last.Attempt != a.Seq || last.Outcome != OutcomeDone || last.MutationID != "k1" {
		t.Fatalf("the owed line %+v", last)
	}
}

// cutLine truncates the file in the middle of its last line, as a torn
// write or an editor would.
func cutLine(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	start := bytes.LastIndexByte(b[:len(b)-1], '\n') + 1
	if err := os.Truncate(path, int64(start+(len(b)-start)/2)); err != nil {
		t.Fatal(err)
	}
}

// The attempt line is torn (truncated mid-line) while its request waits.
// When the outcome comes, the writer finds the file shrunk: the torn half
// is moved aside and the repair recorded, what it found is said as a
// damage line, the attempt is written again whole (naming the line it
// stands for) and the outcome names the copy, which carries the request
// and key. Verify agrees with the process: one break (the damage, until
// acknowledged), no attempt left open, no torn attempt unwritten, no
// outcome off its attempt.
func TestAnAttemptTornWhileItsRequestWaitsIsWrittenAgainWhole(t *testing.T) {
	dir := t.TempDir()
	l := open(t, dir)
	l.Append(rec("freeze", "t0"))
	a, err := l.Append(attemptRec("t1", "k1"))
	if err != nil {
		t.Fatal(err)
	}
	cutLine(t, l.Path())
	out, err := l.AppendOutcome(outcomeOf(a, OutcomeDone))
	if err != nil {
		t.Fatal(err)
	}
	rs, err := l.Read()
	if err != nil {
		t.Fatal(err)
	}
	bySeq := map[uint64]Record{}
	for _, r := range rs {
		bySeq[r.Seq] = r
	}
	at := bySeq[out.Attempt]
	if out.Attempt == a.Seq || at.Outcome != OutcomeAttempt || at.Replaces != a.Seq || at.MutationID != "k1" ||
		at.Request != a.Request || at.Proc == nil || at.Proc.ID != a.Proc.ID {
		t.Fatalf("the outcome names %d: %+v; want a whole copy of attempt %d", out.Attempt, at, a.Seq)
	}
	if r := bySeq[a.Seq]; r.Action != ActionRepair || r.Target.Detail["attempt"] == "" {
		t.Fatalf("line %d is %+v, want the repair of the torn attempt", a.Seq, r)
	}
	s, br := verifyFile(t, l.Path())
	if br == nil || br.Kind != Shrunk || !br.Reported || len(s.Breaks) != 1 || len(s.Open) != 0 || len(s.Torn) != 0 {
		t.Fatalf("verify %+v %v, want the damage reported, nothing open or torn", s, br)
	}
	if st := l.State(); len(st.Breaks) != 1 || st.Breaks[0].Line != br.Line {
		t.Fatalf("the process reports %+v, verify %+v: want the same break", st.Breaks, br)
	}
	if m, _ := filepath.Glob(l.Path() + TornSuffix + "*"); len(m) != 1 {
		t.Fatalf("torn files %v, want the torn half kept", m)
	}
}

// The attempt's writer died (no outcome will come) and its line is torn
// afterwards: another process that had read it writes it again whole, as
// the line of the process that sent it: its key stays on the chain, open,
// for the next decision to reconcile.
func TestAnAttemptTornAfterItsWriterDiedIsWrittenAgainByAnother(t *testing.T) {
	dir := t.TempDir()
	w, err := Open(dir, Options{Host: "h1"})
	if err != nil {
		t.Fatal(err)
	}
	a, err := w.Append(attemptRec("t1", "k1"))
	if err != nil {
		t.Fatal(err)
	}
	o := open(t, dir)
	w.Close()
	cutLine(t, o.Path())
	if _, err := o.Append(rec("lock", "ep-1")); err != nil {
		t.Fatal(err)
	}
	s, br := verifyFile(t, o.Path())
	if br == nil || br.Kind != Shrunk || len(s.Open) != 1 || s.Open[0].MutationID != "k1" || s.Open[0].Replaces != a.Seq ||
		s.Open[0].Proc == nil || s.Open[0].Proc.ID != a.Proc.ID || s.Open[0].By == nil || s.Open[0].By.ID != o.Self().ID {
		t.Fatalf("verify %+v %v, want the attempt open again, its sender's, written by the other", s, br)
	}
}

// A line removed from the middle: the attempt of a request on its way is
// among them. Its writer writes it again with its outcome; Verify reports
// the gap and the damage, and no outcome off its attempt.
func TestARemovedAttemptLineIsWrittenAgain(t *testing.T) {
	dir := t.TempDir()
	l := open(t, dir)
	l.Append(rec("freeze", "t0"))
	a, _ := l.Append(attemptRec("t1", "k1"))
	l.Append(rec("lock", "ep-1"))
	b, err := os.ReadFile(l.Path())
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	if err := os.WriteFile(l.Path()+".new", []byte(lines[0]+lines[2]), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(l.Path()+".new", l.Path()); err != nil {
		t.Fatal(err)
	}
	out, err := l.AppendOutcome(outcomeOf(a, OutcomeFailed))
	if err != nil {
		t.Fatal(err)
	}
	s, br := verifyFile(t, l.Path())
	kinds := map[string]int{}
	for _, b := range s.Breaks {
		kinds[b.Kind]++
	}
	if br == nil || kinds[SequenceGap] != 1 || kinds[Shrunk] != 1 || kinds[OffChain] != 0 || len(s.Open) != 0 || out.Attempt == a.Seq {
		t.Fatalf("verify %+v (%v), outcome %+v: want the gap and the damage, the attempt written again and closed", s, kinds, out)
	}
}

// An outcome whose attempt is not the line of its request and key (here a
// line of another action) is a break: Verify never calls such a log
// intact.
func TestVerifyFindsAnOutcomeOffItsAttempt(t *testing.T) {
	l := open(t, t.TempDir())
	l.Append(attemptRec("t1", "k1"))
	other, _ := l.Append(rec("lock", "ep-1"))
	end := rec("freeze", "t1")
	end.Attempt, end.MutationID = other.Seq, "k1"
	l.Append(end)
	s, br := verifyFile(t, l.Path())
	if br == nil || br.Kind != OffChain || !strings.Contains(br.Detail, "not the attempt line of that key") {
		t.Fatalf("verify %+v %v, want the outcome off its attempt", s, br)
	}
}

// A torn attempt line that no process had read (a crash while writing it:
// nothing was sent) is moved aside at the next open; Verify lists it, with
// what could be read of it, since no copy replaced it.
func TestVerifyListsATornAttemptNotWrittenAgain(t *testing.T) {
	dir := t.TempDir()
	w, err := Open(dir, Options{Host: "h1"})
	if err != nil {
		t.Fatal(err)
	}
	w.Append(rec("freeze", "t0"))
	w.Append(attemptRec("t1", "k1"))
	w.Close()
	cutLine(t, filepath.Join(dir, FileName))
	l := open(t, dir)
	s, br := verifyFile(t, l.Path())
	if br != nil || len(s.Torn) != 1 || s.Torn[0].Target.Detail["attempt"] != "2" {
		t.Fatalf("verify %+v %v, want one torn attempt listed", s, br)
	}
}

// The attempt line is torn while its request waits, and another process,
// which had not read it, repairs the torn tail and appends after it: the
// file is longer than the writer had read, not shorter. The writer still
// finds its line gone (the line it read last is not where it read it),
// writes its attempt again whole, and its outcome names the copy.
func TestAnAttemptTornAndRepairedByAnotherIsFoundByItsWriter(t *testing.T) {
	dir := t.TempDir()
	other := open(t, dir)
	other.Append(rec("freeze", "t0"))
	w := open(t, dir)
	a, err := w.Append(attemptRec("t1", "k1"))
	if err != nil {
		t.Fatal(err)
	}
	cutLine(t, w.Path())
	for _, id := range []string{"ep-1", "ep-2", "ep-3"} {
		if _, err := other.Append(rec("lock", id)); err != nil {
			t.Fatal(err)
		}
	}
	out, err := w.AppendOutcome(outcomeOf(a, OutcomeDone))
	if err != nil {
		t.Fatal(err)
	}
	s, br := verifyFile(t, w.Path())
	if out.Attempt == a.Seq || len(s.Open) != 0 || br == nil || br.Kind != Shrunk {
		t.Fatalf("outcome %+v, verify %+v %v: want the attempt written again and closed, the damage said", out, s, br)
	}
	for _, b := range s.Breaks {
		if b.Kind == OffChain {
			t.Fatalf("an outcome off its attempt: %+v", b)
		}
	}
}
