package ui

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"treasury/ui/uitest"
	"treasury/wire/apierr"
)

var (
	keyTab      = uitest.Key("tab")
	keyShiftTab = uitest.Key("shift+tab")
	keyEnter    = uitest.Key("enter")
	keyEsc      = uitest.Key("esc")
	keyLeft     = uitest.Key("left")
)

func typeText(d *dialog, s string) {
	for _, r := range s {
		d.update(uitest.Key(string(r)))
	}
}

// freezeDialog is a freeze confirmation (in prod, with a typed code); runs
// counts the reasons it ran with.
func freezeDialog(env string, runs *[]string) *dialog {
	c := Confirm{Title: "Freeze wallet transaction", Lines: []string{"Transaction  tx-0001"}, Action: "Freeze", Reason: "Reason",
		RunReason: func(r string) tea.Cmd {
			return func() tea.Msg { *runs = append(*runs, r); return nil }
		}}
	if env == "prod" {
		c.TypeToConfirm = "0001"
	}
	return newDialog(testContext(env, false), c, 1)
}

// run executes what a confirmed dialog returned, as the program would,
// and returns the messages.
func run(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		var out []tea.Msg
		for _, c := range msg {
			out = append(out, run(c)...)
		}
		return out
	case nil:
		return nil
	default:
		return []tea.Msg{msg}
	}
}

func TestDialogStartsOnCancel(t *testing.T) {
	for _, env := range []string{"test", "prod"} {
		var runs []string
		d := freezeDialog(env, &runs)
		if d.focused() != fieldCancel {
			t.Errorf("%s: focus on %v, want Cancel", env, d.focused())
		}
		// Enter on Cancel cancels.
		if _, closed := d.update(keyEnter); !closed || len(runs) != 0 {
			t.Errorf("%s: enter on Cancel: closed %v, ran %v", env, closed, runs)
		}
	}
}

// Tab goes through every field and wraps; shift+tab goes back.
func TestDialogTabOrder(t *testing.T) {
	var runs []string
	d := freezeDialog("prod", &runs)
	var order []field
	for range 5 {
		d.update(keyTab)
		order = append(order, d.focused())
	}
	want := []field{fieldConfirm, fieldReason, fieldCode, fieldCancel, fieldConfirm}
	if !equalFields(order, want) {
		t.Fatalf("tab order %v, want %v", order, want)
	}
	order = order[:0]
	for range 5 {
		d.update(keyShiftTab)
		order = append(order, d.focused())
	}
	want = []field{fieldCancel, fieldCode, fieldReason, fieldConfirm, fieldCancel}
	if !equalFields(order, want) {
		t.Fatalf("shift+tab order %v, want %v", order, want)
	}
	// Without a reason or a code: Cancel and the action only.
	plain := newDialog(testContext("test", false), Confirm{Title: "Trigger", Action: "Trigger"}, 1)
	plain.update(keyTab)
	if plain.focused() != fieldConfirm {
		t.Fatalf("tab from Cancel: %v", plain.focused())
	}
	plain.update(keyTab)
	if plain.focused() != fieldCancel {
		t.Fatalf("tab from the action: %v", plain.focused())
	}
	plain.update(keyLeft)
	if plain.focused() != fieldConfirm {
		t.Fatalf("left from Cancel: %v", plain.focused())
	}
	if v := plain.view(80, 20); !strings.Contains(v, "[ enter: Trigger ]") || !strings.Contains(v, "enter runs Trigger now") {
		t.Fatalf("the focused button is not bracketed, or does not say that enter presses it:\n%s", v)
	}
	plain.update(keyLeft)
	if v := plain.view(80, 20); !strings.Contains(v, "[ enter: Cancel ]") || !strings.Contains(v, "enter cancels: nothing is sent") {
		t.Fatalf("Cancel focused:\n%s", v)
	}
}

func equalFields(a, b []field) bool {
	return strings.Join(fieldNames(a), " ") == strings.Join(fieldNames(b), " ")
}

func fieldNames(fs []field) []string {
	var out []string
	for _, f := range fs {
		out = append(out, [...]string{"reason", "code", "cancel", "confirm"}[f])
	}
	return out
}

