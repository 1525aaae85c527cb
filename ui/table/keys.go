package table

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// KeyMap is the table's key bindings. The shell shows them in its help view
// through ShortHelp and FullHelp; filtering is the shell's (it owns the `/`
// input and calls SetFilter).
type KeyMap struct {
	Up, Down           key.Binding
	PageUp, PageDown   key.Binding
	Home, End          key.Binding
	SortNext, SortBack key.Binding
	// Left and Right scroll the columns sideways when they do not all
	// fit (ScrollColumns).
	Left, Right key.Binding
	// Mark marks the row under the cursor (or unmarks it) and moves
	// down; MarkRange marks from the row marked last to the cursor;
	// Invert marks the rows shown that are not marked and unmarks those
	// that are; Unmark drops every mark. Only a table that marks
	// (SetMarking) takes them.
	Mark, MarkRange, Invert, Unmark key.Binding
}

// DefaultKeyMap returns the default bindings.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup", "ctrl+b"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", "ctrl+f"), key.WithHelp("pgdn", "page down")),
		Home:     key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("g/home", "first")),
		End:      key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("G/end", "last")),
		SortNext: key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "sort by column")),
		SortBack: key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "reverse sort")),
		Left:     key.NewBinding(key.WithKeys("left"), key.WithHelp("←", "columns to the left")),
		Right:    key.NewBinding(key.WithKeys("right"), key.WithHelp("→", "columns to the right")),
		// A terminal sends ctrl+space as NUL, which some read as ctrl+@.
		Mark:      key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "mark")),
		MarkRange: key.NewBinding(key.WithKeys("ctrl+space", "ctrl+@"), key.WithHelp("ctrl+space", "mark a range")),
		Invert:    key.NewBinding(key.WithKeys("*"), key.WithHelp("*", "invert marks")),
		Unmark:    key.NewBinding(key.WithKeys("u"), key.WithHelp("u/esc", "clear marks")),
	}
}

// ShortHelp returns the bindings for the one-line help.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.SortNext, k.SortBack}
}

// FullHelp returns every binding, in columns.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown},
		{k.Home, k.End, k.SortNext, k.SortBack},
		{k.Left, k.Right},
	}
}

// wheelStep is how many rows one mouse wheel notch moves.
const wheelStep = 3

// Update handles keys, the mouse wheel and the answers of the commands
// that compute views; sorting a large table returns such a command.
func (m *Model) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case Computed:
		return m.computed(msg)
	case tea.KeyPressMsg:
		if m.picking {
			return m.pick(msg)
		}
		switch {
		case key.Matches(msg, m.keys.Up):
			m.MoveCursor(-1)
		case key.Matches(msg, m.keys.Down):
			m.MoveCursor(1)
		case key.Matches(msg, m.keys.PageUp):
			m.MoveCursor(-m.bodyHeight())
		case key.Matches(msg, m.keys.PageDown):
			m.MoveCursor(m.bodyHeight())
		case key.Matches(msg, m.keys.Home):
			m.Home()
		case key.Matches(msg, m.keys.End):
			m.setCursor(len(m.view) - 1)
			m.following = m.cursor == 0
		case key.Matches(msg, m.keys.SortNext):
			m.picking = true // the header letters its columns; the next key picks
			m.c.invalidate()
		case key.Matches(msg, m.keys.SortBack):
			return m.SortReverse()
		case key.Matches(msg, m.keys.Left):
			m.ScrollColumns(-1)
		case key.Matches(msg, m.keys.Right):
			m.ScrollColumns(1)
		case !m.marks.on:
		case key.Matches(msg, m.keys.Mark):
			m.mark()
		case key.Matches(msg, m.keys.MarkRange):
			m.markRange()
		case key.Matches(msg, m.keys.Invert):
			m.invertMarks()
		case key.Matches(msg, m.keys.Unmark):
			m.ClearMarks()
		}
	case tea.MouseWheelMsg:
		switch msg.Button {
		case tea.MouseWheelUp:
			m.MoveCursor(-wheelStep)
		case tea.MouseWheelDown:
			m.MoveCursor(wheelStep)
		}
	}
	return nil
}

