package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"treasury/ui/sanitize"
)

// dialog is the confirmation of an action. Cancel has the focus at first;
// enter on Cancel, esc or q cancel. In prod the operator must first type the
// last characters of the record's id.
type dialog struct {
	ctx     *Context
	c       Confirm
	focusOK bool
	typed   textinput.Model
	reason  textinput.Model
	// field is the input with the focus: 0 the typed id, 1 the reason.
	field int
	// onButtons is set once tab or enter left the inputs: enter in an
	// input never cancels the text just typed, it moves to the buttons.
	onButtons bool
}

func newDialog(ctx *Context, c Confirm) *dialog {
	in := textinput.New()
	in.Prompt = "type " + c.TypeToConfirm + " to enable: "
	in.CharLimit = 16
	if c.TypeToConfirm != "" {
		in.Focus()
	}
	if c.Action == "" {
		c.Action = "Confirm"
	}
	rs := textinput.New()
	rs.Prompt = c.Reason + ": "
	rs.CharLimit = 200
	d := &dialog{ctx: ctx, c: c, typed: in, reason: rs}
	if c.Reason != "" && c.TypeToConfirm == "" {
		d.field = 1
		d.reason.Focus()
	}
	return d
}

func (d *dialog) armed() bool {
	if d.c.Reason != "" && strings.TrimSpace(d.reason.Value()) == "" {
		return false
	}
	return d.c.TypeToConfirm == "" || d.typed.Value() == d.c.TypeToConfirm
}

func (d *dialog) run() tea.Cmd {
	if d.c.Reason != "" && d.c.RunReason != nil {
		return d.c.RunReason(strings.TrimSpace(d.reason.Value()))
	}
	return d.c.Run
}

// hasInput reports whether the dialog takes typed text.
func (d *dialog) hasInput() bool { return d.c.TypeToConfirm != "" || d.c.Reason != "" }

func (d *dialog) focusField(i int) {
	d.field = i
	d.typed.Blur()
	d.reason.Blur()
	if i == 0 {
		d.typed.Focus()
	} else {
		d.reason.Focus()
	}
}

// update returns the command to run and whether the dialog is finished.
func (d *dialog) update(msg tea.KeyMsg) (tea.Cmd, bool) {
	switch msg.String() {
	case "esc", "ctrl+c":
		return d.cancel(false), true
	case "up", "down":
		if d.c.TypeToConfirm != "" && d.c.Reason != "" {
			d.focusField(1 - d.field)
		}
		return nil, false
	case "tab", "shift+tab":
		d.onButtons = true
		if d.armed() {
			d.focusOK = !d.focusOK
		}
		return nil, false
	case "left", "right":
		if !d.hasInput() && d.armed() {
			d.focusOK = !d.focusOK
			return nil, false
		}
	case "enter":
		if d.focusOK && d.armed() {
			return d.run(), true
		}
		if d.hasInput() && !d.onButtons {
			d.onButtons = true
			d.focusOK = d.armed()
			return nil, false
		}
		if !d.focusOK {
			return d.cancel(false), true
		}
		return nil, false
	}
	if d.hasInput() {
		var cmd tea.Cmd
		if d.field == 0 && d.c.TypeToConfirm != "" {
			d.typed, cmd = d.typed.Update(msg)
		} else {
			d.reason, cmd = d.reason.Update(msg)
		}
		d.onButtons = false
		if !d.armed() {
			d.focusOK = false
		}
		return cmd, false
	}
	if msg.String() == "q" || msg.String() == "n" {
		return d.cancel(false), true
	}
	return nil, false
}

func (d *dialog) view(width int) string {
	t := d.ctx.Theme
	var b strings.Builder
	b.WriteString(t.DialogTitle.Render(sanitize.Line(d.c.Title)) + "\n\n")
	for _, l := range d.c.Lines {
		b.WriteString(sanitize.Line(l) + "\n")
	}
	env := "TEST"
	if d.ctx.Prod() {
		env = "PROD"
	}
	b.WriteString("\nEnvironment: " + env + " (profile " + sanitize.Line(d.ctx.Profile) + ")\n\n")
	if d.c.TypeToConfirm != "" {
		b.WriteString(d.typed.View() + "\n")
	}
	if d.c.Reason != "" {
		b.WriteString(d.reason.View() + "\n")
	}
	if d.hasInput() {
		b.WriteString("\n")
	}
	cancel, ok := t.Button.Render("Cancel"), t.Button.Render(d.c.Action)
	if d.focusOK {
		ok = t.ButtonDanger.Render(d.c.Action)
	} else {
		cancel = t.ButtonFocus.Render("Cancel")
	}
	if !d.armed() {
		ok = t.Muted.Render("(" + d.c.Action + ")")
	}
	b.WriteString(cancel + "   " + ok + "\n")
	b.WriteString(t.Muted.Render("tab switches · enter chooses · esc cancels"))
	w := min(max(width-8, 30), 90)
	return t.Dialog.Width(w).Render(b.String())
}

func visibleWidth(s string) int { return lipgloss.Width(s) }