// Enter in a text field moves on only when the field is valid, to the
// next field needed or else to the action's button (never to Cancel), and
// what enter will do is said at every step: a reason typed and enter
// pressed twice runs the action the button names (test), or asks for the
// code (prod); it is never a silent cancel.
func TestDialogEnterMovesToTheActionWhenValid(t *testing.T) {
	for _, env := range []string{"test", "prod"} {
		var runs []string
		d := freezeDialog(env, &runs)
		d.update(keyShiftTab)
		if env == "prod" {
			d.update(keyShiftTab)
		}
		if d.focused() != fieldReason {
			t.Fatalf("%s: shift+tab from Cancel reached %v, want the reason", env, d.focused())
		}
		// An empty reason: enter stays, and says why.
		if cmd, closed := d.update(keyEnter); closed || cmd != nil || d.focused() != fieldReason || !strings.Contains(d.hint, "reason") {
			t.Fatalf("%s: enter on an empty reason: closed %v, focus %v, hint %q", env, closed, d.focused(), d.hint)
		}
		if v := d.view(80, 30); !strings.Contains(v, "enter does nothing yet: type a reason first") {
			t.Fatalf("%s: the dialog does not say what enter does:\n%s", env, v)
		}
		typeText(d, "suspected fraud")
		if env == "prod" {
			if v := d.view(80, 30); !strings.Contains(v, "enter goes to the code to type") {
				t.Fatalf("prod: %s", v)
			}
			d.update(keyEnter)
			if d.focused() != fieldCode {
				t.Fatalf("prod: enter in the reason went to %v, want the code", d.focused())
			}
			if _, closed := d.update(keyEnter); closed || d.focused() != fieldCode || !strings.Contains(d.hint, "0001") {
				t.Fatalf("prod: enter on an empty code: closed %v, focus %v, hint %q", closed, d.focused(), d.hint)
			}
			typeText(d, "0001")
		} else if v := d.view(80, 30); !strings.Contains(v, "enter goes to Freeze") {
			t.Fatalf("test: %s", v)
		}
		cmd, closed := d.update(keyEnter)
		if closed || d.focused() != fieldConfirm || len(run(cmd)) != 0 || len(runs) != 0 {
			t.Fatalf("%s: enter in the last field: closed %v, focus %v, ran %v", env, closed, d.focused(), runs)
		}
		if v := d.view(80, 30); !strings.Contains(v, "[ enter: Freeze ]") || !strings.Contains(v, "enter runs Freeze now") {
			t.Fatalf("%s: the button does not say what enter does:\n%s", env, v)
		}
		cmd, closed = d.update(keyEnter)
		run(cmd)
		if closed || d.state != running || len(runs) != 1 || runs[0] != "suspected fraud" {
			t.Fatalf("%s: enter on the button: closed %v, state %v, ran %v", env, closed, d.state, runs)
		}
	}
}

// Enter runs the action only on its focused button, and only once the
// fields are filled; otherwise it says what is missing and goes there.
func TestDialogRunsOnlyFromTheButton(t *testing.T) {
	var runs []string
	d := freezeDialog("prod", &runs)
	d.update(keyTab) // the action's button, not armed
	if cmd, closed := d.update(keyEnter); closed || cmd != nil || d.focused() != fieldReason || !strings.Contains(d.hint, "reason") {
		t.Fatalf("enter on the disarmed button: closed %v, focus %v, hint %q", closed, d.focused(), d.hint)
	}
	typeText(d, "hold")
	d.update(keyTab)
	typeText(d, "0002") // wrong code
	d.update(keyTab)
	d.update(keyTab)
	if cmd, _ := d.update(keyEnter); cmd != nil || d.focused() != fieldCode || !strings.Contains(d.hint, "0001") {
		t.Fatalf("wrong code: focus %v, hint %q", d.focused(), d.hint)
	}
	for range 4 {
		d.update(uitest.Key("backspace"))
	}
	typeText(d, "0001")
	d.update(keyTab)
	d.update(keyTab)
	cmd, closed := d.update(keyEnter)
	if closed || d.state != running {
		t.Fatalf("enter on the armed button: closed %v, state %v", closed, d.state)
	}
	msgs := run(cmd)
	if len(runs) != 1 || runs[0] != "hold" {
		t.Fatalf("ran %v, want once with the reason", runs)
	}
	answered := false
	for _, m := range msgs {
		if a, ok := m.(confirmAnswered); ok && a.seq == d.seq {
			answered = true
		}
	}
	if !answered {
		t.Fatalf("no answer among %v", msgs)
	}
	// Keys do nothing while it runs but esc, which hides it.
	if cmd, closed := d.update(keyEnter); closed || cmd != nil {
		t.Fatal("enter while running did something")
	}
	if _, closed := d.update(keyEsc); !closed || d.state != running {
		t.Fatal("esc did not hide the running dialog")
	}
}

