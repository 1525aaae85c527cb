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
	return &dialog{ctx: ctx, c: c, typed: in}
}

func (d *dialog) armed() bool {
	return d.c.TypeToConfirm == "" || d.typed.Value() == d.c.TypeToConfirm
}

// update returns the command to run and whether the dialog is finished.
func (d *dialog) update(msg tea.KeyMsg) (tea.Cmd, bool) {
	switch msg.String() {
	case "esc", "ctrl+c":
		return FlashCmd("cancelled: " + d.c.Title), true
	case "tab", "shift+tab", "left", "right":
		if d.armed() {
			d.focusOK = !d.focusOK
		}
		return nil, false
	case "enter":
		if d.focusOK && d.armed() {
			return d.c.Run, true
		}
		if !d.focusOK {
			return FlashCmd("cancelled: " + d.c.Title), true
		}
		return nil, false
	}
	if d.c.TypeToConfirm != "" {
		var cmd tea.Cmd
		d.typed, cmd = d.typed.Update(msg)
		if !d.armed() {
			d.focusOK = false
		}
		return cmd, false
	}
	if msg.String() == "q" || msg.String() == "n" {
		return FlashCmd("cancelled: " + d.c.Title), true
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
		b.WriteString(d.typed.View() + "\n\n")
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
