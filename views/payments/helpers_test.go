package paymentsview

import (
	"bytes"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"treasury/data/live"
	"treasury/data/payments"
	"treasury/ui"
	"treasury/views/viewkit"
	"treasury/views/viewtest"
)

// world returns a frozen sandbox advanced ten minutes a minute at a time,
// so the chart has points and FAILED and DECLINED payments exist.
func world(t *testing.T, o viewtest.Options) *viewtest.Env {
	t.Helper()
	e := viewtest.New(t, o)
	for range 10 {
		e.Advance(time.Minute)
	}
	return e
}

// waitAll waits until the program's output since the call holds every
// string of want (all answers of a detail's calls arrived).
func waitAll(t *testing.T, tm *teatest.TestModel, want ...string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		for _, w := range want {
			if !bytes.Contains(b, []byte(w)) {
				return false
			}
		}
		return true
	}, teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(10*time.Millisecond))
}

// run executes cmd and what it leads to, synchronously, feeding the view
// its own answers (Loaded) and collecting what else came out.
func run(v *View, cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	var out []tea.Msg
	switch m := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range m {
			out = append(out, run(v, c)...)
		}
	case viewkit.Loaded:
		out = append(out, m)
		out = append(out, run(v, v.Update(m))...)
	case nil:
	default:
		out = append(out, m)
	}
	return out
}

// send updates the view with msg, runs what follows, then tells it the
// store changed (a call may have put a payment into it).
func send(v *View, msg tea.Msg) []tea.Msg {
	out := run(v, v.Update(msg))
	return append(out, run(v, v.Update(ui.StoreChanged{}))...)
}

func held(t *testing.T, e *viewtest.Env) *live.PaymentSet {
	t.Helper()
	ps, ok := e.P.Store.Snapshot(live.Payments).Data.(*live.PaymentSet)
	if !ok || ps.Len() == 0 {
		t.Fatal("the store holds no payments")
	}
	return ps
}

// newestIn returns the newest held payment in state st.
func newestIn(t *testing.T, e *viewtest.Env, st payments.State) *payments.Payment {
	t.Helper()
	ps := held(t, e)
	for i := ps.Len() - 1; i >= 0; i-- {
		if p := ps.At(i); p.PaymentState == st {
			return p
		}
	}
	t.Fatalf("no %s payment held", st)
	return nil
}

func press(s string) tea.KeyMsg {
	switch s {
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	case "up":
		return tea.KeyMsg{Type: tea.KeyUp}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}