// actView is a view whose f asks to confirm c and whose action's answer
// (an acted message) it turns into a result.
type actView struct {
	*listView
	c Confirm
}

type acted struct{ err error }

func (v *actView) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if msg.String() == "f" {
			c := v.c
			return func() tea.Msg { return c }
		}
	case acted:
		if msg.err != nil {
			return ResultCmd("freeze of tx-0001: outcome unknown; f again retries with the same mutationId", msg.err)
		}
		return ResultCmd("froze transaction tx-0001: now frozen", nil)
	}
	return v.listView.Update(msg)
}

// released is a Run that waits until release is closed.
func released(release chan struct{}, err error) func(string) tea.Cmd {
	return func(string) tea.Cmd {
		return func() tea.Msg {
			<-release
			return acted{err: err}
		}
	}
}

func actApp(t *testing.T, env string, c Confirm) *teatest.TestModel {
	t.Helper()
	n := 0
	v := &actView{listView: &listView{name: "alpha", rows: []string{"tx-0001"}, acted: &n}, c: c}
	return teatest.NewTestModel(t, NewApp(testContext(env, false), v), teatest.WithInitialTermSize(80, 24))
}

func prodFreeze(run func(string) tea.Cmd) Confirm {
	return Confirm{Title: "Freeze wallet transaction", Action: "Freeze", Reason: "Reason", TypeToConfirm: "0001",
		ReasonValue: "suspected fraud",
		Intro:       []string{"The transaction will be frozen: it stops progressing until it is unfrozen."},
		Lines:       []string{"Transaction  tx-0001", "Amount       1.50000000 BTC", "mutationId   7d3c-…-0001"},
		Before:      []string{"Status       PENDING_APPROVAL, not frozen"},
		Retry:       "retry of 7d3c-…-0001, first sent 2026-11-16 09:28:00 UTC by alice: no known answer (timed out); the same mutationId goes again, so the platform applies it at most once",
		Waiting:     "the wallet interface: PUT …/transactions/tx-0001/freeze",
		RunReason:   run}
}

func testFreeze(run func(string) tea.Cmd) Confirm {
	c := prodFreeze(run)
	c.TypeToConfirm = ""
	return c
}

// spinnerFrames are the spinner's glyphs: a golden holds "*" instead, the
// frame shown depending on when it was drawn.
var spinnerFrames = regexp.MustCompile(`[\x{2800}-\x{28FF}]`)

func frameOf(t *testing.T, tm *teatest.TestModel) string {
	t.Helper()
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	return spinnerFrames.ReplaceAllString(tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).View().Content, "*")
}

// The dialog of a prod freeze that retries an unknown one, filled in, with
// the focus on the action's button (no colour: the focus shows by
// brackets and the ▸ mark).
func TestDialogGolden(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	tm := filledProdFreeze(t, release)
	waitFor(t, tm, "[ enter: Freeze ]")
	golden.RequireEqual(t, []byte(frameOf(t, tm)))
}

// filledProdFreeze opens the prod freeze dialog of a retry, types the
// code and puts the focus on the action's button; the action waits for
// release.
func filledProdFreeze(t *testing.T, release chan struct{}) *teatest.TestModel {
	tm := actApp(t, "prod", prodFreeze(released(release, nil)))
	waitFor(t, tm, "tx-0001")
	tm.Type("f")
	waitFor(t, tm, "retry of")
	tm.Send(keyShiftTab) // the code
	tm.Type("0001")
	tm.Send(keyTab)
	tm.Send(keyTab)
	return tm
}

