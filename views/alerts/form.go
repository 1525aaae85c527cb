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
	"github.com/shopspring/decimal"

	"treasury/config"
	"treasury/desk/live"
	"treasury/figures"
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
		in.SetWidth(18)
		in.SetValue(shownValue(fd, fd.Value))
		f.inputs = append(f.inputs, in)
	}
	f.setFocus(0)
	return f
}

// isAmount reports whether a field is an amount of money (a balance
// threshold), of the currency its unit names ("" for the default rule's).
func isAmount(fd config.AlertField) bool { return strings.HasPrefix(fd.Key, "low_balance") }

// shownValue is a field's value as every screen writes it: an amount
// grouped at its currency's decimals (figures.Money: 300,000.00), the
// rest as the file has it.
func shownValue(fd config.AlertField, v string) string {
	if !isAmount(fd) || v == "" {
		return v
	}
	d, err := decimal.NewFromString(v)
	if err != nil {
		return v
	}
	return figures.Money(d, fd.Unit)
}

// fileValue reads what was typed in a field as the file writes it: an
// amount as the screen writes it ("300,000") or plain, never with more
// decimals than its currency has (figures.ParseAmount), written plain;
// the rest as typed (the configuration checks it).
func fileValue(fd config.AlertField, typed string) (string, error) {
	typed = strings.TrimSpace(typed)
	if !isAmount(fd) || typed == "" {
		return typed, nil
	}
	d, err := figures.ParseAmount(typed, fd.Unit)
	if err != nil {
		return "", fmt.Errorf("%s: %w", fd.Label, err)
	}
	return d.String(), nil
}

// ifEmpty says what an empty field takes: the default's level, the
// built-in one, or none.
func ifEmpty(fd config.AlertField) string {
	if fd.Default == "" {
		return "empty: none"
	}
	return "empty: " + shownValue(fd, fd.Default) + " (" + fd.From + ")"
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
		v, err := fileValue(fd, f.inputs[i].Value())
		if err != nil {
			f.setFocus(i)
			f.err = err
			return nil
		}
		if !sameValue(v, fd.Value) {
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

// sameValue reports whether a value typed is the file's: the same number
// however written (300000 is 300000.00), else the same text.
func sameValue(typed, file string) bool {
	a, errA := decimal.NewFromString(typed)
	b, errB := decimal.NewFromString(file)
	if errA == nil && errB == nil {
		return a.Equal(b)
	}
	return typed == file
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
