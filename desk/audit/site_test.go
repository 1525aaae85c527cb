package audit

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// memReplica is a site's record in memory, as desk/site's stream keeps
// it: lines in order, appended only at the end (ErrBehind otherwise).
type memReplica struct {
	mu    sync.Mutex
	lines [][]byte
	down  error // set: every call fails with it
	puts  int
	// before, when set, runs before a Put takes its line (another host
	// appending first).
	before func()
}

func (m *memReplica) Name() string { return "the test site's record" }

func (m *memReplica) Lines(_ context.Context, from uint64) ([][]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.down != nil {
		return nil, m.down
	}
	if from == 0 || from > uint64(len(m.lines)) {
		return nil, nil
	}
	return append([][]byte(nil), m.lines[from-1:]...), nil
}

func (m *memReplica) Last(context.Context) (uint64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.down != nil {
		return 0, m.down
	}
	return uint64(len(m.lines)), nil
}

func (m *memReplica) Put(_ context.Context, seq uint64, line []byte) error {
	if f := m.before; f != nil {
		m.before = nil
		f()
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.down != nil {
		return m.down
	}
	if seq != uint64(len(m.lines))+1 {
		return ErrBehind
	}
	m.puts++
	m.lines = append(m.lines, append([]byte(nil), line...))
	return nil
}

func openOn(t *testing.T, dir, host string, rep Replica) *Log {
	t.Helper()
	l, err := Open(dir, Options{Host: host, Replica: rep})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

func sameFiles(t *testing.T, logs ...*Log) {
	t.Helper()
	first, err := os.ReadFile(logs[0].Path())
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range logs[1:] {
		b, err := os.ReadFile(l.Path())
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != string(first) {
			t.Fatalf("the local copies differ:\n%s\n---\n%s", first, b)
		}
	}
	if _, br := verifyFile(t, logs[0].Path()); br != nil {
		t.Fatalf("the site's chain is broken: %v", br)
	}
}

// TestHostsOfASiteKeepOneChain: two hosts with their own state
// directories append through one replica; each decides after reading the
// other's lines, and their local copies are the same chain.
func TestHostsOfASiteKeepOneChain(t *testing.T) {
	rep := &memReplica{}
	a := openOn(t, t.TempDir(), "bastion-a", rep)
	b := openOn(t, t.TempDir(), "bastion-b", rep)
	var seenByB []string
	if err := b.Follow(func(r Record) { seenByB = append(seenByB, r.Host+":"+r.Target.ID) }); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Append(rec("freeze", "t1")); err != nil {
		t.Fatal(err)
	}
	var decidedAfter []string
	r, err := b.AppendDecided(func() (Record, error) {
		decidedAfter = append([]string(nil), seenByB...)
		return rec("freeze", "t2"), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if r.Seq != 2 || strings.Join(decidedAfter, ",") != "bastion-a:t1" {
		t.Fatalf("b appended seq %d having seen %v, want seq 2 after bastion-a:t1", r.Seq, decidedAfter)
	}
	if err := a.Pull(); err != nil {
		t.Fatal(err)
	}
	sameFiles(t, a, b)
	if len(rep.lines) != 2 {
		t.Fatalf("the site holds %d lines", len(rep.lines))
	}
}

// TestAHostThatLostTheRaceDecidesAgain: when another host appends between
// this host's read and its append, its decision is taken again on the
// new lines, and the line it writes follows theirs.
func TestAHostThatLostTheRaceDecidesAgain(t *testing.T) {
	rep := &memReplica{}
	a := openOn(t, t.TempDir(), "bastion-a", rep)
	b := openOn(t, t.TempDir(), "bastion-b", rep)
	if _, err := a.Append(rec("freeze", "t0")); err != nil {
		t.Fatal(err)
	}
	if err := b.Pull(); err != nil {
		t.Fatal(err)
	}
	rep.before = func() {
		if _, err := a.Append(rec("sweep", "w1")); err != nil {
			t.Error(err)
		}
	}
	decisions := 0
	r, err := b.AppendDecided(func() (Record, error) {
		decisions++
		return rec("sweep", fmt.Sprint("w", decisions)), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if decisions != 2 || r.Seq != 3 || r.Target.ID != "w2" {
		t.Fatalf("%d decisions, appended seq %d %s; want 2 decisions and seq 3", decisions, r.Seq, r.Target.ID)
	}
	if err := a.Pull(); err != nil {
		t.Fatal(err)
	}
	sameFiles(t, a, b)
}

// TestAnUnreachableSiteRefusesAppends: while the replica cannot be
// reached, an append is refused with the reason and nothing is written
// locally; once it can, appends go on where the site is.
func TestAnUnreachableSiteRefusesAppends(t *testing.T) {
	rep := &memReplica{}
	a := openOn(t, t.TempDir(), "bastion-a", rep)
	if _, err := a.Append(rec("freeze", "t1")); err != nil {
		t.Fatal(err)
	}
	rep.down = errors.New("nats: no responders")
	_, err := a.Append(rec("freeze", "t2"))
	if err == nil || !strings.Contains(err.Error(), "cannot be reached") || !strings.Contains(err.Error(), "never recorded on this host alone") {
		t.Fatalf("append while the site is down: %v", err)
	}
	if s := a.State(); s.LastSeq != 1 {
		t.Fatalf("local copy at seq %d after a refused append", s.LastSeq)
	}
	rep.down = nil
	if r, err := a.Append(rec("freeze", "t2")); err != nil || r.Seq != 2 {
		t.Fatalf("after the site came back: seq %d, %v", r.Seq, err)
	}
}

// TestAHostJoiningPutsWhatItKeptAlone: a host that kept its record alone
// before the site existed puts its lines to the empty site; another host
// then copies them.
func TestAHostJoiningPutsWhatItKeptAlone(t *testing.T) {
	dirA := t.TempDir()
	alone := openOn(t, dirA, "bastion-a", nil)
	for _, id := range []string{"t1", "t2"} {
		if _, err := alone.Append(rec("freeze", id)); err != nil {
			t.Fatal(err)
		}
	}
	alone.Close()
	rep := &memReplica{}
	a := openOn(t, dirA, "bastion-a", rep)
	if err := a.Pull(); err != nil {
		t.Fatal(err)
	}
	if len(rep.lines) != 2 || !strings.Contains(strings.Join(a.Notices(), "\n"), "2 lines this host kept alone") {
		t.Fatalf("the site holds %d lines; notices %q", len(rep.lines), a.Notices())
	}
	b := openOn(t, t.TempDir(), "bastion-b", rep)
	if r, err := b.Append(rec("freeze", "t3")); err != nil || r.Seq != 3 {
		t.Fatalf("b appended seq %d, %v", r.Seq, err)
	}
	if err := a.Pull(); err != nil {
		t.Fatal(err)
	}
	sameFiles(t, a, b)
}

// TestADivergedLocalCopyRefusesAndSaysSo: a host whose local lines differ
// from the site's at one seq refuses every append, and its state names
// the break, until its copy is moved aside; then it copies the site's.
func TestADivergedLocalCopyRefusesAndSaysSo(t *testing.T) {
	rep := &memReplica{}
	b := openOn(t, t.TempDir(), "bastion-b", rep)
	if _, err := b.Append(rec("freeze", "site")); err != nil {
		t.Fatal(err)
	}
	dirA := t.TempDir()
	alone := openOn(t, dirA, "bastion-a", nil)
	if _, err := alone.Append(rec("freeze", "mine")); err != nil {
		t.Fatal(err)
	}
	alone.Close()
	a := openOn(t, dirA, "bastion-a", rep)
	_, err := a.Append(rec("freeze", "t2"))
	if err == nil || !strings.Contains(err.Error(), "differ") {
		t.Fatalf("append on a diverged copy: %v", err)
	}
	s := a.State()
	if s.Unwritable == nil || len(s.Breaks) != 1 || s.Breaks[0].Kind != Diverged {
		t.Fatalf("state of a diverged copy: %+v", s)
	}
	if len(rep.lines) != 1 {
		t.Fatalf("the diverged host changed the site: %d lines", len(rep.lines))
	}
	a.Close()
	if err := os.Rename(filepath.Join(dirA, FileName), filepath.Join(dirA, FileName+".diverged")); err != nil {
		t.Fatal(err)
	}
	a = openOn(t, dirA, "bastion-a", rep)
	if r, err := a.Append(rec("freeze", "t2")); err != nil || r.Seq != 2 {
		t.Fatalf("after the copy was moved aside: seq %d, %v", r.Seq, err)
	}
	if err := b.Pull(); err != nil {
		t.Fatal(err)
	}
	sameFiles(t, a, b)
}

// TestRefreshSaysWhenTheSiteIsUnreachable: the periodic read says the site
// cannot be reached, the state refuses actions with the reason, and the
// next read that reaches it clears it.
func TestRefreshSaysWhenTheSiteIsUnreachable(t *testing.T) {
	rep := &memReplica{}
	a := openOn(t, t.TempDir(), "bastion-a", rep)
	b := openOn(t, t.TempDir(), "bastion-b", rep)
	if _, err := b.Append(rec("freeze", "t1")); err != nil {
		t.Fatal(err)
	}
	if err := a.Refresh(); err != nil || a.State().LastSeq != 1 {
		t.Fatalf("refresh: %v, local copy at seq %d; want b's line copied", err, a.State().LastSeq)
	}
	rep.down = errors.New("nats: timeout")
	if err := a.Refresh(); err == nil || a.Writable() == nil || a.State().Unwritable == nil {
		t.Fatalf("refresh with the site down: %v; writable %v; state %+v", err, a.Writable(), a.State())
	}
	rep.down = nil
	if err := a.Refresh(); err != nil || a.Writable() != nil || a.State().Unwritable != nil {
		t.Fatalf("refresh with the site back: %v; writable %v", err, a.Writable())
	}
}

// livesReplica is a replica that knows the site's processes.
type livesReplica struct {
	memReplica
	mu      sync.Mutex
	running map[string]bool // by process id: true while it says it runs
}

func (m *livesReplica) Register(id string) func() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.running[id] = true
	return func() { m.mu.Lock(); m.running[id] = false; m.mu.Unlock() }
}

func (m *livesReplica) Alive(id string) (alive, known bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	alive, known = m.running[id]
	return alive, known
}

// TestAnotherHostsProcessIsAliveWhileItSaysSo: with a replica that knows
// the site's processes, an attempt of another bastion is on its way while
// its process runs, interrupted once it ended, and unknown for a process
// the site never heard of.
func TestAnotherHostsProcessIsAliveWhileItSaysSo(t *testing.T) {
	rep := &livesReplica{running: map[string]bool{}}
	a := openOn(t, t.TempDir(), "bastion-a", rep)
	b := openOn(t, t.TempDir(), "bastion-b", rep)
	r, err := a.Append(rec("sweep", "w1"))
	if err != nil {
		t.Fatal(err)
	}
	if got := b.Alive(r.Proc, r.Host); got != Alive {
		t.Fatalf("bastion a's running process is %v to bastion b", got)
	}
	a.Close()
	if got := b.Alive(r.Proc, r.Host); got != Ended {
		t.Fatalf("bastion a's ended process is %v to bastion b", got)
	}
	if got := b.Alive(&Proc{ID: "never-seen"}, "bastion-c"); got != Unknown {
		t.Fatalf("a process the site never heard of is %v", got)
	}
}
