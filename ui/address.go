package ui

import (
	"reflect"
	"strings"

	tea "charm.land/bubbletea/v2"

	"treasury/config/route"
)

// addressed is a view's own message (the answer of its call, its timer)
// on its way back to that view alone: the shell gives it to the view of
// its route, not to every view.
type addressed struct {
	to  route.Route
	msg tea.Msg
}

// address makes what cmd returns go back to the view of route to: the
// shell's own messages (a flash, a jump, a confirmation...) stay the
// shell's, and the commands a batch, a sequence or a confirmation holds
// are addressed in turn.
func address(to route.Route, cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() tea.Msg { return addressMsg(to, cmd()) }
}

// cmdsType is the type tea.Sequence's message converts to.
func cmdsType() reflect.Type { return reflect.TypeFor[[]tea.Cmd]() }

func addressMsg(to route.Route, msg tea.Msg) tea.Msg {
	switch m := msg.(type) {
	case nil:
		return nil
	case tea.BatchMsg:
		out := make(tea.BatchMsg, len(m))
		for i, c := range m {
			out[i] = address(to, c)
		}
		return out
	case Confirm:
		// What the dialog runs is the view's action: its answer is the
		// view's.
		m.Run = address(to, m.Run)
		if run := m.RunReason; run != nil {
			m.RunReason = func(reason string) tea.Cmd { return address(to, run(reason)) }
		}
		if cancel := m.OnCancel; cancel != nil {
			m.OnCancel = func(c Cancelled) tea.Cmd { return address(to, cancel(c)) }
		}
		return m
	}
	t := reflect.TypeOf(msg)
	if v := reflect.ValueOf(msg); t.Kind() == reflect.Slice && t.ConvertibleTo(cmdsType()) {
		// A tea.Sequence (its type is unexported): its commands, in order,
		// each addressed.
		cmds := v.Convert(cmdsType()).Interface().([]tea.Cmd)
		out := make([]tea.Cmd, len(cmds))
		for i, c := range cmds {
			out[i] = address(to, c)
		}
		return tea.Sequence(out...)()
	}
	if shellMsg(t) {
		return msg
	}
	return addressed{to: to, msg: msg}
}

// shellMsg reports whether messages of type t are the shell's (this
// package's, or Bubble Tea's and its components'), not a view's own.
func shellMsg(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	p := t.PkgPath()
	return p == "" || p == reflect.TypeFor[Flash]().PkgPath() || strings.HasPrefix(p, "charm.land/")
}

// send gives msg to v and addresses what it returns back to it.
func (a *App) send(v View, msg tea.Msg) tea.Cmd { return address(v.Name(), v.Update(msg)) }
