package audit

import (
	"errors"
	"io"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// fullDisk is a writer that fails as a full disk does while full is set.
type fullDisk struct {
	w    io.Writer
	full *atomic.Bool
}

func (d fullDisk) Write(p []byte) (int, error) {
	if d.full.Load() {
		// A full disk may take part of a write before it fails.
		n, _ := d.w.Write(p[:len(p)/2])
		return n, syscall.ENOSPC
	}
	return d.w.Write(p)
}

// An attempt line that no outcome names is listed by Verify, which still
// verifies the chain; one an outcome names is not.
func TestVerifyListsAttemptsWithoutAnOutcome(t *testing.T) {
	l := open(t, t.TempDir())
	attempt := func(id string) Record {
		r := rec("freeze", id)
		r.Outcome, r.Request = OutcomeAttempt, "PUT /v2/wallets/w/transactions/"+id+"/freeze"
		got, err := l.Append(r)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	a1 := attempt("t1")
	a2 := attempt("t2")
	end := rec("freeze", "t1")
	end.Attempt = a1.Seq
	if _, err := l.Append(end); err != nil {
		t.Fatal(err)
	}
	s, br := verifyFile(t, l.Path())
	if br != nil || s.Lines != 3 || len(s.Open) != 1 || s.Open[0].Seq != a2.Seq || s.Open[0].Target.ID != "t2" ||
		s.Open[0].Request != a2.Request || s.Open[0].Retry != nil || s.Open[0].Settled() {
		t.Fatalf("verify %+v %v", s, br)
	}
	// A retry of t2 under the same key that ends done settles it: the
	// attempt, without an outcome of its own, is listed as settled.
	a3 := attempt("t2")
	end = rec("freeze", "t2")
	end.Attempt = a3.Seq
	if _, err := l.Append(end); err != nil {
		t.Fatal(err)
	}
	s, br = verifyFile(t, l.Path())
	if br != nil || len(s.Open) != 0 || len(s.Settled) != 1 || s.Settled[0].Seq != a2.Seq || s.Settled[0].Retry == nil ||
		s.Settled[0].Retry.Attempt != a3.Seq || !s.Settled[0].Settled() {
		t.Fatalf("verify after the retry %+v %v", s, br)
	}
}

// A write that fails (ENOSPC, part of the line taken) leaves no part of
// it; every later append is refused while a probe cannot be written, and
// taken again once one can; the chain stays one.
func TestFullDiskRefusesUntilChecked(t *testing.T) {
	dir := t.TempDir()
	var full atomic.Bool
	l, err := Open(dir, Options{Host: "h", Wrap: func(w io.Writer) io.Writer { return fullDisk{w, &full} }})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if _, err := l.Append(rec("freeze", "t1")); err != nil {
		t.Fatal(err)
	}
	full.Store(true)
	if _, err := l.Append(rec("freeze", "t2")); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("append on a full disk: %v", err)
	}
	if err := l.Writable(); !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "free") {
		t.Fatalf("Writable on a full disk: %v", err)
	}
	if _, err := l.Append(rec("freeze", "t3")); err == nil {
		t.Fatal("append taken while the disk is full")
	}
	if probes, _ := filepath.Glob(filepath.Join(dir, ".probe-*")); len(probes) != 0 {
		t.Fatalf("probes left behind: %v", probes)
	}
	full.Store(false)
	if err := l.Writable(); err != nil {
		t.Fatalf("Writable once there is room: %v", err)
	}
	r, err := l.Append(rec("freeze", "t4"))
	if err != nil || r.Seq != 2 {
		t.Fatalf("append once there is room: %+v %v", r, err)
	}
	if s, br := verifyFile(t, l.Path()); br != nil || s.Lines != 2 {
		t.Fatalf("verify %+v %v", s, br)
	}
}

// OnAppend (the metrics' audit appends) hears each append tried, written
// or failed, with its duration; a decision that refuses is no append.
func TestOnAppendHearsEachAppend(t *testing.T) {
	dir := t.TempDir()
	var full atomic.Bool
	var ok, failed int
	l, err := Open(dir, Options{Host: "h", Wrap: func(w io.Writer) io.Writer { return fullDisk{w, &full} },
		OnAppend: func(d time.Duration, err error) {
			if d <= 0 {
				t.Errorf("an append took %v", d)
			}
			if err != nil {
				failed++
			} else {
				ok++
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if _, err := l.Append(rec("freeze", "t1")); err != nil {
		t.Fatal(err)
	}
	refusal := errors.New("in flight")
	if _, err := l.AppendDecided(func() (Record, error) { return Record{}, refusal }); err != refusal {
		t.Fatalf("a refused decision: %v", err)
	}
	full.Store(true)
	if _, err := l.Append(rec("freeze", "t2")); err == nil {
		t.Fatal("append taken on a full disk")
	}
	if ok != 1 || failed != 1 {
		t.Errorf("OnAppend heard %d written and %d failed, want 1 and 1", ok, failed)
	}
}
