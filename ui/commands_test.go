package ui

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"treasury/config/route"
)

// TestCommandArgsAreTheRecordsFields: {id} is the record's id, {name} a
// field by its name at any depth or by its path, {state} its state; a
// field the record lacks runs nothing.
func TestCommandArgsAreTheRecordsFields(t *testing.T) {
	rec := map[string]any{"paymentId": "p-1", "paymentState": "FAILED", "originator": map[string]any{"internalId": "INV-7"},
		"amount": 12.5}
	got, err := CommandArgs([]string{"{id}", "--ref={internalId}", "{originator.internalId}", "{state}", "{amount}", "plain"}, "p-1", rec)
	if err != nil || strings.Join(got, " ") != "p-1 --ref=INV-7 INV-7 FAILED 12.5 plain" {
		t.Fatalf("args %q, %v", got, err)
	}
	if _, err := CommandArgs([]string{"{walletId}"}, "p-1", rec); err == nil || !strings.Contains(err.Error(), "{walletId}") {
		t.Fatalf("a field the record lacks: %v", err)
	}
	// A NUL in a field (the network's bytes) cannot be an argument: the
	// command is refused with why, never run to fail with "invalid
	// argument" and be logged as exit 0.
	rec["memo"] = "a\x00b"
	if _, err := CommandArgs([]string{"--memo={memo}"}, "p-1", rec); err == nil || !strings.Contains(err.Error(), "{memo} holds a NUL byte") {
		t.Fatalf("a NUL in a field: %v", err)
	}
}

// TestACustomCommandRunsOnTheSelectedRecord: its key runs the program
// (no shell: a field's text is one argument, whatever it holds) and its
// output shows in a pane, logged; a command the session may not run
// says why and runs nothing; on another view the key is the view's.
func TestACustomCommandRunsOnTheSelectedRecord(t *testing.T) {
	echo, err := exec.LookPath("echo")
	if err != nil {
		t.Skip("no echo")
	}
	// The program is a shell here only to print its arguments on lines of
	// their own and an escape sequence: the dashboard runs none.
	var logged []string
	ctx := testContext("test", false)
	ctx.Commands = []CustomCommand{
		{Name: "echo", Key: "ctrl+e", Program: "/bin/sh", Args: []string{"-c", "echo record \"$1\"; echo \"$2\"; printf 'bad\\033[2Jend\\n'", "sh", "{id}", "; rm -rf /"},
			Views: []route.Route{"alpha"}},
		{Name: "ticket", Key: "ctrl+t", Program: echo, Views: []route.Route{"alpha"}, Refused: "over treasury serve the profile allows it for nobody"},
	}
	ctx.CommandLog = func(msg string, args ...any) { logged = append(logged, msg) }
	a := NewApp(ctx, &listView{name: "alpha", rows: []string{"a-1"}}, &listView{name: "bravo", rows: []string{"b-1"}})
	a.Init()
	defer a.Close()
	a.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	if !strings.Contains(ansi.Strip(a.Frame()), "ctrl+e echo") {
		t.Errorf("the footer does not name the command:\n%s", ansi.Strip(a.Frame()))
	}
	_, cmd := a.Update(tea.KeyPressMsg{Code: 'e', Mod: tea.ModCtrl})
	if cmd == nil {
		t.Fatal("ctrl+e ran nothing")
	}
	a.Update(cmd())
	frame := regexp.MustCompile(` +\n`).ReplaceAllString(ansi.Strip(a.Frame()), "\n")
	if !strings.Contains(frame, "record a-1\n; rm -rf /\nbad\\x1b[2Jend") || a.overlayKind() != rawOverlay {
		t.Fatalf("the output pane:\n%s", frame)
	}
	if len(logged) != 1 || logged[0] != "custom command ran" {
		t.Fatalf("logged %v", logged)
	}
	a.Update(tea.KeyPressMsg{Code: tea.KeyEscape})
	a.Update(tea.KeyPressMsg{Code: 't', Mod: tea.ModCtrl})
	if !strings.Contains(a.flash.Text, "ticket: refused: over treasury serve") || len(logged) != 1 {
		t.Fatalf("a refused command: footer %q, logged %v", a.flash.Text, logged)
	}
	a.Update(tea.KeyPressMsg{Code: tea.KeyTab})
	if _, cmd := a.Update(tea.KeyPressMsg{Code: 'e', Mod: tea.ModCtrl}); cmd != nil {
		if _, ok := cmd().(commandDone); ok {
			t.Fatal("the command ran on a view it does not name")
		}
	}
}
