package addressbook_test

import (
	"context"
	"crypto/ed25519"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"treasury/desk/actions"
	"treasury/desk/audit"
	"treasury/sandbox"
	"treasury/ui"
	"treasury/ui/uitest"
	"treasury/views/addressbook"
	"treasury/views/viewtest"
	"treasury/wire/apierr"
	"treasury/wire/auth"
	"treasury/wire/custody"
	custodyclient "treasury/wire/custody/client"
	"treasury/wire/transport"
)

// auditOf returns the audit entries about an endpoint.
func auditOf(t *testing.T, e *viewtest.Env, id string) []audit.Record {
	t.Helper()
	all := e.Outcomes(t)
	var out []audit.Record
	for _, en := range all {
		if en.Target.Kind == "endpoint" && en.Target.ID == id {
			out = append(out, en)
		}
	}
	return out
}

func lockOf(t *testing.T, e *viewtest.Env, id string) string {
	t.Helper()
	ep, err := e.P.Custody.Endpoint(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return ep.Lock
}

func quit(t *testing.T, tm *teatest.TestModel) {
	t.Helper()
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second))
}

// onEndpoint runs the view and opens endpoint id's detail from the palette.
func onEndpoint(t *testing.T, e *viewtest.Env, id string) *teatest.TestModel {
	t.Helper()
	tm := e.Program(t, newView(e))
	viewtest.WaitFor(t, tm, endpoints(t, e)[0].Alias)
	viewtest.Keys(tm, ":", "endpoint "+id, "enter")
	viewtest.WaitFor(t, tm, "Smart-contract interface")
	return tm
}

// TestLockEndToEnd locks the first endpoint from the table: dialog, intent
// Pending then Approved on the sandbox clock, Executed, the endpoint shows
// Locked, and the audit log has the attempt.
func TestLockEndToEnd(t *testing.T) {
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory()})
	ep := endpoints(t, e)[0]
	if ep.Lock != custody.LockUnlocked {
		t.Fatalf("first endpoint is %s", ep.Lock)
	}
	tm := e.Program(t, newView(e))
	viewtest.WaitFor(t, tm, ep.Alias)
	viewtest.Keys(tm, "l")
	viewtest.WaitAll(t, tm, "Lock endpoint "+ep.Alias, ep.ID, ep.Address, "Environment: TEST", "Unlocked → Locked")
	viewtest.Keys(tm, "shift+tab", "suspected compromise", "enter", "enter")
	viewtest.WaitFor(t, tm, "proposed: intent")
	viewtest.Keys(tm, "esc") // the result, read
	viewtest.WaitFor(t, tm, "intent Pending 0/1")
	e.Advance(2 * time.Second)
	viewtest.WaitFor(t, tm, "intent Approved 1/1")
	e.Advance(3 * time.Second)
	viewtest.WaitFor(t, tm, "lock of "+ep.Alias+" executed: the endpoint is Locked")
	quit(t, tm)
	if got := lockOf(t, e, ep.ID); got != custody.LockLocked {
		t.Errorf("endpoint is %s after the lock", got)
	}
	got := auditOf(t, e, ep.ID)
	if len(got) != 1 || got[0].Action != actions.Lock || got[0].Outcome != audit.OutcomeDone || got[0].IntentID == "" ||
		got[0].Environment != e.Ctx.Environment || got[0].Reason != "suspected compromise" {
		t.Errorf("audit = %+v", got)
	}
}

// TestLockResultLabelsTheOldLockBefore: once the intent is proposed, the
// dialog no longer says what will happen ("Unlocked → Locked") and shows
// the lock read before it under the "before" heading, not as current.
func TestLockResultLabelsTheOldLockBefore(t *testing.T) {
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory()})
	ep := endpoints(t, e)[0]
	tm := e.Program(t, newView(e))
	viewtest.WaitFor(t, tm, ep.Alias)
	viewtest.Keys(tm, "l")
	viewtest.WaitFor(t, tm, "Unlocked → Locked")
	viewtest.Keys(tm, "shift+tab", "suspected compromise", "enter", "enter")
	viewtest.WaitFor(t, tm, "proposed: intent")
	frame := viewtest.Frame(t, tm)
	head, at := strings.Index(frame, "Before the action"), strings.Index(frame, "Lock:     "+custody.LockUnlocked)
	if !strings.Contains(frame, "✔ lock of") || strings.Contains(frame, "→ Locked") || at < 0 || head < 0 || head > at {
		t.Fatalf("want the result, no intro, and the lock before under its heading:\n%s", frame)
	}
}

