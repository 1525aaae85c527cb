package sshserve

import (
	"context"
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	gossh "golang.org/x/crypto/ssh"
)

func TestModelFaultsEndOnlyThatSession(t *testing.T) {
	alice := newTestKey(t, "alice")
	ev := newEvents()
	base := testNewModel(ev)
	ts := startServer(t, []string{alice.line}, Options{
		NewModel: func(ctx context.Context, s Session) (tea.Model, func(), error) {
			cleanup := func() { ev.send(event{user: s.User, kind: "cleanup"}) }
			switch s.User {
			case "fails":
				return nil, cleanup, errors.New("no credentials for secret-profile")
			case "panics":
				panic("model bug")
			case "panics-later":
				m, _, _ := base(ctx, s)
				return panicOnKey{m}, cleanup, nil
			}
			return base(ctx, s)
		},
	})

	for _, user := range []string{"fails", "panics", "panics-later"} {
		tm := ts.openTerm(t, user, alice, "xterm")
		if user == "panics-later" {
			tm.waitFor(t, "hello panics-later")
			if _, err := tm.stdin.Write([]byte("p")); err != nil {
				t.Fatal(err)
			}
		}
		var exit *gossh.ExitError
		if err := tm.wait(t); !errors.As(err, &exit) || exit.ExitStatus() != 1 {
			t.Errorf("%s: session ended with %v, want exit status 1", user, err)
		}
		if user == "fails" && strings.Contains(tm.output(), "secret-profile") {
			t.Errorf("the model's error reached the client: %q", tm.output())
		}
		if user != "panics" {
			ev.next(t, user, "cleanup")
		}
		if end := ts.logs.next(t, "ssh session end"); end["error"] == "" {
			t.Errorf("%s: end logged without the error: %v", user, end)
		}
	}
	// The server still serves.
	ts.openTerm(t, "alice", alice, "xterm").waitFor(t, "hello alice")
}

type panicOnKey struct{ tea.Model }

func (m panicOnKey) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && k.String() == "p" {
		panic("update bug")
	}
	next, cmd := m.Model.Update(msg)
	return panicOnKey{next}, cmd
}

func TestPanickingCleanupDoesNotStopTheServer(t *testing.T) {
	alice := newTestKey(t, "alice")
	ev := newEvents()
	ts := startServer(t, []string{alice.line}, Options{
		NewModel: func(ctx context.Context, s Session) (tea.Model, func(), error) {
			m, _, err := testNewModel(ev)(ctx, s)
			return m, func() { panic("cleanup bug") }, err
		},
	})
	tm := ts.openTerm(t, "alice", alice, "xterm")
	tm.waitFor(t, "hello alice")
	tm.client.Close()
	if end := ts.logs.next(t, "ssh session end"); !strings.Contains(end["error"], "cleanup bug") {
		t.Errorf("end logged %v", end)
	}
	ts.openTerm(t, "bob", alice, "xterm").waitFor(t, "hello bob")
}
