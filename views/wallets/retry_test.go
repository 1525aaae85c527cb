package wallets_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"treasury/desk/audit"
	"treasury/sandbox"
	"treasury/views/viewtest"
	"treasury/views/wallets"
	"treasury/wire/wallet"
)

// unknownFreeze freezes a transaction through the dialog while the wallet
// interface answers 500 to every attempt: the dialog shows the failure as
// an unknown outcome and says what f does; esc closes it. It returns the
// mutationId sent.
func unknownFreeze(t *testing.T) (*viewtest.Env, *teatest.TestModel, wallet.Transaction, string) {
	t.Helper()
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory()})
	tx := pickTx(t, e, "freezable", freezable)
	tm := onTx(t, e, wallets.New(e.Ctx, e.P, e.Actor), tx.ID, "not frozen (f freezes)")
	viewtest.Keys(tm, "f")
	viewtest.WaitFor(t, tm, "Freeze wallet transaction")
	// The dialog has read where the freeze goes; the freeze meets the 500s.
	if err := e.Sandbox.SetFaults(sandbox.FaultSettings{ErrorRate: 1}); err != nil {
		t.Fatal(err)
	}
	viewtest.Keys(tm, "shift+tab", "hold for review", "enter", "enter")
	viewtest.WaitAll(t, tm, "outcome unknown", "INTERNAL(13)", "what to do")
	es := auditOf(t, e)
	if len(es) != 1 || es[0].Outcome != audit.OutcomeUnknown || es[0].MutationID == "" {
		t.Fatalf("audit %+v, want one error", es)
	}
	if err := e.Sandbox.SetFaults(sandbox.FaultSettings{}); err != nil {
		t.Fatal(err)
	}
	viewtest.Keys(tm, "esc")
	viewtest.WaitFor(t, tm, "not frozen (f freezes)")
	return e, tm, tx, es[0].MutationID
}

// After a 500 the next freeze of the transaction is a retry: the dialog
// says "retry of <mutationId>" and the first operator's reason, asks for
// a reason of its own (the field starts empty), and sends the same
// mutationId; the freeze is applied once. The next decision after the
// success gets a new mutationId.
func TestFreezeRetryAfterUnknownReusesMutationID(t *testing.T) {
	t.Parallel()
	e, tm, tx, mid := unknownFreeze(t)
	viewtest.Keys(tm, "f")
	// The first operator's reason is said, not put in the field (the
	// golden below shows it empty): the retry gives its own.
	viewtest.WaitAll(t, tm, "retry of "+mid, `reason "hold for review"`)
	viewtest.Keys(tm, "shift+tab", "500s, retried", "enter", "enter")
	viewtest.WaitAll(t, tm, "froze transaction "+tx.ID, mid)
	viewtest.Keys(tm, "esc")
	viewtest.WaitFor(t, tm, "FROZEN · progress is paused")
	viewtest.Keys(tm, "U")
	viewtest.WaitFor(t, tm, "Unfreeze wallet transaction")
	frame := viewtest.Frame(t, tm)
	if strings.Contains(frame, "retry of") || strings.Contains(frame, mid) {
		t.Fatalf("the unfreeze after a success reuses the freeze's key:\n%s", frame)
	}
	es := auditOf(t, e)
	if len(es) != 2 || es[1].Outcome != audit.OutcomeDone || es[1].MutationID != mid || es[1].Reason != "500s, retried" {
		t.Fatalf("audit %+v, want the retry ok under %s", es, mid)
	}
	got := sandboxTx(t, e, tx.ID)
	n := 0
	for _, ev := range got.FreezeInfo.History {
		if strings.EqualFold(ev.MutationID, mid) {
			n++
		}
	}
	if !got.FreezeInfo.IsFrozen || n != 1 {
		t.Fatalf("sandbox: frozen %v, %d freezes under %s", got.FreezeInfo.IsFrozen, n, mid)
	}
}

// The retry dialog, at 120x40 without colour: the first attempt's reason
// said, the reason field empty. The mutationId, new each run, is
// replaced, and so are the time it was first sent (the host's clock) and
// the health line, which may count the wallet calls that failed while the
// faults were on (the detail's reads race the freeze).
func TestRetryDialogGolden(t *testing.T) {
	t.Parallel()
	_, tm, _, mid := unknownFreeze(t)
	viewtest.Keys(tm, "f")
	viewtest.WaitFor(t, tm, "retry of "+mid)
	frame := strings.ReplaceAll(viewtest.Frame(t, tm), mid, "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx")
	frame = firstSent.ReplaceAllString(frame, "first sent YYYY-MM-DD hh:mm:ss UTC")
	lines := strings.Split(frame, "\n")
	lines[1] = "(health line)"
	golden.RequireEqual(t, []byte(strings.Join(lines, "\n")))
}

var firstSent = regexp.MustCompile(`first sent \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC`)