// TestUnlockFromDetail unlocks a Locked endpoint from its detail, which
// shows the intent while it is open and its outcome after.
func TestUnlockFromDetail(t *testing.T) {
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory()})
	ep := endpointWhere(t, e, func(ep custody.Endpoint) bool { return ep.Lock == custody.LockLocked })
	tm := onEndpoint(t, e, ep.ID)
	viewtest.Keys(tm, "U")
	viewtest.WaitAll(t, tm, "Unlock endpoint "+ep.Alias, "Locked → Unlocked")
	viewtest.Keys(tm, "shift+tab", "cleared", "enter", "enter")
	viewtest.WaitFor(t, tm, "proposed: intent")
	viewtest.Keys(tm, "esc")
	viewtest.WaitAll(t, tm, "Pending intent", "intent Pending 0/1")
	e.Advance(5 * time.Second)
	viewtest.WaitAll(t, tm, "unlock of "+ep.Alias+" executed: the endpoint is Unlocked", "Last intent", "Executed")
	quit(t, tm)
	if got := lockOf(t, e, ep.ID); got != custody.LockUnlocked {
		t.Errorf("endpoint is %s after the unlock", got)
	}
	if got := auditOf(t, e, ep.ID); len(got) != 1 || got[0].Action != actions.Unlock || got[0].Outcome != audit.OutcomeDone ||
		got[0].Reason != "cleared" {
		t.Errorf("audit = %+v", got)
	}
}

// TestLockNotOfferedWhenLocked: a Locked endpoint is not offered a lock
// (the platform would refuse it): l is not among the keys, and pressing it
// says why instead of opening a dialog; nothing is sent or recorded.
func TestLockNotOfferedWhenLocked(t *testing.T) {
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory()})
	ep := endpointWhere(t, e, func(ep custody.Endpoint) bool { return ep.Lock == custody.LockLocked })
	tm := onEndpoint(t, e, ep.ID)
	sent := e.Sandbox.Stats().Requests["custody"]
	viewtest.Keys(tm, "l")
	viewtest.WaitFor(t, tm, "is Locked already: no lock to confirm (U unlocks it)")
	frame := viewtest.Frame(t, tm)
	if strings.Contains(frame, "Lock endpoint") || strings.Contains(frame, "l lock") || !strings.Contains(frame, "U unlock") {
		t.Fatalf("a Locked endpoint offers a lock:\n%s", frame)
	}
	if n := e.Sandbox.Stats().Requests["custody"] - sent; n != 0 {
		t.Errorf("%d custody requests after the key", n)
	}
	if got := auditOf(t, e, ep.ID); len(got) != 0 {
		t.Errorf("audit = %+v", got)
	}
}

// TestCancelDoesNothing: the dialog's default is Cancel.
func TestCancelDoesNothing(t *testing.T) {
	e := shared.Env(t)
	ep := endpoints(t, e)[0]
	tm := e.Program(t, newView(e))
	viewtest.WaitFor(t, tm, ep.Alias)
	viewtest.Keys(tm, "l")
	viewtest.WaitFor(t, tm, "Lock endpoint")
	viewtest.Keys(tm, "enter")
	viewtest.WaitFor(t, tm, "cancelled")
	quit(t, tm)
	if got := auditOf(t, e, ep.ID); len(got) != 1 || got[0].Outcome != audit.OutcomeCancelled || got[0].IntentID == "" {
		t.Errorf("audit after cancel = %+v", got)
	}
	if got := lockOf(t, e, ep.ID); got != custody.LockUnlocked {
		t.Errorf("endpoint is %s after a cancel", got)
	}
}

// TestProdAsksForTheIDsEnd: in prod the confirm button works only once the
// last four characters of the endpoint id are typed.
func TestProdAsksForTheIDsEnd(t *testing.T) {
	e := viewtest.New(t, viewtest.Options{Prod: true, Skip: viewtest.NoLiquidityHistory()})
	ep := endpoints(t, e)[0]
	tail := ep.ID[len(ep.ID)-4:]
	tm := e.Program(t, newView(e))
	viewtest.WaitFor(t, tm, ep.Alias)
	viewtest.Keys(tm, "l")
	viewtest.WaitAll(t, tm, "type "+tail+" to confirm", "Environment: PROD")
	viewtest.Keys(tm, "tab", "enter") // not armed: it says so and goes to the reason
	viewtest.WaitFor(t, tm, "type a reason first")
	viewtest.Keys(tm, "esc")
	viewtest.WaitFor(t, tm, "cancelled")
	viewtest.Keys(tm, "l")
	viewtest.WaitFor(t, tm, "to confirm")
	viewtest.Keys(tm, "shift+tab", tail, "shift+tab", "fraud report", "enter", "enter")
	viewtest.WaitFor(t, tm, "proposed: intent")
	viewtest.Keys(tm, "esc")
	viewtest.WaitFor(t, tm, "intent Pending")
	quit(t, tm)
	if got := auditOf(t, e, ep.ID); len(got) != 2 || got[0].Outcome != audit.OutcomeCancelled || got[1].Outcome != audit.OutcomeDone {
		t.Errorf("audit = %+v", got)
	}
}

