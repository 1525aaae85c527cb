package alerts

import (
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"treasury/config"
	"treasury/data/live"
	"treasury/ui"
	"treasury/ui/sanitize"
)

var errReadOnly = errors.New("read-only session: alert thresholds are changed by an operator, or in the profile's file")

// formKeys are the form's bindings: while it is open, it takes every key
// but ctrl+c (ui.Typing).
type formKeys struct {
	Next, Prev, Save, Cancel key.Binding
}

func defaultFormKeys(ctx *ui.Context) formKeys {
	return formKeys{Next: ctx.Key("form_next"), Prev: ctx.Key("form_prev"), Save: ctx.Key("form_save"), Cancel: ctx.Key("form_cancel")}
}

// form edits the levels of one rule: a field per threshold, empty to take
// the default. Enter writes them to the profile's file and puts them in
// effect (in a command: the file is written off the update loop); the
// form closes when that worked, and says why when it did not.
type form struct {
	v      *View
	keys   formKeys
	rule   config.AlertRule
	inputs []textinput.Model
	focus  int
	saving bool
	err    error
}

// saved is the answer of a form's save.
type saved struct {
	f   *form
	err error
}

func newForm(v *View, r config.AlertRule) *form {
	f := &form{v: v, keys: defaultFormKeys(v.ctx), rule: r}
	for _, fd := range r.Fields {
		in := ui.NewInput(v.ctx.Theme, "", 24, lipgloss.NewStyle())
		in.SetWidth(14)
		in.SetValue(fd.Value)
		f.inputs = append(f.inputs, in)
	}
	f.setFocus(0)
	return f
}

// ifEmpty says what an empty field takes: the default's level, the
// built-in one, or none.
func ifEmpty(fd config.AlertField) string {
	if fd.Default == "" {
		return "empty: none"
	}
	return "empty: " + fd.Default + " (" + fd.From + ")"
}

func (f *form) setFocus(i int) {
	n := len(f.inputs)
	if n == 0 {
		return
	}
	f.focus = ((i % n) + n) % n
	for j := range f.inputs {
		if j == f.focus {
			f.inputs[j].Focus()
		} else {
			f.inputs[j].Blur()
		}
	}
}

// Crumb names the rule.
func (f *form) Crumb() string { return "edit " + f.rule.Kind + " " + f.rule.For }

// Topics: the form reads nothing of the store.
func (f *form) Topics() []live.Topic { return nil }

func (f *form) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case saved:
		if msg.f != f {
			return nil
		}
		f.saving, f.err = false, msg.err
		if msg.err != nil {
			return nil
		}
		f.v.Back() // the rules, read again with the new settings
		return tea.Batch(f.v.Stack.Update(ui.StoreChanged{}),
			ui.FlashCmd("alert thresholds of "+f.rule.Kind+" "+sanitize.Line(f.rule.For)+" saved and in effect"))
	case tea.KeyPressMsg:
		if f.saving {
			return nil
		}
		switch {
		case key.Matches(msg, f.keys.Cancel):
			f.v.Back()
			return ui.FlashCmd("thresholds not changed")
		case key.Matches(msg, f.keys.Next):
			f.setFocus(f.focus + 1)
			return nil
		case key.Matches(msg, f.keys.Prev):
			f.setFocus(f.focus - 1)
			return nil
		case key.Matches(msg, f.keys.Save):
			return f.save()
		}
		var cmd tea.Cmd
		f.inputs[f.focus], cmd = f.inputs[f.focus].Update(msg)
		f.err = nil
		return cmd
	}
	return nil
}

// save writes the fields changed (only those: a level left as the file
// had it is not rewritten).
func (f *form) save() tea.Cmd {
	values := map[string]string{}
	for i, fd := range f.rule.Fields {
		if v := strings.TrimSpace(f.inputs[i].Value()); v != fd.Value {
			values[fd.Key] = v
		}
	}
	if len(values) == 0 {
		f.v.Back()
		return ui.FlashCmd("nothing changed")
	}
	f.saving, f.err = true, nil
	s, who, path := f.v.settings, f.v.ctx.Operator, f.rule.Path
	return func() tea.Msg { return saved{f: f, err: s.Save(who, path, values)} }
}

// Typing: the form takes the keys while it is open.
func (f *form) Typing() bool { return true }

func (f *form) Render(w, h int) string {
	t := f.v.ctx.Theme
	var b strings.Builder
	b.WriteString(t.Title.Render("Alert thresholds: "+f.rule.Kind+" "+sanitize.Line(f.rule.For)) + "\n")
	b.WriteString(t.Muted.Render(ansi.Truncate(sanitize.Line(f.v.settings.Where()), w, "…")) + "\n\n")
	lw, uw := 0, 0
	for _, fd := range f.rule.Fields {
		lw = max(lw, ansi.StringWidth(fd.Label))
		uw = max(uw, ansi.StringWidth(sanitize.Line(fd.Unit)))
	}
	for i, fd := range f.rule.Fields {
		mark := "  "
		if i == f.focus {
			mark = t.Accent.Render("▸ ")
		}
		label := fmt.Sprintf("%-*s", lw, fd.Label)
		if i == f.focus {
			label = t.Bold.Render(label)
		}
		unit := sanitize.Line(fd.Unit)
		unit += strings.Repeat(" ", uw-ansi.StringWidth(unit))
		b.WriteString(mark + label + "  [" + f.inputs[i].View() + "] " + unit + "  " + t.Muted.Render(ifEmpty(fd)) + "\n")
	}
	b.WriteString("\n" + t.Muted.Render("An empty field takes the default's level (or none); 0 turns a level off.") + "\n")
	switch {
	case f.saving:
		b.WriteString(t.Muted.Render("writing the file…") + "\n")
	case f.err != nil:
		b.WriteString(t.Bad.Render(ansi.Wordwrap(sanitize.Line(f.err.Error()), w, " ")) + "\n")
	}
	return b.String()
}

// Keys are the form's.
func (f *form) Keys() []key.Binding {
	return []key.Binding{f.keys.Save, f.keys.Next, f.keys.Prev, f.keys.Cancel}
}
