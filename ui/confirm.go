package ui

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"treasury/ui/sanitize"
)

// field is one stop of the dialog's focus.
type field int

const (
	fieldReason field = iota
	fieldCode
	fieldCancel
	fieldConfirm
)

// dialogState is where a dialog is in its life.
type dialogState int

const (
	asking   dialogState = iota
	running              // the action's call is on its way
	settling             // its answer reached the views; their result is awaited
	done                 // the view's result: shown until closed
)

// settleTicks is how many clock ticks a dialog waits, once its call has
// answered, for the view's result before it closes anyway.
const settleTicks = 2

// dialog is the one confirmation of every action. The focus goes through
// every field in turn with tab and shift+tab: the reason, the typed code
// (prod), Cancel, and the action's button; it starts on Cancel. Enter in a
// text field moves on only when the field is valid, to the next field
// still needed or else to the action's button, never to Cancel; only
// enter on the focused action button runs the action, and only once the
// fields it needs are filled. The focused button, and the line under the
// buttons, say what enter does now.
// While the action runs, a spinner shows the time elapsed and what is
// awaited; esc hides the dialog and the call goes on. The view's result
// (the server's answer, or the failure in full) is then shown until closed.
type dialog struct {
	ctx  *Context
	keys DialogKeys
	c    Confirm
	// seq tells this dialog's answer from an earlier one's.
	seq    int
	fields []field
	focus  int // index in fields
	reason textinput.Model
	code   textinput.Model
	// hint says why the action button did not run.
	hint string

	state   dialogState
	started time.Time
	spin    spinner.Model
	settled int
	result  Flash
	// scroll is the first of the record's lines shown when they do not
	// all fit (compact); cut says they did not at the last draw.
	scroll, maxScroll int
	cut               bool
}

// confirmAnswered carries the message of a confirmed action's call, once
// it is done, to the shell: the shell updates the dialog, then delivers msg
// to the views.
type confirmAnswered struct {
	seq int
	msg tea.Msg
}

func newDialog(ctx *Context, c Confirm, seq int) *dialog {
	if c.Action == "" {
		c.Action = "Confirm"
	}
	input := func(prompt string, limit int) textinput.Model {
		return NewInput(ctx.Theme, prompt, limit, ctx.Theme.Bold)
	}
	d := &dialog{ctx: ctx, keys: DefaultDialogKeys(ctx.keymap()), c: c, seq: seq,
		reason: input(sanitize.Line(c.Reason)+": ", 200),
		code:   input("type "+sanitize.Line(c.TypeToConfirm)+" to confirm: ", 16),
		spin: spinner.New(spinner.WithSpinner(spinner.Spinner{Frames: spinner.MiniDot.Frames, FPS: time.Second / 8}),
			spinner.WithStyle(ctx.Theme.Accent))}
	d.reason.SetValue(c.ReasonValue)
	if c.Reason != "" {
		d.fields = append(d.fields, fieldReason)
	}
	if c.TypeToConfirm != "" {
		d.fields = append(d.fields, fieldCode)
	}
	d.fields = append(d.fields, fieldCancel, fieldConfirm)
	d.setFocus(len(d.fields) - 2) // Cancel
	return d
}

func (d *dialog) focused() field { return d.fields[d.focus] }

// typingField is where text typed on a button goes: the first text field
// the action still needs, else the reason; none when the dialog has no
// text field.
func (d *dialog) typingField() (field, bool) {
	for _, f := range d.fields {
		if _, ok := d.valid(f); !ok && (f == fieldReason || f == fieldCode) {
			return f, true
		}
	}
	if slices.Contains(d.fields, fieldReason) {
		return fieldReason, true
	}
	return 0, false
}

func (d *dialog) setFocus(i int) {
	n := len(d.fields)
	d.focus = ((i % n) + n) % n
	d.reason.Blur()
	d.code.Blur()
	switch d.focused() {
	case fieldReason:
		d.reason.Focus()
	case fieldCode:
		d.code.Focus()
	}
}

// missing is the first field the action still needs, and what to do.
func (d *dialog) missing() (field, string, bool) {
	for _, f := range d.fields {
		if why, ok := d.valid(f); !ok {
			return f, why, true
		}
	}
	return 0, "", false
}

