package audit

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"treasury/kit/nonroot"
)

func TestMain(m *testing.M) { os.Exit(nonroot.Main(m)) }

// attemptRec is an attempt line of a freeze of id under key.
func attemptRec(id, key string) Record {
	r := rec("freeze", id)
	r.Outcome, r.MutationID, r.Request = OutcomeAttempt, key, "PUT /v2/wallets/w/transactions/"+id+"/freeze"
	return r
}

// appendRaw appends bytes to the file as a crash or an editor would.
func appendRaw(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

// A torn last line (a crash mid-write) is repaired at start: the intact
// prefix is kept, the torn bytes are in a named file beside the log, a
// line records the repair, and the attempts of the prefix without an
// outcome are still open (their keys stay in force).
func TestTornLastLineIsMovedAsideAndTheAttemptsKept(t *testing.T) {
	dir := t.TempDir()
	l := open(t, dir)
	a1, _ := l.Append(attemptRec("t1", "k1"))
	a2, _ := l.Append(attemptRec("t2", "k2"))
	l.Close()
	torn := `{"seq":3,"prev":"` + a2.Hash + `","time":"2026-12-02T10:00:00Z","who":{"via":"local","user":"ana"},"act`
	appendRaw(t, l.Path(), torn)

	// verify, before any repair, names the torn line and still lists the
	// two attempts of the intact prefix.
	s, err := VerifyFile(l.Path())
	var br *Break
	if !errors.As(err, &br) || br.Kind != Torn || br.Line != 3 || len(s.Open) != 2 {
		t.Fatalf("verify of a torn log: %+v, %v", s, err)
	}

	l2 := open(t, dir)
	notes := l2.Notices()
	if len(notes) != 1 || !strings.Contains(notes[0], "was torn") || !strings.Contains(notes[0], TornSuffix) {
		t.Fatalf("notices %q", notes)
	}
	kept, _ := filepath.Glob(l.Path() + TornSuffix + "*")
	if len(kept) != 1 {
		t.Fatalf("torn files %v", kept)
	}
	if b, _ := os.ReadFile(kept[0]); string(b) != torn {
		t.Fatalf("torn file holds %q", b)
	}
	s, err = VerifyFile(l.Path())
	if err != nil || s.Lines != 3 || len(s.Open) != 2 || s.Open[0].Seq != a1.Seq || s.Open[1].Seq != a2.Seq {
		t.Fatalf("verify after the repair: %+v %v", s, err)
	}
	all, _ := l2.Read()
	if r := all[2]; r.Action != ActionRepair || r.Target.Detail["file"] != kept[0] || r.Proc == nil {
		t.Fatalf("repair line %+v", r)
	}
	if st := l2.State(); len(st.Breaks) != 0 || st.Unwritable != nil {
		t.Fatalf("state after the repair %+v", st)
	}
	// The chain goes on from the repair line.
	if r, err := l2.Append(rec("freeze", "t3")); err != nil || r.Seq != 4 {
		t.Fatalf("append after the repair: %+v %v", r, err)
	}
}

// A line edited in the middle is a break the log keeps reporting, while
// it goes on appending, until an operator acknowledges it; verify names
// it, lists the open attempts on both sides, and says it was
// acknowledged.
func TestEditedMiddleLineIsReportedUntilAcknowledged(t *testing.T) {
	path, lines := writeLog(t, 5)
	lines[2] = bytes.Replace(lines[2], []byte(`"t3"`), []byte(`"t9"`), 1)
	rewrite(t, path, lines)
	dir := filepath.Dir(path)
	l := open(t, dir)
	a, err := l.Append(attemptRec("t6", "k6"))
	if err != nil {
		t.Fatalf("append after a middle break: %v", err)
	}
	st := l.State()
	if len(st.Breaks) != 1 || st.Breaks[0].Line != 3 || st.Breaks[0].Kind != HashMismatch {
		t.Fatalf("state %+v", st)
	}
	s, err := VerifyFile(path)
	var br *Break
	if !errors.As(err, &br) || br.Line != 3 || len(s.Open) != 1 || s.Open[0].Seq != a.Seq || !s.Open[0].AfterBreak {
		t.Fatalf("verify: %+v %v", s, err)
	}

	// Another process's Log sees the break too, and sees it acknowledged
	// once the ack line is written.
	other := open(t, dir)
	if len(other.State().Breaks) != 1 {
		t.Fatalf("other process's state %+v", other.State())
	}
	acks, err := l.Ack(Who{Via: ViaLocal, User: "ana"}, "checked against the ticket archive")
	if err != nil || len(acks) != 2 || acks[0].Action != ActionAck || acks[0].Target.Detail["line"] != "3" ||
		acks[1].Target.Detail["break"] != ReportedBreaks {
		t.Fatalf("ack %+v %v", acks, err)
	}
	if st := l.State(); len(st.Breaks) != 0 || st.Acknowledged != 1 {
		t.Fatalf("state after the ack %+v", st)
	}
	if err := other.Refresh(); err != nil {
		t.Fatal(err)
	}
	if st := other.State(); len(st.Breaks) != 0 || st.Acknowledged != 1 {
		t.Fatalf("other process after the ack %+v", st)
	}
	s, err = VerifyFile(path)
	if err != nil || len(s.Breaks) != 1 || s.Breaks[0].Ack == nil || s.Breaks[0].Ack.Reason != "checked against the ticket archive" {
		t.Fatalf("verify after the ack: %+v %v", s, err)
	}
	// A second ack has no break of the file to acknowledge: it writes the
	// line for what running processes may have reported, and no other.
	if more, err := l.Ack(Who{}, "again"); err != nil || len(more) != 1 || more[0].Target.ID != ReportedBreaks || more[0].Who.User == "" {
		t.Fatalf("second ack %+v %v", more, err)
	}
	// The same line changed again is a new break.
	b, _ := os.ReadFile(path)
	rewrite(t, path, [][]byte{bytes.Replace(b, []byte(`"t9"`), []byte(`"t8"`), 1)})
	if st := open(t, dir).State(); len(st.Breaks) != 1 || st.Breaks[0].Line != 3 {
		t.Fatalf("state after a second edit %+v", st)
	}
}

// A line deleted in the middle is one break, the lines after it still
// checked against each other; the open attempts of both sides are listed.
func TestDeletedMiddleLineKeepsTheAttemptsOfBothSides(t *testing.T) {
	dir := t.TempDir()
	l := open(t, dir)
	l.Append(attemptRec("t1", "k1"))
	l.Append(rec("freeze", "t2"))
	l.Append(rec("freeze", "t3"))
	l.Append(attemptRec("t4", "k4"))
	l.Close()
	b, _ := os.ReadFile(l.Path())
	lines := bytes.SplitAfter(b, []byte("\n"))
	rewrite(t, l.Path(), append(lines[:1:1], lines[2:]...))
	s, err := VerifyFile(l.Path())
	var br *Break
	if !errors.As(err, &br) || br.Kind != SequenceGap || br.Line != 2 || len(s.Breaks) != 1 || len(s.Open) != 2 {
		t.Fatalf("verify: %+v %v", s, err)
	}
	var keys []string
	l2 := open(t, dir)
	if err := l2.Follow(func(r Record) {
		if r.Outcome == OutcomeAttempt {
			keys = append(keys, r.MutationID)
		}
	}); err != nil {
		t.Fatal(err)
	}
	if strings.Join(keys, ",") != "k1,k4" {
		t.Fatalf("attempts given to a follower: %v", keys)
	}
}

// Lines another process appends reach this process's followers, in the
// file's order, at the next append or Refresh; a decision taken under
// AppendDecided has seen them.
func TestFollowersSeeEveryProcesssLines(t *testing.T) {
	dir := t.TempDir()
	a, b := open(t, dir), open(t, dir)
	var seen []uint64
	if err := a.Follow(func(r Record) { seen = append(seen, r.Seq) }); err != nil {
		t.Fatal(err)
	}
	b.Append(rec("freeze", "t1"))
	b.Append(rec("freeze", "t2"))
	var atDecision []uint64
	r, err := a.AppendDecided(func() (Record, error) {
		atDecision = append([]uint64(nil), seen...)
		return rec("freeze", "t3"), nil
	})
	if err != nil || r.Seq != 3 || len(atDecision) != 2 {
		t.Fatalf("decided after %v: %+v %v", atDecision, r, err)
	}
	b.Append(rec("freeze", "t4"))
	if err := a.Refresh(); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 4 || seen[0] != 1 || seen[3] != 4 {
		t.Fatalf("followed %v", seen)
	}
	// A decision that fails appends nothing.
	if _, err := a.AppendDecided(func() (Record, error) { return Record{}, errors.New("refused") }); err == nil {
		t.Fatal("no error")
	}
	if got, _ := a.Read(); len(got) != 4 {
		t.Fatalf("%d lines after a refused decision", len(got))
	}
}

// A process that writes the log is Alive to the others on its host while
// it runs, Ended once it closed (or died: the kernel drops its lock).
func TestLivenessOfTheWriters(t *testing.T) {
	dir := t.TempDir()
	a, b := open(t, dir), open(t, dir)
	r, err := a.Append(attemptRec("t1", "k1"))
	if err != nil {
		t.Fatal(err)
	}
	if got := b.Alive(r.Proc, r.Host); got != Alive {
		t.Fatalf("a seen from b: %v", got)
	}
	if got := a.Alive(r.Proc, r.Host); got != Alive {
		t.Fatalf("a seen from itself: %v", got)
	}
	if got := b.Alive(r.Proc, "another-host"); got != Unknown {
		t.Fatalf("another host: %v", got)
	}
	if got := b.Alive(nil, r.Host); got != Unknown {
		t.Fatalf("a line that names no process: %v", got)
	}
	a.Close()
	if got := b.Alive(r.Proc, r.Host); got != Ended {
		t.Fatalf("a after it closed: %v", got)
	}
}

// --read-only opens the log whatever the directory's permissions: it
// reads, and refuses every append with the reason.
func TestReadOnlyOptionReadsAndRefuses(t *testing.T) {
	dir := t.TempDir()
	w := open(t, dir)
	w.Append(rec("freeze", "t1"))
	l, err := Open(dir, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if got, err := l.Recent(); err != nil || len(got) != 1 {
		t.Fatalf("recent %d %v", len(got), err)
	}
	if _, err := l.Append(rec("freeze", "t2")); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("append: %v", err)
	}
	if err := l.Writable(); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("writable: %v", err)
	}
	// No state directory at all: it starts, empty.
	none, err := Open(filepath.Join(t.TempDir(), "missing"), Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer none.Close()
	if got, err := none.Recent(); err != nil || len(got) != 0 {
		t.Fatalf("recent of no log: %v %v", got, err)
	}
}

// A state directory that cannot be written: the log opens for reading,
// every append is refused with the reason, and none of its open attempts
// is lost; once the directory can be written, appends are taken.
func TestReadOnlyDirectoryOpensAndRefuses(t *testing.T) {
	if nonroot.Run(t) {
		return
	}
	dir := t.TempDir()
	w := open(t, dir)
	w.Append(attemptRec("t1", "k1"))
	w.Close()
	if err := os.Chmod(dir, 0o500); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(dir, 0o700)
	if err := os.Chmod(filepath.Join(dir, FileName), 0o400); err != nil {
		t.Fatal(err)
	}
	l, err := Open(dir, Options{})
	if err != nil {
		t.Fatalf("open on a read-only directory: %v", err)
	}
	defer l.Close()
	var keys []string
	l.Follow(func(r Record) { keys = append(keys, r.MutationID) })
	if len(keys) != 1 || keys[0] != "k1" {
		t.Fatalf("keys read back %v", keys)
	}
	if _, err := l.Append(rec("freeze", "t2")); err == nil || !strings.Contains(err.Error(), "cannot be written") {
		t.Fatalf("append: %v", err)
	}
	if st := l.State(); st.Unwritable == nil {
		t.Fatalf("state %+v", st)
	}
	os.Chmod(dir, 0o700)
	os.Chmod(filepath.Join(dir, FileName), 0o600)
	if err := l.Writable(); err != nil {
		t.Fatalf("writable once it can be: %v", err)
	}
	if r, err := l.Append(rec("freeze", "t2")); err != nil || r.Seq != 2 {
		t.Fatalf("append once writable: %+v %v", r, err)
	}
}

// A file edited by a tool that writes a new one (sed -i, an editor) while
// a process has it open: the process reports the replacement and the line
// that changed; an acknowledgement from another process clears both.
func TestReplacedWhileOpenIsReportedUntilAcknowledged(t *testing.T) {
	path, lines := writeLog(t, 4)
	dir := filepath.Dir(path)
	l := open(t, dir)
	if st := l.State(); len(st.Breaks) != 0 {
		t.Fatalf("state before %+v", st)
	}
	lines[1] = bytes.Replace(lines[1], []byte(`"t2"`), []byte(`"t9"`), 1)
	tmp := path + ".new"
	if err := os.WriteFile(tmp, bytes.Join(lines, nil), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	if err := l.Refresh(); err != nil {
		t.Fatal(err)
	}
	st := l.State()
	kinds := map[string]bool{}
	for _, b := range st.Breaks {
		kinds[b.Kind] = true
	}
	if len(st.Breaks) != 2 || !kinds[Shrunk] || !kinds[HashMismatch] {
		t.Fatalf("state after the file was replaced %+v", st)
	}
	other := open(t, dir)
	if _, err := other.Ack(Who{Via: ViaLocal, User: "ana"}, "sed by the on-call, reverted"); err != nil {
		t.Fatal(err)
	}
	if err := l.Refresh(); err != nil {
		t.Fatal(err)
	}
	if st := l.State(); len(st.Breaks) != 0 {
		t.Fatalf("state after the acknowledgement %+v", st)
	}
}
