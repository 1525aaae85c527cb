package ui

import (
	"errors"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"treasury/ui/sanitize"
)

// The column picker (v on a table): every column of the table shown, in
// its order on screen, each shown or hidden; space shows or hides the one
// under the cursor, K and J move it up and down (left and right on
// screen), a shows every column in the table's order; each change is
// applied at once, enter keeps it, esc puts the layout back as it was.
// The layout is the session's until :save keeps it (the saved view's
// columns, in their order).

// ColumnPicker is a table page whose columns can be picked: its layout
// (Layouter) and every column's name (as a search and a saved view name
// it) and title, in the table's order.
type ColumnPicker interface {
	Layouter
	ColumnTitles() (names, titles []string)
}

// pickedColumn is one column in the picker.
type pickedColumn struct {
	name, title string
	shown       bool
}

// columnPicker is the picker open on a table page.
type columnPicker struct {
	page   ColumnPicker
	cols   []pickedColumn
	cursor int
	// was is the layout when the picker opened (esc puts it back).
	was          []string
	sort         string
	desc         bool
	err          error
	keys         PickerKeys
	viewTitle    string
	tableColumns []string // every name, in the table's order
}

// PickerKeys are the column picker's bindings.
type PickerKeys struct {
	Up, Down, Toggle, MoveUp, MoveDown, All, Done, Cancel key.Binding
}

// openColumns opens the picker on the active view's table page.
func (a *App) openColumns() tea.Cmd {
	page, ok := As[ColumnPicker](a.Active())
	if !ok {
		a.setFlash(Flash{Text: "no table here to pick columns of"})
		return nil
	}
	names, titles := page.ColumnTitles()
	shown, sort, desc := page.Layout()
	km := a.ctx.keymap()
	p := &columnPicker{page: page, was: shown, sort: sort, desc: desc, viewTitle: a.Active().Title(), tableColumns: names,
		keys: PickerKeys{Up: Bind(km, "picker_up"), Down: Bind(km, "picker_down"), Toggle: Bind(km, "picker_toggle"),
			MoveUp: Bind(km, "picker_move_up"), MoveDown: Bind(km, "picker_move_down"), All: Bind(km, "picker_all"),
			Done: Bind(km, "picker_done"), Cancel: Bind(km, "picker_cancel")}}
	title := func(n string) string {
		if i := slices.Index(names, n); i >= 0 {
			return titles[i]
		}
		return n
	}
	if len(shown) == 0 {
		shown = names
	}
	for _, n := range shown { // those shown, in their order on screen
		p.cols = append(p.cols, pickedColumn{name: n, title: title(n), shown: true})
	}
	for _, n := range names { // then those left out, in the table's order
		if !slices.Contains(shown, n) {
			p.cols = append(p.cols, pickedColumn{name: n, title: title(n)})
		}
	}
	a.push(p)
	return nil
}

// onKey is a key while the picker is open.
func (p *columnPicker) onKey(a *App, msg tea.KeyPressMsg) tea.Cmd {
	k := p.keys
	switch {
	case key.Matches(msg, k.Done):
		a.pop()
		return nil
	case key.Matches(msg, k.Cancel):
		cmd, _ := p.page.SetLayout(p.was, p.sort, p.desc)
		a.pop()
		return cmd
	case key.Matches(msg, k.Up):
		p.cursor = max(p.cursor-1, 0)
	case key.Matches(msg, k.Down):
		p.cursor = min(p.cursor+1, len(p.cols)-1)
	case key.Matches(msg, k.Toggle):
		c := &p.cols[p.cursor]
		if c.shown && p.shownCount() == 1 {
			p.err = errors.New("one column at least stays shown")
			return nil
		}
		c.shown = !c.shown
		return p.apply()
	case key.Matches(msg, k.MoveUp) && p.cursor > 0:
		p.cols[p.cursor-1], p.cols[p.cursor] = p.cols[p.cursor], p.cols[p.cursor-1]
		p.cursor--
		return p.apply()
	case key.Matches(msg, k.MoveDown) && p.cursor < len(p.cols)-1:
		p.cols[p.cursor+1], p.cols[p.cursor] = p.cols[p.cursor], p.cols[p.cursor+1]
		p.cursor++
		return p.apply()
	case key.Matches(msg, k.All):
		cur := p.cols[p.cursor].name
		p.cols = p.cols[:0]
		for _, n := range p.tableColumns {
			p.cols = append(p.cols, pickedColumn{name: n, title: p.titleOf(n), shown: true})
		}
		p.cursor = max(slices.IndexFunc(p.cols, func(c pickedColumn) bool { return c.name == cur }), 0)
		return p.apply()
	}
	return nil
}

// titleOf is column n's title.
func (p *columnPicker) titleOf(n string) string {
	for _, c := range p.cols {
		if c.name == n {
			return c.title
		}
	}
	return n
}

func (p *columnPicker) shownCount() int {
	n := 0
	for _, c := range p.cols {
		if c.shown {
			n++
		}
	}
	return n
}

// apply gives the table the layout picked: the columns shown in their
// order (none named: every column in the table's order), the sort kept.
func (p *columnPicker) apply() tea.Cmd {
	p.err = nil
	var shown []string
	for _, c := range p.cols {
		if c.shown {
			shown = append(shown, c.name)
		}
	}
	if slices.Equal(shown, p.tableColumns) {
		shown = nil
	}
	cmd, err := p.page.SetLayout(shown, p.sort, p.desc)
	p.err = err
	return cmd
}

// view draws the picker in w×h: a line per column, the one under the
// cursor marked, its keys, and how to keep it.
func (p *columnPicker) view(ctx *Context, w, h int) string {
	t := ctx.Theme
	k := p.keys
	first := func(b key.Binding) string {
		if ks := b.Keys(); len(ks) > 0 {
			return ks[0]
		}
		return b.Help().Key
	}
	hint := first(k.Toggle) + " show/hide · " + first(k.MoveUp) + "/" + first(k.MoveDown) + " move left/right · " +
		first(k.All) + " all · " + first(k.Done) + " keep · " + first(k.Cancel) + " cancel"
	lines := []string{t.Title.Render("Columns — " + sanitize.Line(p.viewTitle)), t.Muted.Render(ansi.Truncate(hint, w, "…")), ""}
	rows := max(h-len(lines)-2, 1)
	top := min(max(p.cursor-rows+1, 0), max(len(p.cols)-rows, 0))
	for i := top; i < len(p.cols) && i < top+rows; i++ {
		c := p.cols[i]
		box := "[ ] "
		if c.shown {
			box = "[x] "
		}
		line := "  " + box + sanitize.Line(c.title) + t.Muted.Render("  "+c.name)
		if i == p.cursor {
			line = "▸ " + box + t.Selected.Render(sanitize.Line(c.title)) + t.Muted.Render("  "+c.name)
		}
		lines = append(lines, ansi.Truncate(line, w, "…"))
	}
	lines = append(lines, "")
	if p.err != nil {
		lines = append(lines, t.Bad.Render(ansi.Truncate(p.err.Error(), w, "…")))
	} else {
		lines = append(lines, t.Muted.Render(ansi.Truncate("applied as you go; :save <title> keeps it as a tab of the profile", w, "…")))
	}
	return strings.Join(lines, "\n")
}
