package get

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/creack/pty"

	"treasury/commands/cli/clitest"
	"treasury/commands/sandbox/profiletest"
	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
	"treasury/wire/reporting"
)

// hostileReport is a sandbox whose reports hold names full of escape
// sequences and controls, the profile of it, and a READY PAYMENT_OPS CSV
// report's id.
func hostileReport(t *testing.T) (profile, id string) {
	t.Helper()
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	if err := srv.SetFaults(sandbox.FaultSettings{Hostile: true}); err != nil {
		t.Fatal(err)
	}
	profile = profiletest.Write(t, srv, clitest.FreeAddr(t), nil)
	for _, r := range getJSON[[]reporting.Report](t, "--config", profile, "reports") {
		if r.Status == "READY" && r.Type == reporting.TypePaymentOps && r.Format == "CSV" {
			return profile, r.ID
		}
	}
	t.Fatal("no READY PAYMENT_OPS CSV report")
	return "", ""
}

// `get report ID --raw` writes the content as downloaded to a file or a
// pipe, controls included; to a terminal (a real pty) it refuses content a
// terminal would act on, writes nothing and exits 1, saying how to get it.
func TestGetRawRefusesControlsOnATerminal(t *testing.T) {
	profile, id := hostileReport(t)

	var out bytes.Buffer
	e, stderr := clitest.Env(t, &out)
	if code := clitest.Run(context.Background(), Command, e, "--config", profile, "report", id, "--raw"); code != 0 {
		t.Fatalf("to a pipe: exit %d: %s", code, stderr)
	}
	if !strings.Contains(out.String(), "\x1b") {
		t.Fatal("the hostile report holds no escape: the test proves nothing")
	}

	ptm, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	defer ptm.Close()
	written := make(chan []byte, 1)
	go func() { b, _ := io.ReadAll(ptm); written <- b }()
	e, stderr = clitest.Env(t, nil)
	e.Stdout = tty
	code := clitest.Run(context.Background(), Command, e, "--config", profile, "report", id, "--raw")
	tty.Close()
	if code != 1 || !strings.Contains(stderr.String(), "not written to the terminal") || !strings.Contains(stderr.String(), "--raw > FILE") {
		t.Fatalf("to a terminal: exit %d, stderr %q", code, stderr)
	}
	if strings.Contains(stderr.String(), "\x1b") {
		t.Fatalf("stderr holds an escape: %q", stderr)
	}
	if b := <-written; len(b) != 0 {
		t.Fatalf("%d bytes reached the terminal: %q", len(b), b[:min(len(b), 80)])
	}
}
