package journal

import (
	"bytes"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestLinesAsTheJournalKeepsThem(t *testing.T) {
	var out bytes.Buffer
	log := slog.New(NewHandler(&out, nil)).With("component", "ssh")
	log.Info("ssh session start", "user", "ana", "role", "viewer")
	log.Warn("state directory", "problem", "low on space")
	log.Error("access file unusable", "error", "roles:2: role \"root\"")
	log.Debug("not shown")
	slog.New(NewHandler(&out, nil)).Info("two\nlines")
	want := "<6>ssh session start component=ssh user=ana role=viewer\n" +
		"<4>state directory component=ssh problem=\"low on space\"\n" +
		"<3>access file unusable component=ssh error=\"roles:2: role \\\"root\\\"\"\n" +
		"<6>two lines\n"
	if out.String() != want {
		t.Errorf("got\n%s\nwant\n%s", out.String(), want)
	}
}

func TestIsJournal(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "stream"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, _ := f.Stat()
	st := fi.Sys().(*syscall.Stat_t)
	env := func(v string) func(string) string { return func(string) string { return v } }
	if !IsJournal(f, env(fmt.Sprintf("%d:%d", st.Dev, st.Ino))) {
		t.Error("the stream JOURNAL_STREAM names is not taken for the journal")
	}
	if IsJournal(f, env(fmt.Sprintf("%d:%d", st.Dev, st.Ino+1))) || IsJournal(f, env("")) {
		t.Error("another stream taken for the journal")
	}
}