// valid says whether a field holds what the action needs, and what to do
// when it does not; buttons are always valid.
func (d *dialog) valid(f field) (string, bool) {
	switch {
	case f == fieldReason && strings.TrimSpace(d.reason.Value()) == "":
		return "type a " + strings.ToLower(sanitize.Line(d.c.Reason)) + " first", false
	case f == fieldCode && d.code.Value() != d.c.TypeToConfirm:
		return "type " + sanitize.Line(d.c.TypeToConfirm) + " (" + cmp.Or(sanitize.Line(d.c.CodeIs), "the end of the record's id") + ") first", false
	}
	return "", true
}

// next is where enter goes from a valid text field: the first field still
// needed, else the action's button.
func (d *dialog) next() field {
	if f, _, missing := d.missing(); missing {
		return f
	}
	return fieldConfirm
}

// enterDoes says what enter does with the focus where it is.
func (d *dialog) enterDoes() string {
	action, enter := sanitize.Line(d.c.Action), d.keys.Enter.Help().Key
	switch f := d.focused(); f {
	case fieldCancel:
		return enter + " cancels: nothing is sent"
	case fieldConfirm:
		if _, why, missing := d.missing(); missing {
			return enter + " does nothing yet: " + why
		}
		return enter + " runs " + action + " now"
	default:
		if why, ok := d.valid(f); !ok {
			return enter + " does nothing yet: " + why
		}
		if d.next() == fieldCode {
			return enter + " goes to the code to type"
		}
		return enter + " goes to " + action
	}
}

func (d *dialog) armed() bool {
	_, _, missing := d.missing()
	return !missing
}

func (d *dialog) run() tea.Cmd {
	if d.c.Reason != "" && d.c.RunReason != nil {
		return d.c.RunReason(strings.TrimSpace(d.reason.Value()))
	}
	return d.c.Run
}

// start runs the action: the call's message comes back as confirmAnswered.
func (d *dialog) start() tea.Cmd {
	d.state, d.started, d.hint = running, d.ctx.Clock(), ""
	run, seq := d.run(), d.seq
	answered := func() tea.Msg {
		var msg tea.Msg
		if run != nil {
			msg = run()
		}
		return confirmAnswered{seq: seq, msg: msg}
	}
	return tea.Batch(d.spin.Tick, answered)
}

func (d *dialog) cancelled() tea.Cmd { return d.cancel(false) }

// update takes a key; closed says the dialog is to be taken down (cancelled,
// hidden while its action runs, or its failure read).
func (d *dialog) update(msg tea.KeyPressMsg) (cmd tea.Cmd, closed bool) {
	k := d.keys
	switch {
	case key.Matches(msg, k.ScrollUp):
		d.scroll = max(d.scroll-5, 0)
		return nil, false
	case key.Matches(msg, k.ScrollDown):
		d.scroll = min(d.scroll+5, d.maxScroll) // the bound of the last draw
		return nil, false
	}
	switch d.state {
	case running, settling:
		if key.Matches(msg, k.Close) {
			return FlashCmd(sanitize.Line(d.c.Title) + ": still waiting for the answer; it will show here"), true
		}
		return nil, false
	case done:
		if key.Matches(msg, k.Close, k.Enter) {
			return nil, true
		}
		return nil, false
	}
	switch {
	case key.Matches(msg, k.Close):
		return d.cancelled(), true
	case key.Matches(msg, k.Next):
		d.setFocus(d.focus + 1)
		return nil, false
	case key.Matches(msg, k.Prev):
		d.setFocus(d.focus - 1)
		return nil, false
	case key.Matches(msg, k.Enter):
		switch f := d.focused(); f {
		case fieldCancel:
			return d.cancelled(), true
		case fieldConfirm:
			if f, why, missing := d.missing(); missing {
				d.hint = why
				d.setFocus(d.indexOf(f))
				return nil, false
			}
			return d.start(), false
		default:
			if why, ok := d.valid(f); !ok {
				d.hint = why
				return nil, false
			}
			d.hint = ""
			d.setFocus(d.indexOf(d.next()))
			return nil, false
		}
	}
	switch d.focused() {
	case fieldReason:
		d.reason, cmd = d.reason.Update(msg)
	case fieldCode:
		d.code, cmd = d.code.Update(msg)
	default:
		switch {
		case key.Matches(msg, k.Switch):
			d.setFocus(d.indexOf(fieldCancel + fieldConfirm - d.focused()))
		case msg.Text != "" && msg.Mod&^tea.ModShift == 0:
			// Text typed on a button is meant for a field: the first one
			// still needed, else the reason, never lost (an audit line
			// with an empty reason after the person typed one).
			if f, ok := d.typingField(); ok {
				d.setFocus(d.indexOf(f))
				return d.update(msg)
			}
		}
	}
	if d.armed() {
		d.hint = ""
	}
	return cmd, false
}