// While the action runs: the spinner, the time elapsed (a frozen clock: 0s)
// and what is awaited.
func TestDialogSpinnerGolden(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	tm := filledProdFreeze(t, release)
	tm.Send(keyEnter)
	waitFor(t, tm, "waiting for")
	golden.RequireEqual(t, []byte(frameOf(t, tm)))
}

// A failure stays in the dialog, in full: what it means, the code, the
// message and what to do.
func TestDialogFailureGolden(t *testing.T) {
	release := make(chan struct{})
	close(release)
	fail := &apierr.Error{Interface: apierr.Wallet, Method: "PUT", Path: "/v2/wallets/w1/transactions/tx-0001/freeze",
		HTTPStatus: 500, GRPCCode: 13, Type: "INTERNAL", Message: "internal error", RequestID: "req-42", Class: apierr.ClassRetry, Attempts: 5}
	tm := actApp(t, "test", testFreeze(released(release, fail)))
	waitFor(t, tm, "tx-0001")
	tm.Type("f")
	waitFor(t, tm, "retry of")
	tm.Send(keyTab)
	tm.Send(keyEnter)
	waitFor(t, tm, "req-42")
	golden.RequireEqual(t, []byte(frameOf(t, tm)))
}

// esc while the action runs hides the dialog; the call goes on, the footer
// says it runs, and its result arrives as a flash.
func TestDialogHiddenWhileRunning(t *testing.T) {
	release := make(chan struct{})
	tm := actApp(t, "test", testFreeze(released(release, nil)))
	waitFor(t, tm, "tx-0001")
	tm.Type("f")
	waitFor(t, tm, "retry of")
	tm.Send(keyTab)
	tm.Send(keyEnter)
	waitFor(t, tm, "waiting for")
	tm.Send(keyEsc)
	waitFor(t, tm, "still waiting for the answer")
	close(release)
	waitFor(t, tm, "froze transaction tx-0001: now frozen")
	frame := frameOf(t, tm)
	if strings.Contains(frame, "waiting for") || strings.Contains(frame, "running") {
		t.Fatalf("the dialog or its status outlived the answer:\n%s", frame)
	}
}

// The error shown in the footer keeps the result's text before it.
func TestFooterShowsResultTextAndError(t *testing.T) {
	a := NewApp(testContext("test", false), &listView{name: "alpha", rows: []string{"x"}})
	a.Update(tea.WindowSizeMsg{Width: 200, Height: 10})
	a.Update(Flash{Text: "freeze of x: outcome unknown", Err: errors.New("boom")})
	if f := a.footer(); !strings.Contains(f, "freeze of x: outcome unknown ✖ boom") {
		t.Fatalf("footer %q", f)
	}
}

func TestWrapWordsKeepsIDsWhole(t *testing.T) {
	for _, c := range []struct {
		in    string
		width int
		want  string
	}{
		{"froze transaction 00549c48-04e2-4448-abb2-ac7af328ba0b now", 40, "froze transaction\n00549c48-04e2-4448-abb2-ac7af328ba0b now"},
		{"froze 00549c48-04e2", 12, "froze\n00549c48-04e\n2"},
		{"a bb ccc", 4, "a bb\nccc"},
		{"abcdefghij", 4, "abcd\nefgh\nij"},
		{"x abcdefgh", 4, "x\nabcd\nefgh"},
		{"one\ntwo three", 9, "one\ntwo three"},
		{"a  b", 4, "a  b"},
		{"", 5, ""},
	} {
		if got := wrapWords(c.in, c.width); got != c.want {
			t.Errorf("wrapWords(%q, %d) = %q, want %q", c.in, c.width, got, c.want)
		}
	}
}

