package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"treasury/ui/sanitize"
	"treasury/wire"
)

// helpLayer is the help (?) as an overlay: the line shown first
// (helpTop, when it is taller than the terminal: the pager's keys scroll
// it) and what / types in it (helpFilter, helpfilter.go). Its methods
// read the shell through the App it is over.
type helpLayer struct {
	*App
	helpTop    int
	helpFilter helpFilter
}

// openHelp shows the help (?) from its first line, unfiltered.
func (a *App) openHelp() { a.push(&helpLayer{App: a}) }

// scrollHelp moves the help shown by the pager's keys: a line, or a page
// of the terminal's height.
func (a *helpLayer) scrollHelp(msg tea.KeyPressMsg) {
	k, page := DefaultPagerKeys(a.ctx.keymap()), max(a.ctx.Height-2, 1)
	switch {
	case key.Matches(msg, k.Up):
		a.helpTop--
	case key.Matches(msg, k.Down):
		a.helpTop++
	case key.Matches(msg, k.PageUp):
		a.helpTop -= page
	case key.Matches(msg, k.PageDown):
		a.helpTop += page
	}
	a.helpTop = max(a.helpTop, 0) // and at most the last page: helpView
}

// helpView is the help (helpText) in w×h: when it is taller, the lines
// from helpTop and a last line that says which and how to scroll.
func (a *helpLayer) helpView(w, h int) string {
	var lines []string
	if q := a.helpQuery(); q != "" {
		lines = a.helpFiltered(q, w)
	} else {
		lines = strings.Split(a.helpText(w, h), "\n")
	}
	last := a.helpFilterLine(w)
	if last == "" && len(lines) <= h {
		return strings.Join(lines, "\n")
	}
	rows := max(h-1, 1)
	a.helpTop = max(min(a.helpTop, len(lines)-rows), 0)
	end := min(a.helpTop+rows, len(lines))
	if last == "" {
		k := DefaultPagerKeys(a.ctx.keymap())
		esc := a.keys.Back.Help().Key + " closes"
		if a.helpQuery() != "" {
			esc = a.keys.Back.Help().Key + " clears the filter"
		}
		more := fmt.Sprintf("  lines %d–%d of %d · %s %s %s %s scroll · %s filters · %s", a.helpTop+1, end, len(lines),
			k.Up.Help().Key, k.Down.Help().Key, k.PageUp.Help().Key, k.PageDown.Help().Key, a.keys.Filter.Help().Key, esc)
		last = a.ctx.Theme.Muted.Render(ansi.Truncate(more, w, "…"))
	}
	body := lines[a.helpTop:end]
	for len(body) < rows && len(lines) > rows {
		body = append(body, "")
	}
	return strings.Join(body, "\n") + "\n" + last
}

// helpText lists every key: the active view's and the shell's, generated
// from the bindings themselves by bubbles/help, whose columns are padded by
// display width (a key such as "←/→" is narrower than its bytes), and the
// view's explanation of its figures. The sections stand one above the
// other when they fit, else side by side, else each in as many columns as
// it takes; when nothing fits h, the shortest that fits w, which helpView
// scrolls.
func (a *App) helpText(w, h int) string {
	var view []key.Binding
	for _, b := range slices.Concat(a.Active().Keys(), a.commandBindings()) {
		if b.Enabled() {
			view = append(view, b)
		}
	}
	closing := a.ctx.Theme.Muted.Render("  " + a.keys.Filter.Help().Key + " filters · " + a.keys.Back.Help().Key + ", " + a.keys.Close.Help().Key + " or " + a.keys.Help.Help().Key + " closes this help")
	explain := a.explainSection(w)
	var out, tall string
	for _, l := range []struct {
		cols int
		side bool
	}{{1, false}, {1, true}, {2, false}, {3, false}, {4, false}} {
		top := a.helpSection("Keys — "+a.Active().Title(), view, w, l.cols)
		all := a.helpSection("Everywhere", a.keys.List(), w, l.cols)
		if l.side {
			out = lipgloss.JoinHorizontal(lipgloss.Top, top, "    ", all)
		} else {
			out = top + "\n\n" + all
		}
		if explain != "" {
			out += "\n\n" + explain
		}
		out += "\n\n" + closing
		if lipgloss.Height(out) <= h && lipgloss.Width(out) <= w {
			return out
		}
		// Scrolled (helpView), nothing gives way: the shortest layout
		// that fits the width, the view's explanation of its figures in.
		if lipgloss.Width(out) <= w && (tall == "" || lipgloss.Height(out) < lipgloss.Height(tall)) {
			tall = out
		}
	}
	if tall != "" {
		return tall
	}
	return out
}

// explainSection is the active view's explanation of its figures, wrapped
// to w; "" for a view without one.
func (a *App) explainSection(w int) string {
	ex, ok := a.Active().(Explainer)
	if !ok {
		return ""
	}
	var b strings.Builder
	b.WriteString(a.ctx.Theme.Title.Render("How its figures are computed"))
	for _, p := range ex.Explain() {
		b.WriteString("\n" + indent(ansi.Wrap(p, max(w-2, 10), " ")))
	}
	return b.String()
}