// bindings are the keys that do something now, for the footer.
func (d *dialog) bindings() []key.Binding {
	k := d.keys
	switch d.state {
	case running, settling:
		return []key.Binding{key.NewBinding(key.WithKeys(k.Close.Keys()...), key.WithHelp(k.Close.Help().Key, "hide; the call goes on"))}
	case done:
		return []key.Binding{key.NewBinding(key.WithKeys(k.Enter.Keys()...), key.WithHelp(k.Enter.Help().Key, "close")),
			key.NewBinding(key.WithKeys(k.Close.Keys()...), key.WithHelp(k.Close.Help().Key, "close"))}
	}
	out := []key.Binding{k.Next, k.Prev}
	if d.cut {
		out = append(out, key.NewBinding(key.WithKeys(append(k.ScrollUp.Keys(), k.ScrollDown.Keys()...)...),
			key.WithHelp(k.ScrollUp.Help().Key+"/"+k.ScrollDown.Help().Key, "scroll the record")))
	}
	if f := d.focused(); f == fieldCancel || f == fieldConfirm {
		out = append(out, k.Switch)
	}
	return append(out, k.Enter, k.Close)
}

func (d *dialog) indexOf(f field) int {
	for i, g := range d.fields {
		if g == f {
			return i
		}
	}
	return d.focus
}

// tick advances the spinner while the call runs.
func (d *dialog) tick(msg spinner.TickMsg) tea.Cmd {
	if d.state != running {
		return nil
	}
	var cmd tea.Cmd
	d.spin, cmd = d.spin.Update(msg)
	return cmd
}

// answered: the call is done and its message is on its way to the views.
func (d *dialog) answered() { d.state = settling }

// view draws the dialog for a body of width x height.
func (d *dialog) view(width, height int) string {
	t := d.ctx.Theme
	w := min(max(width-8, 30), 90)
	for _, compact := range []bool{false, true} {
		style := t.Dialog.Width(w + t.Dialog.GetHorizontalBorderSize()) // lipgloss v2's width counts the border
		inner := w - 6
		if compact {
			style = style.Padding(0, 1)
			inner = w - 4
		}
		out := style.Render(strings.Join(d.sections(inner, height, compact), sep(compact)))
		if compact || lipgloss.Height(out) <= height {
			return out
		}
	}
	return ""
}

func sep(compact bool) string {
	if compact {
		return "\n"
	}
	return "\n\n"
}

