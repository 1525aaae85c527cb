package audit

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// benchLog writes a log of n lines (attempts and their outcomes) in a
// new directory and returns the directory.
func benchLog(b *testing.B, n int) string {
	b.Helper()
	dir := b.TempDir()
	l, err := Open(dir, Options{Host: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	// Appends one by one would sync n times: write the lines as Append
	// would, once, then let Open read them.
	f, err := os.OpenFile(filepath.Join(dir, FileName), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		b.Fatal(err)
	}
	prev := Genesis
	for i := 1; i <= n; i++ {
		r := attemptRec(fmt.Sprint("t", i%500), fmt.Sprint("k", i))
		if i%2 == 0 {
			r.Outcome, r.Attempt = OutcomeDone, uint64(i-1)
		}
		r.Seq, r.Prev, r.Host = uint64(i), prev, "bench"
		line, h, err := seal(r)
		if err != nil {
			b.Fatal(err)
		}
		f.Write(append(line, '\n'))
		prev = h
	}
	f.Close()
	l.Close()
	return dir
}

// BenchmarkOpenAndFollow: what a process pays at start to read a log of
// 100,000 lines (a busy desk's year) and give every line to a follower
// (the keys' reading, actions.Pending): given at open (one read), or
// after (a second read).
func BenchmarkOpenAndFollow(b *testing.B) {
	dir := benchLog(b, 100_000)
	st, _ := os.Stat(filepath.Join(dir, FileName))
	for _, late := range []bool{false, true} {
		b.Run(map[bool]string{false: "at open", true: "after open"}[late], func(b *testing.B) {
			b.SetBytes(st.Size())
			for b.Loop() {
				n := 0
				count := func(Record) { n++ }
				o := Options{Host: "bench", Follow: count}
				if late {
					o.Follow = nil
				}
				l, err := Open(dir, o)
				if err != nil {
					b.Fatal(err)
				}
				if late {
					err = l.Follow(count)
				}
				if err != nil || n != 100_000 {
					b.Fatalf("followed %d: %v", n, err)
				}
				l.Close()
			}
		})
	}
}

// BenchmarkAppendDecided: one attempt line while another process appends
// between each (what an action costs on a shared state directory: the
// lock, reading the other's line, the decision, the write and its fsync).
func BenchmarkAppendDecided(b *testing.B) {
	dir := benchLog(b, 1000)
	mine, err := Open(dir, Options{Host: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	defer mine.Close()
	other, err := Open(dir, Options{Host: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	defer other.Close()
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		if _, err := other.Append(rec("freeze", "x")); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := mine.AppendDecided(func() (Record, error) { return attemptRec("t1", "k1"), nil }); err != nil {
			b.Fatal(err)
		}
	}
}
