package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"

	"treasury/data/wire"
	"treasury/ui/sanitize"
)

// helpView lists every key: the shell's and the active view's, generated
// from the bindings themselves.
func (a *App) helpView(w, h int) string {
	t := a.ctx.Theme
	row := func(b key.Binding) string {
		return fmt.Sprintf("  %-12s %s", t.Key.Render(b.Help().Key), t.KeyDesc.Render(b.Help().Desc))
	}
	var lines []string
	lines = append(lines, t.Title.Render("Keys — "+a.Active().Title()), "")
	for _, b := range a.Active().Keys() {
		if b.Enabled() {
			lines = append(lines, row(b))
		}
	}
	lines = append(lines, "", t.Title.Render("Everywhere"), "")
	for _, b := range a.keys.List() {
		lines = append(lines, row(b))
	}
	lines = append(lines, row(key.NewBinding(key.WithKeys("1"), key.WithHelp("1-9", "jump to view"))))
	lines = append(lines, "", t.Muted.Render("  esc or ? closes this help"))
	// Two columns when it does not fit.
	if len(lines) > h && w >= 100 {
		half := (len(lines) + 1) / 2
		var b strings.Builder
		for i := 0; i < half; i++ {
			left := lines[i]
			right := ""
			if i+half < len(lines) {
				right = lines[i+half]
			}
			b.WriteString(padRight(left, w/2) + right + "\n")
		}
		return b.String()
	}
	return strings.Join(lines, "\n")
}

func padRight(s string, w int) string {
	n := visibleWidth(s)
	if n >= w {
		return s
	}
	return s + strings.Repeat(" ", w-n)
}

// rawPager shows a record as indented JSON, every line sanitized,
// scrollable: the JSON the server sent when the record came from the
// network (fields the dashboard does not model included), else the record
// as the dashboard holds it.
type rawPager struct {
	vp viewport.Model
}

func newRawPager(ctx *Context, rec any, w, h int) *rawPager {
	text, title := "", "as received"
	var buf bytes.Buffer
	if r, ok := rec.(wire.RawJSONer); ok && len(r.RawJSON()) > 0 && json.Indent(&buf, r.RawJSON(), "", "  ") == nil {
		text = buf.String()
	} else {
		b, err := json.MarshalIndent(rec, "", "  ")
		text, title = string(b), "as held (not received from the network)"
		if err != nil {
			text = "cannot encode record: " + err.Error()
		}
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = sanitize.Line(l)
	}
	lines = append([]string{ctx.Theme.Muted.Render(title)}, lines...)
	vp := viewport.New(w, max(h-1, 1))
	vp.SetContent(strings.Join(lines, "\n"))
	return &rawPager{vp: vp}
}

// newTextPager shows a title and a text, sanitized, on lines of their own
// (an id to select by hand).
func newTextPager(ctx *Context, title, text string, w, h int) *rawPager {
	vp := viewport.New(w, max(h-1, 1))
	vp.SetContent(ctx.Theme.Muted.Render(sanitize.Line(title)) + "\n\n" + sanitize.Line(text) + "\n")
	return &rawPager{vp: vp}
}

func (r *rawPager) update(msg tea.KeyMsg) { r.vp, _ = r.vp.Update(msg) }

func (r *rawPager) view() string {
	return r.vp.View() + fmt.Sprintf("\n  %3.0f%%  ↑/↓ pgup/pgdn scroll · esc closes", r.vp.ScrollPercent()*100)
}