// sections are the dialog's blocks, wrapped to width; compact ones drop
// the record's lines that do not fit in height.
func (d *dialog) sections(width, height int, compact bool) []string {
	t := d.ctx.Theme
	wrap := func(s string) string { return wrapWords(s, width) }
	env := "TEST"
	if d.ctx.Prod() {
		env = "PROD"
	}
	head := []string{t.DialogTitle.Render(sanitize.Line(d.c.Title))}
	lines := d.recordLines(wrap, compact)
	context := []string{wrap("Environment: " + env + " (profile " + sanitize.Line(d.ctx.Profile) + ")")}
	if d.c.Retry != "" && d.state != done {
		context = append(context, t.Warn.Render(wrap("↻ "+sanitize.Line(d.c.Retry))))
	}
	var tail []string
	switch d.state {
	case asking:
		tail = d.askingSections(wrap)
	case running, settling:
		elapsed := short(d.ctx.Clock().Sub(d.started))
		waiting := "waiting for the answer"
		if d.c.Waiting != "" {
			waiting = "waiting for " + sanitize.Line(d.c.Waiting)
		}
		tail = []string{wrap(d.spin.View()+" "+elapsed+"  "+waiting) + "\n" +
			t.Muted.Render(wrap(d.keys.Close.Help().Key+" hides this dialog: the call goes on, and its answer shows in the footer"))}
	case done:
		var b []string
		switch {
		case d.result.Err == nil:
			b = append(b, t.OK.Render(wrap(sanitize.Line(d.result.Text))))
		case d.result.Text != "":
			b = append(b, t.Bad.Render(wrap(sanitize.Line(d.result.Text))))
		}
		if d.result.Err != nil {
			b = append(b, ErrorLines(t, d.result.Err, width)...)
		}
		b = append(b, d.detailLines(width, height)...)
		tail = []string{strings.Join(b, "\n"), d.closeButton() + "\n" +
			t.Muted.Render("enter or "+d.keys.Close.Help().Key+" closes")}
	}
	body := strings.Join(lines, "\n")
	if compact {
		// Keep the title, the context and the fields: cut the record's
		// lines to what the height leaves.
		fixed := 2 + len(head) // border
		for _, s := range append(context, tail...) {
			fixed += lipgloss.Height(s)
		}
		d.cut = false
		if room := height - fixed; lipgloss.Height(body) > room {
			ls := strings.Split(body, "\n")
			n := max(room-1, 1)
			d.maxScroll = len(ls) - n
			d.scroll = min(max(d.scroll, 0), d.maxScroll)
			d.cut = true
			note := fmt.Sprintf("lines %d-%d of %d: %s/%s scroll", d.scroll+1, d.scroll+n, len(ls),
				d.keys.ScrollUp.Help().Key, d.keys.ScrollDown.Help().Key)
			body = strings.Join(append(ls[d.scroll:d.scroll+n:d.scroll+n], t.Muted.Render("… "+note)), "\n")
		}
	}
	out := append(head, body, strings.Join(context, "\n"))
	return append(out, tail...)
}

// beforeHeading labels, in the result, the record's state lines read when
// the dialog opened: after the action they are no longer its state.
const beforeHeading = "Before the action (as shown when this dialog opened):"

// recordLines are the dialog's record, wrapped: what the action will do
// (until it has run), which record, and its state. Once the action has
// run, the state lines are labelled as before it, indented under a
// heading, never shown as current next to the result (a compact dialog
// spares the blank line above the heading).
func (d *dialog) recordLines(wrap func(string) string, compact bool) []string {
	t := d.ctx.Theme
	var out []string
	add := func(indent string, ls []string) {
		for _, l := range ls {
			out = append(out, wrap(indent+sanitize.Line(l)))
		}
	}
	if d.state != done && len(d.c.Intro) > 0 {
		add("", d.c.Intro)
		if len(d.c.Lines)+len(d.c.Before) > 0 {
			out = append(out, "")
		}
	}
	add("", d.c.Lines)
	if len(d.c.Before) == 0 {
		return out
	}
	if d.state != done {
		add("", d.c.Before)
		return out
	}
	if len(out) > 0 && !compact {
		out = append(out, "")
	}
	out = append(out, t.Muted.Render(wrap(beforeHeading)))
	add("  ", d.c.Before)
	return out
}

// askingSections are the fields, the buttons and the keys.
func (d *dialog) askingSections(wrap func(string) string) []string {
	t := d.ctx.Theme
	mark := func(f field) string {
		if d.focused() == f {
			return "▸ "
		}
		return "  "
	}
	var fields []string
	for _, f := range d.fields {
		switch f {
		case fieldReason:
			fields = append(fields, mark(f)+d.reason.View())
		case fieldCode:
			fields = append(fields, mark(f)+d.code.View())
		}
	}
	buttons := d.buttonRow()
	if d.hint != "" {
		buttons += "\n" + t.Warn.Render(wrap(d.hint))
	}
	k := d.keys
	help := t.Bold.Render(wrap(d.enterDoes())) + "\n" + t.Muted.Render(wrap(k.Next.Help().Key+"/"+k.Prev.Help().Key+" move · "+
		k.Close.Help().Key+" cancels (nothing is sent)"))
	out := []string{}
	if len(fields) > 0 {
		out = append(out, strings.Join(fields, "\n"))
	}
	return append(out, buttons+"\n"+help)
}