// Once the action has run, the dialog does not show the record's state as
// read before it as current: the intro (what was to come) is gone and the
// state lines stand under the "before" heading; while asking they are the
// record's state, unlabelled. For every action: success and failure alike.
func TestDialogResultLabelsStateBefore(t *testing.T) {
	state := "Status       PENDING_APPROVAL, not frozen"
	for _, res := range []Flash{{Text: "✔ froze transaction tx-0001: now frozen"},
		{Text: "freeze of tx-0001: outcome unknown", Err: errors.New("timed out")}} {
		d := newDialog(testContext("test", false), testFreeze(nil), 1)
		asking := d.view(100, 40)
		if !strings.Contains(asking, "will be frozen") || !strings.Contains(asking, state) || strings.Contains(asking, beforeHeading) {
			t.Fatalf("asking: want the intro and the state unlabelled:\n%s", asking)
		}
		d.state, d.result = done, res
		for _, size := range [][2]int{{100, 40}, {80, 22}} {
			out := d.view(size[0], size[1])
			head, at := strings.Index(out, beforeHeading), strings.Index(out, state)
			if strings.Contains(out, "will be frozen") || at < 0 || head < 0 || head > at {
				t.Errorf("result %q at %dx%d: want no intro and the state under %q:\n%s", res.Text, size[0], size[1], beforeHeading, out)
			}
		}
	}
}

// Text typed while a button has the focus lands in the field the action
// still needs (the reason, then the code), never nowhere: the audit keeps
// what was typed.
func TestDialogTypingOnAButtonFillsTheField(t *testing.T) {
	var runs []string
	d := freezeDialog("prod", &runs)
	for _, k := range uitest.Keys("hold for review") {
		d.update(k)
	}
	if d.focused() != fieldReason || d.reason.Value() != "hold for review" {
		t.Fatalf("typed on Cancel: focus %v, reason %q", d.focused(), d.reason.Value())
	}
	d.update(keyTab) // to the code
	d.update(keyTab) // to Cancel
	for _, k := range uitest.Keys("0001") {
		d.update(k)
	}
	if d.focused() != fieldCode || d.code.Value() != "0001" {
		t.Fatalf("typed on Cancel with the code missing: focus %v, code %q", d.focused(), d.code.Value())
	}
	// With every field valid, text on a button goes to the reason.
	d.update(keyTab)
	d.update(keyTab)
	d.update(uitest.Key("!"))
	if d.focused() != fieldReason || d.reason.Value() != "hold for review!" {
		t.Fatalf("typed on a button with nothing missing: focus %v, reason %q", d.focused(), d.reason.Value())
	}
	// A dialog without a text field takes no text.
	plain := newDialog(testContext("test", false), Confirm{Title: "Trigger", Action: "Trigger"}, 1)
	plain.update(uitest.Key("x"))
	if plain.focused() != fieldCancel {
		t.Fatalf("a dialog without fields: focus %v", plain.focused())
	}
}

// A record too long for the terminal (a batch of many) is shown a part
// at a time: the dialog says which lines and how to scroll, and pgdn and
// pgup move through them; every line can be read before confirming.
func TestDialogScrollsALongRecord(t *testing.T) {
	a := NewApp(testContext("test", false), &listView{name: "alpha", rows: []string{"x"}})
	a.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	lines := make([]string, 30)
	for i := range lines {
		lines[i] = fmt.Sprintf("record %02d", i+1)
	}
	a.Update(Confirm{Title: "Freeze 30 transactions", Lines: lines, Action: "Freeze", Reason: "Reason",
		RunReason: func(string) tea.Cmd { return nil }})
	seen := map[string]bool{}
	for range 10 {
		f := a.Frame()
		for _, l := range lines {
			if strings.Contains(f, l+" ") {
				seen[l] = true
			}
		}
		if !strings.Contains(f, "of 30: pgup/pgdn scroll") {
			t.Fatalf("the cut is not said:\n%s", f)
		}
		a.Update(uitest.Key("pgdown"))
	}
	if len(seen) != 30 {
		t.Fatalf("%d of 30 lines could be read", len(seen))
	}
	a.Update(uitest.Key("pgup"))
	if f := a.Frame(); strings.Contains(f, "record 30 ") {
		t.Fatalf("pgup did not move back:\n%s", f)
	}
}
