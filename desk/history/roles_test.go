package history

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"treasury/desk/live"
)

// The writer role passes: while a process writes the file, TryWrite from
// another returns nothing; once the writer closes (or dies: the kernel
// drops its lock), TryWrite makes the other the writer, and what it
// writes is in the file.
func TestTryWriteTakesTheRoleWhenTheWriterEnds(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName("sandbox"))
	w := open(t, path)
	r := open(t, path)
	defer r.Close()
	if !w.Writer() || r.Writer() {
		t.Fatalf("writer %v, reader %v", w.Writer(), r.Writer())
	}
	if o, err := TryWrite(path, Options{}); o != nil || err != nil {
		t.Fatalf("TryWrite beside a writer: %v %v", o, err)
	}
	days(t, w.Store, t0, 1, []string{"BTC/USD"}, nil)
	w.Close()
	o, err := TryWrite(path, Options{})
	if err != nil || o == nil || !o.Writer() {
		t.Fatalf("TryWrite after the writer closed: %v %v", o, err)
	}
	defer o.Close()
	days(t, o.Store, t0.Add(24*time.Hour), 1, []string{"BTC/USD"}, nil)
	last, err := r.Newest(context.Background())
	if err != nil || !last.Rates.Equal(t0.Add(24*time.Hour-time.Minute)) {
		t.Fatalf("the reader reads the new writer's minutes: %+v %v", last, err)
	}
}

// The history's files are readable by their owner only, whatever the
// umask; one that others could read is made so, and the open says it.
func TestFilesArePrivate(t *testing.T) {
	old := syscall.Umask(0)
	defer syscall.Umask(old)
	dir := t.TempDir()
	path := filepath.Join(dir, FileName("sandbox"))
	o := open(t, path)
	days(t, o.Store, t0, 1, []string{"BTC/USD"}, nil)
	for _, p := range []string{path, path + "-wal", path + "-shm", path + ".lock"} {
		if st, err := os.Stat(p); err != nil || st.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v %v", p, st.Mode(), err)
		}
	}
	o.Close()
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	o = open(t, path)
	defer o.Close()
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 || len(o.Modes) != 1 || !strings.Contains(o.Modes[0], "made 0600") {
		t.Fatalf("a file others could read: mode %v, said %q", st.Mode(), o.Modes)
	}
}

// A file that cannot be written (here SQLite's own "database or disk is
// full") is logged and told once, not at every tick, and told again once
// it is written again.
func TestRecorderSaysOnceThatItCannotWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName("sandbox"))
	o := open(t, path)
	defer o.Close()
	days(t, o.Store, t0, 1, []string{"BTC/USD"}, []string{"USD"})
	o.db.SetMaxOpenConns(1) // the pragma below holds for its one connection
	var pages int64
	if err := o.db.QueryRow("PRAGMA page_count").Scan(&pages); err != nil {
		t.Fatal(err)
	}
	if _, err := o.db.Exec("PRAGMA max_page_count = " + itoa(pages)); err != nil {
		t.Fatal(err)
	}
	var logged bytes.Buffer
	var failing []error
	writing := 0
	now := t0.Add(48 * time.Hour)
	store := live.New(live.Options{Now: func() time.Time { return now }})
	rec := NewRecorder(o.Store, store, RecordOptions{Now: func() time.Time { return now }, Log: slog.New(slog.NewTextHandler(&logged, nil)),
		Failing: func(err error) { failing = append(failing, err) }, Writing: func() { writing++ }})
	ctx := context.Background()
	big := func(at time.Time) Batch {
		var b Batch
		for m := at; m.Before(at.Add(6 * time.Hour)); m = m.Add(time.Minute) {
			b.Rates = append(b.Rates, Rate{Pair: "ETH/USD", Minute: m, Mid: 1, Quotes: 1})
		}
		return b
	}
	for i := range 3 {
		rec.wrote(o.Write(ctx, big(now.Add(time.Duration(i)*6*time.Hour))))
	}
	if len(failing) != 1 || !strings.Contains(failing[0].Error(), "full") || strings.Count(logged.String(), "cannot be written") != 1 {
		t.Fatalf("told %v, logged:\n%s", failing, logged.String())
	}
	if _, err := o.db.Exec("PRAGMA max_page_count = 1000000000"); err != nil {
		t.Fatal(err)
	}
	rec.wrote(o.Write(ctx, big(now.Add(24*time.Hour))))
	rec.wrote(o.Write(ctx, big(now.Add(30*time.Hour))))
	if writing != 1 || !strings.Contains(logged.String(), "written again") || rec.failing != nil {
		t.Fatalf("after room was made: writing told %d times, logged:\n%s", writing, logged.String())
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