// TestReadOnly: no lock or unlock key is offered, and pressing one says why
// without a dialog.
func TestReadOnly(t *testing.T) {
	e := viewtest.New(t, viewtest.Options{ReadOnly: true, Skip: viewtest.NoLiquidityHistory()})
	v := addressbook.New(e.Ctx, e.P, e.Actor)
	for _, k := range v.Keys() {
		if slices.Contains(k.Keys(), "l") || slices.Contains(k.Keys(), "U") {
			t.Errorf("read-only keys offer %v", k.Keys())
		}
	}
	for _, c := range v.Commands() {
		if strings.Contains(c.Name, "lock") {
			t.Errorf("read-only palette offers %s", c.Name)
		}
	}
	ep := endpoints(t, e)[0]
	tm := e.Program(t, v)
	viewtest.WaitFor(t, tm, ep.Alias)
	viewtest.Keys(tm, "l")
	viewtest.WaitFor(t, tm, "read-only")
	quit(t, tm)
	// From the detail, directly: u is refused with the reason.
	d := addressbook.New(e.Ctx, e.P, e.Actor)
	d.Update(ui.Open{View: d.Name(), Args: []string{"endpoint", ep.ID}})
	if len(d.Crumbs()) != 2 {
		t.Fatalf("detail not open: %v", d.Crumbs())
	}
	var refused bool
	for _, m := range viewtest.Drive(d, d.Update(uitest.Key("U"))) {
		if f, ok := m.(ui.Flash); ok && f.Err != nil && strings.Contains(f.Err.Error(), "read-only") {
			refused = true
		}
		if _, ok := m.(ui.Confirm); ok {
			t.Error("a read-only session got a confirmation dialog")
		}
	}
	if !refused {
		t.Error("u in the detail was not refused")
	}
	if got := lockOf(t, e, ep.ID); got != custody.LockUnlocked {
		t.Errorf("endpoint is %s after a read-only attempt", got)
	}
	// Both attempts are on the record, refused, with who tried.
	got := auditOf(t, e, ep.ID)
	if len(got) != 2 || got[0].Action != actions.Lock || got[1].Action != actions.Unlock {
		t.Fatalf("audit = %+v, want the lock and the unlock", got)
	}
	for _, r := range got {
		if r.Outcome != audit.OutcomeRefused || !strings.Contains(r.Error, "read-only") || r.Who.User != "tester" {
			t.Errorf("audit %+v, want refused (read-only) by tester", r)
		}
	}
}

// TestLockBadSignature: an intent signed with a key the custody service
// does not know is refused (403) and the reason flashes.
func TestLockBadSignature(t *testing.T) {
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory()})
	_, other, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := transport.New(transport.Config{Interface: apierr.Custody, BaseURL: e.Sandbox.Endpoints().Custody,
		Auth:  auth.NewStatic(auth.NewSecret(e.Sandbox.Credentials().CustodyToken)),
		Sleep: func(ctx context.Context, _ time.Duration) error { return ctx.Err() }})
	if err != nil {
		t.Fatal(err)
	}
	forged := custodyclient.New(tr, e.Sandbox.Credentials().CustodyDomainID,
		custody.Signer{UserID: sandbox.OperatorID(e.Sandbox.Seed()), Key: other}).WithClock(e.Sandbox.Clock().Now)
	act := actions.New(actions.Clients{Custody: forged, CanSign: true}, e.Actor.Identity(), e.Audit)
	ep := endpoints(t, e)[0]
	tm := e.Program(t, addressbook.New(e.Ctx, e.P, act))
	viewtest.WaitFor(t, tm, ep.Alias)
	viewtest.Keys(tm, "l")
	viewtest.WaitFor(t, tm, "Lock endpoint")
	viewtest.Keys(tm, "shift+tab", "fraud report", "enter", "enter")
	viewtest.WaitFor(t, tm, "signature does not verify")
	quit(t, tm)
	got := auditOf(t, e, ep.ID)
	if len(got) != 1 || got[0].Outcome != audit.OutcomeFailed || got[0].IntentID == "" {
		t.Errorf("audit = %+v", got)
	}
	if lock := lockOf(t, e, ep.ID); lock != custody.LockUnlocked {
		t.Errorf("endpoint is %s after a refused lock", lock)
	}
}

// The lock dialog asks for a reason, as a freeze does; the focus starts on
// Cancel, which says what enter does there. The intent id, new each run,
// is replaced.
func TestLockDialogGolden(t *testing.T) {
	e := shared.Env(t)
	ep := endpoints(t, e)[0]
	tm := e.Program(t, newView(e))
	viewtest.WaitFor(t, tm, ep.Alias)
	viewtest.Keys(tm, "l")
	viewtest.WaitAll(t, tm, "Lock endpoint "+ep.Alias, "Reason:", "[ enter: Cancel ]")
	frame := intentLine.ReplaceAllString(viewtest.Frame(t, tm), "Intent:   xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx")
	golden.RequireEqual(t, []byte(frame))
}

var intentLine = regexp.MustCompile(`Intent:   [0-9a-f-]{36}`)