// MoveCursor moves the cursor by delta rows, within bounds. Leaving the
// first row stops following; coming back to it follows again.
func (m *Model) MoveCursor(delta int) {
	m.setCursor(m.cursor + delta)
	m.following = m.cursor == 0
	if m.following {
		m.newAbove = 0
	}
}

// setCursor puts the cursor at k (clamped), scrolls it into view and records
// the selected ID.
func (m *Model) setCursor(k int) {
	k = min(k, len(m.view)-1)
	k = max(k, 0)
	m.cursor = k
	if k < len(m.view) {
		if r := m.data.row(m.view[k]); r != nil {
			m.selID = r.ID
		}
	}
	m.clampWindow()
	m.c.out = ""
}

// clampWindow keeps the cursor inside the visible window, scrolling as
// little as possible.
func (m *Model) clampWindow() {
	h := m.bodyHeight()
	off := m.offset
	if m.cursor < off {
		off = m.cursor
	}
	if m.cursor >= off+h {
		off = m.cursor - h + 1
	}
	off = min(off, max(0, len(m.view)-h)) // no blank tail when rows fill the body
	off = max(off, 0)
	if off != m.offset {
		m.offset = off
		m.c.invalidate()
	}
}

// bodyHeight is the number of row lines: the height less header and footer.
func (m *Model) bodyHeight() int { return max(1, m.height-2) }

// ShownIDs are the ids of the rows in view at the table's size, top
// first: what a page reads more of when it is shown (a failure's reason).
func (m *Model) ShownIDs() []string {
	end := min(len(m.view), m.offset+m.bodyHeight())
	out := make([]string, 0, max(end-m.offset, 0))
	for k := m.offset; k < end; k++ {
		if r := m.data.row(m.view[k]); r != nil {
			out = append(out, r.ID)
		}
	}
	return out
}

// Home puts the cursor on the first row shown; a live table follows again.
func (m *Model) Home() {
	m.setCursor(0)
	m.following, m.newAbove = true, 0
}

// ClickRow selects the row shown on visible line i (0 is the first row
// under the header); a line without a row does nothing.
func (m *Model) ClickRow(i int) {
	if i < 0 || i >= m.bodyHeight() || m.offset+i >= len(m.view) {
		return
	}
	m.MoveCursor(m.offset + i - m.cursor)
}

// sortLetters name the sortable columns shown, in order, while the sort
// column is picked: every letter but the sort key's (s), whose second
// press sorts by the next column instead. A column not shown at the
// table's width (or scrolled off) has none: what cannot be seen is not
// picked.
func (m *Model) sortLetters() string {
	var b strings.Builder
	for l := 'a'; l <= 'z'; l++ {
		if !slices.Contains(m.keys.SortNext.Keys(), string(l)) && !slices.Contains(m.keys.SortBack.Keys(), string(l)) {
			b.WriteRune(l)
		}
	}
	return b.String()
}

// SortLetter is the letter that picks column i after s ("" for a column
// that does not sort or is not shown, or past the 25th).
func (m *Model) SortLetter(i int) string {
	m.ensureLayout()
	letters := m.sortLetters()
	n := 0
	for c := range m.cols {
		if m.cols[c].NoSort || c >= len(m.c.widths) || m.c.widths[c] == 0 {
			continue
		}
		if c == i {
			if n < len(letters) {
				return letters[n : n+1]
			}
			return ""
		}
		n++
	}
	return ""
}

// Picking reports whether the table waits for a sort column's letter:
// the shell then hands it every key (ui.Typing).
func (m *Model) Picking() bool { return m.picking }

// pick takes the key after s: a column's letter sorts by it (ascending;
// descending when it already sorted ascending by it), s sorts by the next
// column, S reverses; esc, or any other key, leaves the sort as it was.
func (m *Model) pick(msg tea.KeyPressMsg) tea.Cmd {
	m.picking = false
	m.c.invalidate()
	switch {
	case key.Matches(msg, m.keys.SortNext):
		return m.SortNext()
	case key.Matches(msg, m.keys.SortBack):
		return m.SortReverse()
	}
	for c := range m.cols {
		if l := m.SortLetter(c); l != "" && l == msg.String() {
			return m.SetSort(c, c == m.sortCol && !m.sortDesc)
		}
	}
	return nil
}
