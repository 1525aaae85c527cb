package audit

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"treasury/commands/cli/clitest"
	"treasury/config"
	"treasury/desk/audit"
)

// `treasury audit verify` passes the log the dashboard writes (in the
// state directory), and after a hand edit exits 1 naming the line and
// what is wrong; usage errors exit 2.
func TestAuditVerify(t *testing.T) {
	var out bytes.Buffer
	e, stderr := clitest.Env(t, &out)
	dir := config.StateDir(e.Getenv)
	l, err := audit.Open(dir, audit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"t1", "t2", "t3"} {
		if _, err := l.Append(audit.Record{Who: audit.Who{Via: audit.ViaLocal, User: "ana"}, Action: "freeze",
			Target: audit.Target{Kind: "transaction", ID: id}, Outcome: audit.OutcomeDone}); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	if code := clitest.Run(ctx, Command, e, "verify"); code != 0 || !strings.Contains(out.String(), "intact: 3 lines") ||
		strings.Contains(out.String(), "without an outcome") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out.String(), stderr.String())
	}
	// An attempt line with no outcome after it: the chain is intact, and
	// the attempt is named.
	if _, err := l.Append(audit.Record{Who: audit.Who{Via: audit.ViaLocal, User: "ana"}, Action: "freeze", Environment: "prod",
		Target: audit.Target{Kind: "transaction", ID: "t4"}, Outcome: audit.OutcomeAttempt, MutationID: "m4",
		Request: "PUT /v2/wallets/w/transactions/t4/freeze"}); err != nil {
		t.Fatal(err)
	}
	l.Close()
	out.Reset()
	if code := clitest.Run(ctx, Command, e, "verify"); code != 0 || !strings.Contains(out.String(), "intact: 4 lines") ||
		!strings.Contains(out.String(), "1 attempt without an outcome (in flight or interrupted: the dashboard's next decision") ||
		!strings.Contains(out.String(), "seq 4") || !strings.Contains(out.String(), "freeze of transaction t4  mutationId m4  by ana") ||
		!strings.Contains(out.String(), "PUT /v2/wallets/w/transactions/t4/freeze") {
		t.Fatalf("an open attempt: exit %d, stdout %q, stderr %q", code, out.String(), stderr.String())
	}

	// A retry under the same key that ended done settles it: listed as
	// settled, not as without an outcome.
	l, err = audit.Open(dir, audit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	retry, err := l.Append(audit.Record{Who: audit.Who{Via: audit.ViaLocal, User: "bo"}, Action: "freeze", Environment: "prod",
		Target: audit.Target{Kind: "transaction", ID: "t4"}, Outcome: audit.OutcomeAttempt, MutationID: "m4",
		Request: "PUT /v2/wallets/w/transactions/t4/freeze"})
	if err != nil {
		t.Fatal(err)
	}
	l.Append(audit.Record{Who: audit.Who{Via: audit.ViaLocal, User: "bo"}, Action: "freeze", Environment: "prod",
		Target: audit.Target{Kind: "transaction", ID: "t4"}, Outcome: audit.OutcomeDone, MutationID: "m4", Attempt: retry.Seq})
	l.Close()
	out.Reset()
	if code := clitest.Run(ctx, Command, e, "verify"); code != 0 || strings.Contains(out.String(), "without an outcome") ||
		!strings.Contains(out.String(), "1 attempt settled by a retry under the same key") ||
		!strings.Contains(out.String(), "seq 4") || !strings.Contains(out.String(), "the retry at seq 6 ended done") {
		t.Fatalf("a settled attempt: exit %d, stdout %q, stderr %q", code, out.String(), stderr.String())
	}

	// A key an outcome left unknown is listed until a later line settles it.
	l, err = audit.Open(dir, audit.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a5, _ := l.Append(audit.Record{Who: audit.Who{Via: audit.ViaLocal, User: "bo"}, Action: "lock", Target: audit.Target{Kind: "endpoint", ID: "ep-1"},
		Outcome: audit.OutcomeAttempt, IntentID: "i5", Request: "POST /v1/intents"})
	l.Append(audit.Record{Who: audit.Who{Via: audit.ViaLocal, User: "bo"}, Action: "lock", Target: audit.Target{Kind: "endpoint", ID: "ep-1"},
		Outcome: audit.OutcomeUnknown, IntentID: "i5", Attempt: a5.Seq, Error: "no answer in time"})
	l.Close()
	out.Reset()
	if code := clitest.Run(ctx, Command, e, "verify"); code != 0 || !strings.Contains(out.String(), "1 key left unknown") ||
		!strings.Contains(out.String(), "lock of endpoint ep-1  intentId i5  by bo: no answer in time") {
		t.Fatalf("an unknown key: exit %d, stdout %q", code, out.String())
	}

	path := filepath.Join(dir, audit.FileName)
	b, _ := os.ReadFile(path)
	edited := filepath.Join(t.TempDir(), "edited.jsonl")
	os.WriteFile(edited, bytes.Replace(b, []byte(`"t2"`), []byte(`"t7"`), 1), 0o600)
	out.Reset()
	stderr.Reset()
	code := clitest.Run(ctx, Command, e, "verify", "--file", edited)
	if code != 1 || !strings.Contains(stderr.String(), "BROKEN at line 2: hash mismatch") || !strings.Contains(stderr.String(), "lines 1-1 are intact") {
		t.Fatalf("edited: exit %d, stderr %q", code, stderr.String())
	}

	for _, args := range [][]string{{}, {"check"}, {"verify", "--nope"}, {"verify", "extra"}} {
		if code := clitest.Run(ctx, Command, e, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	stderr.Reset()
	if code := clitest.Run(ctx, Command, e, "verify", "--file", filepath.Join(t.TempDir(), "none")); code != 1 || !strings.Contains(stderr.String(), "no such file") {
		t.Errorf("missing file: exit %d, %q", code, stderr.String())
	}
}
