package audit

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func open(t *testing.T, dir string) *Log {
	t.Helper()
	l, err := Open(dir, Options{Host: "test-host"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

func rec(action, id string) Record {
	return Record{Who: Who{Via: ViaLocal, User: "ana"}, Profile: "sandbox", Environment: "test", Action: action,
		Target: Target{Kind: "transaction", ID: id}, Outcome: OutcomeDone, MutationID: "m-" + id}
}

func verifyFile(t *testing.T, path string) (Summary, *Break) {
	t.Helper()
	s, err := VerifyFile(path)
	if err == nil {
		return s, nil
	}
	b, ok := err.(*Break)
	if !ok {
		t.Fatalf("verify: %v", err)
	}
	return s, b
}

func TestAppendChainsAndSyncs(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	l := open(t, dir)
	a, err := l.Append(rec("freeze", "t1"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := l.Append(rec("unfreeze", "t1"))
	if err != nil {
		t.Fatal(err)
	}
	if a.Seq != 1 || a.Prev != Genesis || b.Seq != 2 || b.Prev != a.Hash || a.Host != "test-host" || a.Time.Location() != time.UTC {
		t.Fatalf("chain: %+v %+v", a, b)
	}
	st, err := os.Stat(l.Path())
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v %v, want 0600", st.Mode().Perm(), err)
	}
	// The file holds exactly the two lines, in order, as the writer said.
	all, err := l.Read()
	if err != nil || len(all) != 2 || all[0].Hash != a.Hash || all[1].Hash != b.Hash {
		t.Fatalf("read %+v %v", all, err)
	}
	if s, br := verifyFile(t, l.Path()); br != nil || s.Lines != 2 || s.LastSeq != 2 || s.Head != b.Hash {
		t.Fatalf("verify %+v %v", s, br)
	}
	got, _ := l.Recent()
	if len(got) != 2 || got[0].Seq != 2 || got[1].Seq != 1 {
		t.Fatalf("recent, newest first: %+v", got)
	}
}

// A log that group or others can read (it names who did what to which
// money) is made 0600 at open, and the notice says so.
func TestMakesALogReadableByOthersPrivate(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, FileName)
	if err := os.WriteFile(p, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, 0o644); err != nil {
		t.Fatal(err)
	}
	l := open(t, dir)
	st, err := os.Stat(p)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("mode after open: %v %v", st.Mode(), err)
	}
	if n := l.Notices(); len(n) != 1 || !strings.Contains(n[0], "made 0600") {
		t.Fatalf("notices %q", n)
	}
}

// Writers on many goroutines, through two Logs on the same file (two
// processes, as far as the file lock is concerned), make one chain: every
// line once, seqs 1..n in file order, each prev the hash of the line
// before.
func TestConcurrentWritersKeepOneChain(t *testing.T) {
	dir := t.TempDir()
	l1, l2 := open(t, dir), open(t, dir)
	var wg sync.WaitGroup
	const n = 60
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l := l1
			if i%2 == 1 {
				l = l2
			}
			r := rec("freeze", fmt.Sprint("t", i))
			r.Reason = strings.Repeat("x", i*50)
			if _, err := l.Append(r); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	s, br := verifyFile(t, l1.Path())
	if br != nil || s.Lines != n || s.LastSeq != n {
		t.Fatalf("verify %+v %v", s, br)
	}
	all, err := l1.Read()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for i, r := range all {
		if r.Seq != uint64(i+1) {
			t.Fatalf("line %d has seq %d", i+1, r.Seq)
		}
		seen[r.Target.ID] = true
	}
	if len(seen) != n {
		t.Fatalf("%d distinct targets, want %d", len(seen), n)
	}
	// Each Log sees the other's lines.
	if got, _ := l1.Recent(); len(got) != n || got[0].Seq != n {
		t.Fatalf("recent of l1: %d, newest %d", len(got), got[0].Seq)
	}
}

func TestRestartContinuesTheChain(t *testing.T) {
	dir := t.TempDir()
	l, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	first, _ := l.Append(rec("freeze", "t1"))
	l.Close()
	l2 := open(t, dir)
	if got, _ := l2.Recent(); len(got) != 1 || got[0].Hash != first.Hash {
		t.Fatalf("recent after reopen: %+v", got)
	}
	second, err := l2.Append(rec("lock", "ep-1"))
	if err != nil {
		t.Fatal(err)
	}
	if second.Seq != 2 || second.Prev != first.Hash {
		t.Fatalf("after restart: seq %d prev %s, want 2 and %s", second.Seq, second.Prev, first.Hash)
	}
	if s, br := verifyFile(t, l2.Path()); br != nil || s.Lines != 2 {
		t.Fatalf("verify %+v %v", s, br)
	}
}

// A file moved aside while the log is open: the next append starts a new
// file with a new chain, whose first line says what this process found
// (a damage line: a break for Verify as for the header, until
// acknowledged), and the moved file stays intact.
func TestFileMovedAsideStartsANewChain(t *testing.T) {
	dir := t.TempDir()
	l := open(t, dir)
	l.Append(rec("freeze", "t1"))
	aside := l.Path() + ".1"
	if err := os.Rename(l.Path(), aside); err != nil {
		t.Fatal(err)
	}
	r, err := l.Append(rec("freeze", "t2"))
	if err != nil || r.Seq != 2 {
		t.Fatalf("after the move: %+v %v", r, err)
	}
	if s, br := verifyFile(t, aside); br != nil || s.Lines != 1 {
		t.Fatalf("%s: %+v %v", aside, s, br)
	}
	s, br := verifyFile(t, l.Path())
	if br == nil || br.Kind != Shrunk || !br.Reported || br.Line != 1 || s.Lines != 2 || !strings.Contains(br.Detail, "moved away or removed") {
		t.Fatalf("the new file: %+v %v", s, br)
	}
	if st := l.State(); len(st.Breaks) != 1 || st.Breaks[0].Line != 1 {
		t.Fatalf("the state reports the break the file carries, once: %+v", st.Breaks)
	}
	if _, err := l.Ack(Who{}, "moved aside for the inquiry"); err != nil {
		t.Fatal(err)
	}
	if s, br := verifyFile(t, l.Path()); br != nil || len(s.Breaks) != 1 || s.Breaks[0].Ack == nil {
		t.Fatalf("acknowledged: %+v %v", s, br)
	}
}

// writeLog writes n lines and returns the file's lines.
func writeLog(t *testing.T, n int) (string, [][]byte) {
	t.Helper()
	l := open(t, t.TempDir())
	for i := range n {
		if _, err := l.Append(rec("freeze", fmt.Sprint("t", i+1))); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(l.Path())
	if err != nil {
		t.Fatal(err)
	}
	return l.Path(), bytes.SplitAfter(b, []byte("\n"))[:n]
}

func rewrite(t *testing.T, path string, lines [][]byte) {
	t.Helper()
	if err := os.WriteFile(path, bytes.Join(lines, nil), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestVerifyNamesTheFirstBrokenLine(t *testing.T) {
	cases := []struct {
		name   string
		tamper func([][]byte) [][]byte
		line   int
		kind   string
	}{
		{"edited", func(ls [][]byte) [][]byte {
			ls[2] = bytes.Replace(ls[2], []byte(`"t3"`), []byte(`"t9"`), 1)
			return ls
		}, 3, HashMismatch},
		{"last line edited", func(ls [][]byte) [][]byte {
			ls[4] = bytes.Replace(ls[4], []byte(`"done"`), []byte(`"failed"`), 1)
			return ls
		}, 5, HashMismatch},
		{"deleted", func(ls [][]byte) [][]byte { return append(ls[:1:1], ls[2:]...) }, 2, SequenceGap},
		{"first deleted", func(ls [][]byte) [][]byte { return ls[1:] }, 1, SequenceGap},
		{"reordered", func(ls [][]byte) [][]byte { ls[1], ls[2] = ls[2], ls[1]; return ls }, 2, SequenceGap},
		{"duplicated", func(ls [][]byte) [][]byte { return append(ls[:3:3], ls[2:]...) }, 4, SequenceGap},
		{"bad JSON", func(ls [][]byte) [][]byte { ls[3] = []byte("{\"seq\":4,\n"); return ls }, 4, BadJSON},
		{"empty line", func(ls [][]byte) [][]byte { return append(ls[:2:2], append([][]byte{[]byte("\n")}, ls[2:]...)...) }, 3, BadJSON},
		{"hash removed", func(ls [][]byte) [][]byte {
			i := bytes.LastIndex(ls[1], hashField)
			ls[1] = append(append([]byte(nil), ls[1][:i]...), "}\n"...)
			return ls
		}, 2, HashMismatch},
		{"edited with its hash recomputed", func(ls [][]byte) [][]byte {
			r, _, _ := unseal(bytes.TrimSpace(ls[1]))
			r.Outcome = OutcomeFailed
			line, _, _ := seal(r)
			ls[1] = append(line, '\n')
			return ls
		}, 3, ChainBroken},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path, lines := writeLog(t, 5)
			rewrite(t, path, tc.tamper(lines))
			_, br := verifyFile(t, path)
			if br == nil {
				t.Fatal("verify passed a tampered log")
			}
			if br.Line != tc.line || br.Kind != tc.kind {
				t.Fatalf("break %v, want line %d %s", br, tc.line, tc.kind)
			}
		})
	}
}

func TestVerifyEmptyAndNoFinalNewline(t *testing.T) {
	if s, err := Verify(strings.NewReader("")); err != nil || s.Lines != 0 || s.Head != Genesis {
		t.Fatalf("empty: %+v %v", s, err)
	}
	path, lines := writeLog(t, 2)
	lines[1] = bytes.TrimSuffix(lines[1], []byte("\n"))
	rewrite(t, path, lines)
	if s, br := verifyFile(t, path); br != nil || s.Lines != 2 {
		t.Fatalf("%+v %v", s, br)
	}
}

// The lines read from the file say which of them break the chain, so the
// view never shows a tampered line as if it were intact.
func TestRecentMarksBrokenLines(t *testing.T) {
	path, lines := writeLog(t, 4)
	lines[1] = bytes.Replace(lines[1], []byte(`"t2"`), []byte(`"t9"`), 1) // edited
	rewrite(t, path, append(append([][]byte{}, lines[:2]...), lines[3]))  // line 3 removed
	l := open(t, filepath.Dir(path))
	got, err := l.Recent()
	if err != nil {
		t.Fatal(err)
	}
	broken := map[uint64]string{}
	for _, r := range got {
		broken[r.Seq] = r.Broken
	}
	if len(got) != 3 || broken[1] != "" || !strings.HasPrefix(broken[2], HashMismatch) || !strings.HasPrefix(broken[4], SequenceGap) {
		t.Fatalf("broken marks %v", broken)
	}
}

// BenchmarkAppend is the cost of one audited attempt's line: seal, write,
// fsync (the disk's sync dominates).
func BenchmarkAppend(b *testing.B) {
	l, err := Open(b.TempDir(), Options{Host: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	r := rec("freeze", "t1")
	for b.Loop() {
		if _, err := l.Append(r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVerify checks a log of 10,000 lines.
func BenchmarkVerify(b *testing.B) {
	var buf bytes.Buffer
	head, seq := Genesis, uint64(0)
	for i := range 10000 {
		r := rec("freeze", fmt.Sprint("t", i))
		seq++
		r.Seq, r.Prev = seq, head
		line, h, _ := seal(r)
		buf.Write(append(line, '\n'))
		head = h
	}
	b.SetBytes(int64(buf.Len()))
	for b.Loop() {
		if _, err := Verify(bytes.NewReader(buf.Bytes())); err != nil {
			b.Fatal(err)
		}
	}
}

// TestWhoNamesTheKey: an SSH operator is named by the SSH user, the key's
// name (its comment, or the name= of its line) and its fingerprint: two
// operators who share a Unix user are told apart in every line and every
// "in flight from …".
func TestWhoNamesTheKey(t *testing.T) {
	ana := Who{Via: ViaSSH, User: "root", Name: "ana@laptop", Key: "SHA256:abc", Role: "operator"}
	ben := ana
	ben.Name, ben.Key = "Ben Ortiz", "SHA256:def"
	if got := ana.String(); got != "ssh:root ana@laptop SHA256:abc (operator)" {
		t.Errorf("ana: %q", got)
	}
	if ana.String() == ben.String() || !strings.Contains(ben.String(), "Ben Ortiz") {
		t.Errorf("two operators of one Unix user: %q %q", ana, ben)
	}
	if got := (Who{Via: ViaSSH, User: "root", Key: "SHA256:abc"}).String(); got != "ssh:root SHA256:abc" {
		t.Errorf("a key of no name: %q", got)
	}
}

// A person who logged in with an SSH certificate is named by its key id
// and serial besides the key's fingerprint: on the line (a serial 0
// too), read back whole, in the chain verify checks, and in one line.
func TestWhoWithACertificate(t *testing.T) {
	l := open(t, t.TempDir())
	who := Who{Via: ViaSSH, User: "ben", Key: "SHA256:abc", Role: "operator", From: "127.0.0.1:5555", Cert: Cert{KeyID: "ben@corp", Serial: 0}}
	r := rec("freeze", "t1")
	r.Who = who
	if _, err := l.Append(r); err != nil {
		t.Fatal(err)
	}
	plain := rec("freeze", "t2")
	if _, err := l.Append(plain); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(l.Path())
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	if !strings.Contains(lines[0], `"cert":{"key_id":"ben@corp","serial":0}`) || strings.Contains(lines[1], `"cert"`) {
		t.Errorf("lines:\n%s", raw)
	}
	all, err := l.Read()
	if err != nil || len(all) != 2 || all[0].Who != who {
		t.Fatalf("read back %+v %v", all, err)
	}
	if s, br := verifyFile(t, l.Path()); br != nil || s.Lines != 2 {
		t.Fatalf("verify %+v %v", s, br)
	}
	if got, want := who.String(), `ssh:ben SHA256:abc cert "ben@corp" serial 0 (operator)`; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}
