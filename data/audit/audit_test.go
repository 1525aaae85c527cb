package audit

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestAppendReadMode(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	l, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 23, 10, 0, 0, 0, time.FixedZone("x", 3600))
	if err := l.Append(Entry{Time: at, Profile: "sandbox", Action: "freeze", Targets: map[string]string{"transaction": "t1"}, MutationID: "m1", Outcome: OutcomeOK}); err != nil {
		t.Fatal(err)
	}
	if err := l.Append(Entry{Action: "sweep", Outcome: OutcomeError, ErrorCode: "ERR017.006"}); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(l.Path())
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, want 0600", st.Mode().Perm())
	}
	got, err := l.Read()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].MutationID != "m1" || got[0].Targets["transaction"] != "t1" || got[1].ErrorCode != "ERR017.006" {
		t.Fatalf("read %+v", got)
	}
	if got[0].Time.Location() != time.UTC || !got[0].Time.Equal(at) {
		t.Fatalf("time %v, want %v in UTC", got[0].Time, at)
	}
	if got[1].Time.IsZero() {
		t.Fatal("zero time not filled")
	}
	l.Close()

	// Reopening appends; it never truncates.
	l2, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l2.Close()
	if err := l2.Append(Entry{Action: "lock", Outcome: OutcomeRefused}); err != nil {
		t.Fatal(err)
	}
	got, _ = l2.Read()
	if len(got) != 3 || got[2].Action != "lock" {
		t.Fatalf("after reopen: %+v", got)
	}
}

func TestRefusesReadableByOthers(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, FileName)
	if err := os.WriteFile(p, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Fatalf("err = %v, want a refusal naming the fix", err)
	}
}

func TestConcurrentAppendsKeepWholeLines(t *testing.T) {
	l, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l.Append(Entry{Action: "freeze", Reason: strings.Repeat("x", i*100), Outcome: OutcomeOK})
		}()
	}
	wg.Wait()
	got, err := l.Read()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 50 {
		t.Fatalf("%d entries, want 50", len(got))
	}
	for _, e := range got {
		if e.Outcome != OutcomeOK {
			t.Fatalf("torn line: %+v", e)
		}
	}
}

func TestUnreadableLineIsShown(t *testing.T) {
	got, err := ReadFrom(strings.NewReader("{\"action\":\"freeze\",\"outcome\":\"ok\"}\nnot json\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[1].Outcome != "unreadable" || !strings.Contains(got[1].Error, "line 2") {
		t.Fatalf("%+v", got)
	}
}