// buttonRow draws Cancel and the action's button, side by side (the
// mouse finds them by it).
func (d *dialog) buttonRow() string {
	return d.button("Cancel", d.focused() == fieldCancel, true, false) + "  " +
		d.button(d.c.Action, d.focused() == fieldConfirm, d.armed(), true)
}

// closeButton is the button of a dialog that shows its result.
func (d *dialog) closeButton() string { return d.button("Close", true, true, false) }

// button draws a button; the focused one is bracketed and says that
// enter presses it, so that it shows without colour too, and one that
// cannot be pressed yet is in parentheses; danger marks the action's own.
func (d *dialog) button(label string, focused, enabled, danger bool) string {
	t := d.ctx.Theme
	label = sanitize.Line(label)
	switch {
	case !enabled:
		label = "(" + label + ")"
	case focused && d.state == asking:
		label = d.keys.Enter.Help().Key + ": " + label
	}
	switch {
	case focused && enabled && danger:
		return t.ButtonDanger.Render("[ " + label + " ]")
	case focused:
		return t.ButtonFocus.Render("[ " + label + " ]")
	case !enabled:
		return t.Muted.Render("  " + label + "  ")
	}
	return t.Button.Render("  " + label + "  ")
}

func visibleWidth(s string) int { return lipgloss.Width(s) }

// wrapWords wraps plain text at spaces to width cells, keeping ids whole
// (ansi.Wrap breaks at every hyphen, in the middle of a UUID); a word
// longer than a line is cut where it must be. A line that fits is kept as
// it is.
func wrapWords(s string, width int) string {
	width = max(width, 1)
	var lines []string
	for _, para := range strings.Split(s, "\n") {
		if ansi.StringWidth(para) <= width {
			lines = append(lines, para) // as it is, aligned columns too
			continue
		}
		line, n := "", 0
		for _, w := range strings.Fields(para) {
			ww := ansi.StringWidth(w)
			switch {
			case n == 0:
			case n+1+ww <= width:
				line, n = line+" ", n+1
			default:
				lines = append(lines, line)
				line, n = "", 0
			}
			for ww > width-n {
				head := ansi.Truncate(w, width-n, "")
				lines = append(lines, line+head)
				w = strings.TrimPrefix(w, head)
				ww, line, n = ansi.StringWidth(w), "", 0
			}
			line, n = line+w, n+ww
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}

// paste types pasted text into the focused field (a reason, the code to
// type); on a button it does nothing.
func (d *dialog) paste(msg tea.PasteMsg) tea.Cmd {
	if d.state != asking {
		return nil
	}
	var cmd tea.Cmd
	switch d.focused() {
	case fieldReason:
		d.reason, cmd = d.reason.Update(msg)
	case fieldCode:
		d.code, cmd = d.code.Update(msg)
	}
	if d.armed() {
		d.hint = ""
	}
	return cmd
}

// detailLines are the result's lines of each record (a batch), each
// wrapped and marked as it ended (✔ done, ✘ not, ? unknown), as many as
// the height leaves room for: the failures come first, and what is cut
// is counted, never dropped in silence.
func (d *dialog) detailLines(width, height int) []string {
	t := d.ctx.Theme
	room := max(height-14, 3)
	var out []string
	for i, l := range d.result.Detail {
		if len(out) >= room && i < len(d.result.Detail)-1 {
			out = append(out, t.Muted.Render(wrapWords(
				fmt.Sprintf("… and %d more: the Audit view lists each", len(d.result.Detail)-i), width)))
			break
		}
		l = sanitize.Line(l)
		style := t.Bad
		switch {
		case strings.HasPrefix(l, "✔"):
			style = t.OK
		case strings.HasPrefix(l, "?"):
			style = t.Warn
		}
		out = append(out, style.Render(wrapWords(l, width)))
	}
	return out
}