// helpSection is a title over the bindings in cols aligned columns.
func (a *App) helpSection(title string, bs []key.Binding, w, cols int) string {
	rows := max((len(bs)+cols-1)/cols, 1)
	var groups [][]key.Binding
	for len(bs) > 0 {
		n := min(rows, len(bs))
		groups = append(groups, bs[:n])
		bs = bs[n:]
	}
	m := a.help
	m.SetWidth(max(w-2, 1))
	body := m.FullHelpView(groups)
	if body == "" {
		body = a.ctx.Theme.Muted.Render("no keys of its own")
	}
	return a.ctx.Theme.Title.Render(title) + "\n\n" + indent(body)
}

// indent puts two spaces before every line.
func indent(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = "  " + l
	}
	return strings.Join(lines, "\n")
}

// rawPager shows a record as indented JSON, every line sanitized,
// scrollable: the JSON the server sent when the record came from the
// network (fields the dashboard does not model included), else the record
// as the dashboard holds it.
type rawPager struct {
	vp   viewport.Model
	keys PagerKeys
	// hint is the line under the text: the pager's keys and closing.
	hint string
	// readingID is the record it waits for (RawReader), and held the
	// record as held meanwhile.
	readingID string
	held      any
}

// newPagerViewport is a viewport of w×h scrolled by k alone.
func newPagerViewport(k PagerKeys, w, h int) viewport.Model {
	vp := viewport.New(viewport.WithWidth(w), viewport.WithHeight(max(h-1, 1)))
	off := key.NewBinding(key.WithDisabled())
	vp.KeyMap = viewport.KeyMap{Up: k.Up, Down: k.Down, PageUp: k.PageUp, PageDown: k.PageDown,
		HalfPageUp: off, HalfPageDown: off, Left: off, Right: off}
	return vp
}

func newRawPager(ctx *Context, rec any, w, h int) *rawPager {
	return newRawPagerAs(ctx, rec, "as received", "as held (not received from the network)", w, h)
}

// newRawPagerAs is newRawPager saying received over the JSON as received,
// held over the record as held.
func newRawPagerAs(ctx *Context, rec any, received, held string, w, h int) *rawPager {
	text, title := "", received
	var buf bytes.Buffer
	if r, ok := rec.(wire.RawJSONer); ok && len(r.RawJSON()) > 0 && json.Indent(&buf, r.RawJSON(), "", "  ") == nil {
		text = buf.String()
	} else {
		b, err := json.MarshalIndent(rec, "", "  ")
		text, title = string(b), held
		if err != nil {
			text = "cannot encode record: " + err.Error()
		}
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		lines[i] = sanitize.Line(l)
	}
	lines = append([]string{ctx.Theme.Muted.Render(sanitize.Line(title))}, lines...)
	k := DefaultPagerKeys(ctx.keymap())
	vp := newPagerViewport(k, w, h)
	vp.SetContent(strings.Join(lines, "\n"))
	return &rawPager{vp: vp, keys: k}
}

// newTextPager shows a title and a text, sanitized, on lines of their own
// (an id to select by hand).
func newTextPager(ctx *Context, title, text string, w, h int) *rawPager {
	k := DefaultPagerKeys(ctx.keymap())
	vp := newPagerViewport(k, w, h)
	vp.SetContent(ctx.Theme.Muted.Render(sanitize.Line(title)) + "\n\n" + sanitize.Line(text) + "\n")
	return &rawPager{vp: vp, keys: k}
}

// newOutputPager pages a program's output, its lines kept (each through
// the sanitizer).
func newOutputPager(ctx *Context, title, text string, w, h int) *rawPager {
	k := DefaultPagerKeys(ctx.keymap())
	vp := newPagerViewport(k, w, h)
	vp.SetContent(ctx.Theme.Muted.Render(sanitize.Line(title)) + "\n\n" + sanitize.Text(strings.TrimRight(text, "\n")) + "\n")
	return &rawPager{vp: vp, keys: k}
}

// pager gives p its hint line, from its bindings and the shell's closing
// keys.
func (a *App) pager(p *rawPager) *rawPager {
	k := a.keys
	closing := key.NewBinding(key.WithKeys(append(k.Back.Keys(), k.Close.Keys()...)...),
		key.WithHelp(k.Back.Help().Key+"/"+k.Close.Help().Key, "close"))
	p.hint = a.shortHelp([]key.Binding{p.keys.Up, p.keys.Down, p.keys.PageUp, p.keys.PageDown, closing}, 0)
	return p
}

func (r *rawPager) update(msg tea.KeyPressMsg) { r.vp, _ = r.vp.Update(msg) }

func (r *rawPager) view() string {
	return r.vp.View() + fmt.Sprintf("\n  %3.0f%%  ", r.vp.ScrollPercent()*100) + r.hint
}
