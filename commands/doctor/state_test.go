package doctor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"treasury/desk/audit"
)

// The state section: the directory writable with its free space, the
// audit log intact, and a warning naming the attempts without an outcome;
// a log that is broken fails.
func TestStateSection(t *testing.T) {
	dir := t.TempDir()
	p := &prober{o: Options{StateDir: dir}.withDefaults()}
	s := p.state()
	if len(s.Checks) != 2 || s.Checks[0].Name != "disk" || s.Checks[0].Status == Fail || !strings.Contains(s.Checks[0].Detail, "free") ||
		s.Checks[1].Status != OK || !strings.Contains(s.Checks[1].Detail, "no audit log yet") {
		t.Fatalf("an empty state directory: %+v", s.Checks)
	}
	l, err := audit.Open(dir, audit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Append(audit.Record{Action: "freeze", Target: audit.Target{Kind: "transaction", ID: "t1"}, Outcome: audit.OutcomeAttempt,
		MutationID: "m1"}); err != nil {
		t.Fatal(err)
	}
	l.Close()
	if c := p.state().Checks[1]; c.Status != Warn || !strings.Contains(c.Detail, "1 attempt without an outcome") || c.Guidance == "" {
		t.Fatalf("an open attempt: %+v", c)
	}
	path := filepath.Join(dir, audit.FileName)
	b, _ := os.ReadFile(path)
	os.WriteFile(path, []byte(strings.Replace(string(b), "t1", "t2", 1)), 0o600)
	if c := p.state().Checks[1]; c.Status != Fail || !strings.Contains(c.Detail, "broken at line 1") {
		t.Fatalf("a broken log: %+v", c)
	}
	if s := (&prober{o: Options{StateDir: filepath.Join(dir, "none")}}).state(); s.Status() != Skip {
		t.Fatalf("a directory not created yet: %+v", s)
	}
}
