package wallets_test

import (
	"strings"
	"testing"

	"treasury/desk/actions"
	"treasury/desk/audit"
	"treasury/views/viewtest"
	"treasury/views/wallets"
)

// In prod, a code typed in full that does not match, then the dialog
// closed: refused (wrong code), one line; nothing reaches the sandbox.
func TestProdWrongCodeIsRefusedOnTheRecord(t *testing.T) {
	t.Parallel()
	e := viewtest.New(t, viewtest.Options{Prod: true, Skip: viewtest.NoLiquidityHistory()})
	tx := pickTx(t, e, "freezable", freezable)
	tm := onTx(t, e, wallets.New(e.Ctx, e.P, e.Actor), tx.ID, "not frozen (f freezes)")
	viewtest.Keys(tm, "f")
	viewtest.WaitFor(t, tm, "to confirm")
	wrong := "zzzz"
	if strings.HasSuffix(tx.ID, wrong) {
		wrong = "yyyy"
	}
	// The code field is before Cancel (shift+tab), the reason before it.
	viewtest.Keys(tm, "shift+tab", wrong, "shift+tab", "hold", "esc")
	viewtest.WaitFor(t, tm, "does not match")
	tm.Quit()
	if sandboxTx(t, e, tx.ID).FreezeInfo.IsFrozen {
		t.Fatal("frozen with a wrong code")
	}
	es := auditOf(t, e)
	if len(es) != 1 || es[0].Outcome != audit.OutcomeRefused || es[0].Error != actions.ErrWrongCode.Error() ||
		es[0].Environment != "prod" || es[0].Target.ID != tx.ID || es[0].MutationID == "" {
		t.Fatalf("audit %+v, want one refusal for the wrong code", es)
	}
}

// A viewer over SSH presses f: refused, and the line names the SSH user,
// the key's fingerprint and its role.
func TestSSHViewerRefusalNamesTheKey(t *testing.T) {
	t.Parallel()
	who := audit.Who{Via: audit.ViaSSH, User: "ana", Key: "SHA256:viewerkey", Role: "viewer", From: "10.0.0.9:50022"}
	e := viewtest.New(t, viewtest.Options{ReadOnly: true, Who: &who, Skip: viewtest.NoLiquidityHistory()})
	tx := pickTx(t, e, "freezable", freezable)
	tm := onTx(t, e, wallets.New(e.Ctx, e.P, e.Actor), tx.ID, "not frozen")
	viewtest.Keys(tm, "f")
	viewtest.WaitFor(t, tm, "read-only session")
	tm.Quit()
	es := auditOf(t, e)
	if len(es) != 1 || es[0].Outcome != audit.OutcomeRefused || es[0].Who != who || es[0].Action != actions.Freeze {
		t.Fatalf("audit %+v, want one refusal by %v", es, who)
	}
}
