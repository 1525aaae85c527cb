// Package table is the one table widget of the dashboard: every view (quotes,
// balances, payments, wallets, reports, address book) shows its records
// through it, k9s-style.
//
// It is built for large, live data sets. Only the visible rows are formatted
// and styled, and their lines are cached: moving the cursor and calling View
// costs the same at 1,000 rows as at 100,000. A version of the rows keeps
// each row compactly (its cells and searched fields as one text, the keys
// set: kept.go). Filtering scans that text, case aside, a regular
// expression only where a row holds what its matches need (pattern.go);
// sorting reduces the keys the caller precomputed (numbers, decimals,
// times) or the text to words and radix-sorts them (sort.go), never
// reparsing cells. Both run in a command off the session's goroutine at
// 100,000 rows, once per version for every session asking the same, and
// are patched in the next version where rows changed.
// The selection follows the record ID across SetRows, filter and sort, and
// rows that changed in the last updates are highlighted for a while, driven
// by the time the caller passes in (no goroutines, no timers).
//
// Cells must already be sanitized (ui/sanitize) by the caller. Styles come
// from the caller, built on the session's renderer: the package holds no
// lipgloss styles of its own.
//
// A Model is used through a pointer: Update mutates it and returns a command.
package table

import (
	"slices"
	"strings"
	"time"

	"charm.land/lipgloss/v2"

	"treasury/kit/keep"
)

// Align is the horizontal alignment of a column.
type Align uint8

const (
	// Left aligns text to the left edge of the column (the default).
	Left Align = iota
	// Right aligns text to the right edge, for amounts and counts.
	Right
	// Point aligns text to the right with the decimal points of the
	// column's cells in line (2702.90 over 460 over 0.12345678), for
	// amounts of several currencies or assets.
	Point
)

// Column describes one column.
type Column struct {
	Title string
	// Width is the least width in cells; never less than the title's, so
	// that a title is never cut.
	Width int
	// Max, when set, sizes the column to its widest cell (of every row
	// held, not only of those in view), up to Max cells. Without Flex
	// the column is then shown whole or not at all (an amount, a time, a
	// code); a flex column (a name, an id) may be cut to Width, and grows
	// to its widest cell while the table has room, the columns that need
	// the least to show every cell whole first.
	Max int
	// Flex is the column's share of the width left over once every column
	// has its width. Zero keeps the column at its width.
	Flex  int
	Align Align
	// Priority says which columns give way when the table is narrower
	// than their widths: the lowest first (of equals, the rightmost). A
	// column is shown whole or not at all, and the footer names those
	// not shown.
	Priority int
	// NoSort excludes the column from sorting (the sort key skips it).
	NoSort bool
}

// Row is one record. Cells are parallel to the columns and already
// sanitized. Keys, when set, are parallel to Cells and give the sort key of a
// cell; a zero Key (or a missing one) sorts by the cell text. (A version
// keeps, in Keys, only the keys set: Key reads them either way.)
//
// The table keeps the slices it is given: pass fresh rows to SetRows rather
// than mutating ones it holds, or change highlighting cannot see the change.
type Row struct {
	ID    string
	Cells []string
	Keys  []Key
	// Group, when set, is a value that is not shown but selects the row
	// for a session that shows one group (the transactions of one wallet
	// among the shared rows of all): see SetGroup.
	Group string
	// Fields are values the row is searched by without showing them
	// (see Field).
	Fields []Field

	// keptRow is what a version keeps of the row in place of its Cells
	// and Fields, its Keys kept as the keys set alone (kept.go): a
	// Builder sets it.
	keptRow
	changed int64 // unix nanos of the last change of its cells, 0 = never
}

// Styles are the styles the table renders with. Build them from the session's
// renderer (see NewStyles); the zero value renders plain text.
type Styles struct {
	Header    lipgloss.Style // the column titles
	Cell      lipgloss.Style // an ordinary row
	Selected  lipgloss.Style // the row under the cursor
	Highlight lipgloss.Style // a row that changed recently
	Stale     lipgloss.Style // rows while the data is stale
	Mark      lipgloss.Style // the "✓" of a marked row
	Dim       lipgloss.Style // footer and empty-state message
}

// NewStyles returns the default styles for a terminal of a dark or light
// background (the session's: never assumed for every SSH session).
func NewStyles(dark bool) Styles {
	return Styles{
		Header:    lipgloss.NewStyle().Bold(true),
		Cell:      lipgloss.NewStyle(),
		Selected:  lipgloss.NewStyle().Reverse(true),
		Highlight: lipgloss.NewStyle().Bold(true), // the shell's theme colours it (ui.Theme.Changed)
		Stale:     lipgloss.NewStyle().Faint(true),
		Mark:      lipgloss.NewStyle().Bold(true),
		Dim:       lipgloss.NewStyle().Faint(true),
	}
}

// DefaultHighlight is how long a changed row stays highlighted.
const DefaultHighlight = 3 * time.Second

// Model is the table's state. Create it with New.
type Model struct {
	cols   []Column
	styles Styles
	keys   KeyMap

	// shared, when set, holds the rows' lines for every table of the
	// process (ShareLines), by sharedStyles, the name of styles.
	shared       *keep.Registry
	sharedStyles string

	width, height int // whole widget, header and footer included

	// data: a version of the rows, shared with every session that shows
	// them (SetData), or built for this table alone (SetRows)
	data *Rows
	own  *Builder

	// order and view
	sortCol  int // -1 = the order rows were given in
	sortDesc bool
	// picking: s was pressed, the next key picks the sort column by its
	// letter (SortLetter).
	picking bool
	view    []int32 // slots shown: the data's view for the filter and sort
	viewOf  *Rows   // the data view was computed for (older while computing)
	pending bool    // a view is being computed for the current data
	filter  string  // as given
	lfilter string  // lowercased
	names   string  // the columns' names (ColumnName), \x00 between
	group   string  // the group shown (SetGroup), when grouped
	grouped bool

	// selection
	cursor  int    // index in view
	offset  int    // first visible index in view
	hscroll int    // columns after the first scrolled away (ScrollColumns), as asked
	selID   string // ID of the row under the cursor

	// follow mode (SetFollow): while the cursor is on the first row, new
	// rows appear above it and it stays on the newest; moved away, the view
	// holds still and counts the rows that arrived above (newAbove).
	live      bool
	following bool
	newAbove  int

	// marks are the rows marked for an action on several (marks.go).
	marks marks

	// marker draws the selected row with a leading "▸" (and the others
	// with spaces): for terminals without colour or reverse video, where
	// the Selected style shows nothing.
	marker bool

	// highlight and staleness
	now       int64
	highlight time.Duration
	stale     bool
	empty     string
	noMatch   string // what else to try when a filter matches nothing
	// off are the columns left out (ShowOnly): never shown, nor named
	// as hidden by the width; order is the columns' order on screen (the
	// columns named to ShowOnly first, as named; nil: the table's).
	off   []bool
	order []int

	c renderCache
}

// New returns a table over the given columns, rendered with styles.
func New(cols []Column, styles Styles) *Model {
	m := &Model{
		cols:      append([]Column(nil), cols...),
		styles:    styles,
		keys:      DefaultKeyMap(),
		sortCol:   -1,
		highlight: DefaultHighlight,
		empty:     "No rows.",
	}
	names := make([]string, len(m.cols))
	for i := range m.cols {
		if m.cols[i].Width <= 0 {
			m.cols[i].Width = max(1, textWidth(m.cols[i].Title))
		}
		names[i] = ColumnName(m.cols[i].Title)
	}
	m.names = strings.Join(names, "\x00")
	return m
}

// Columns returns the columns (a copy).
func (m *Model) Columns() []Column { return append([]Column(nil), m.cols...) }

// KeyMap returns the key bindings Update reacts to, for the help view.
func (m *Model) KeyMap() KeyMap { return m.keys }

// SetKeyMap replaces the key bindings.
func (m *Model) SetKeyMap(k KeyMap) { m.keys = k }

// SetStyles replaces the styles.
func (m *Model) SetStyles(s Styles) { m.styles = s; m.c.invalidate(); m.c.forgetRows() }

// ShowOnly shows only the columns named (ColumnName, or the prefix of
// one column only), in the order named; none: every column, in the
// table's order. It returns the names that name no column (those are
// ignored).
func (m *Model) ShowOnly(names []string) (unknown []string) {
	m.off, m.order = nil, nil
	if len(names) > 0 {
		all := strings.Split(m.names, "\x00")
		m.off = make([]bool, len(m.cols))
		for i := range m.off {
			m.off[i] = true
		}
		for _, n := range names {
			if i := columnNamed(all, n); i >= 0 && m.off[i] {
				m.off[i] = false
				m.order = append(m.order, i)
			} else if i < 0 {
				unknown = append(unknown, n)
			}
		}
		for i := range m.cols { // those left out after, in the table's order
			if m.off[i] {
				m.order = append(m.order, i)
			}
		}
	}
	m.c.invalidate()
	m.c.widths = nil
	return unknown
}

// shows reports whether column i is shown (ShowOnly).
func (m *Model) shows(i int) bool { return m.off == nil || !m.off[i] }

// columnOrder is the columns' indexes in their order on screen.
func (m *Model) columnOrder() []int {
	if m.order != nil {
		return m.order
	}
	out := make([]int, len(m.cols))
	for i := range out {
		out[i] = i
	}
	return out
}

// SetSize sets the size of the whole widget: header, rows and footer.
func (m *Model) SetSize(width, height int) {
	if width == m.width && height == m.height {
		return
	}
	m.width, m.height = width, height
	m.c.invalidate()
	m.c.widths = nil
	m.clampWindow()
}

// Width and Height return the size set by SetSize.
func (m *Model) Width() int  { return m.width }
func (m *Model) Height() int { return m.height }

// SetEmptyMessage sets what is shown when there are no rows to show.
func (m *Model) SetEmptyMessage(s string) { m.empty = s; m.c.invalidate() }

// SetNoMatchHint sets what "No rows match" adds: what else to try (a
// longer window, a lookup of the platform).
func (m *Model) SetNoMatchHint(s string) { m.noMatch = s; m.c.invalidate() }

// SetHighlightDuration sets how long changed rows stay highlighted; zero or
// less turns highlighting off.
func (m *Model) SetHighlightDuration(d time.Duration) { m.highlight = d; m.c.invalidate() }

// SetStale marks the data as stale (or fresh): rows render in the Stale style.
func (m *Model) SetStale(stale bool) {
	if stale != m.stale {
		m.stale = stale
		m.c.invalidate()
	}
}

// Stale reports whether the data is marked stale.
func (m *Model) Stale() bool { return m.stale }

// Len returns the number of rows shown (after the filter); Total the number
// of rows held.
func (m *Model) Len() int   { return len(m.view) }
func (m *Model) Total() int { return m.data.Len() }

// Cursor returns the cursor's index among the rows shown.
func (m *Model) Cursor() int { return m.cursor }

// Selected returns the row under the cursor, if any.
func (m *Model) Selected() (Row, bool) {
	if m.cursor < 0 || m.cursor >= len(m.view) {
		return Row{}, false
	}
	r := m.data.row(m.view[m.cursor])
	if r == nil {
		return Row{}, false
	}
	return r.given(), true
}

// SelectedID returns the ID of the row under the cursor ("" when none).
func (m *Model) SelectedID() string {
	if len(m.view) == 0 {
		return ""
	}
	return m.selID
}

// Select moves the cursor to the record with this ID, if shown; it reports
// whether it was.
func (m *Model) Select(id string) bool {
	k := m.viewIndex(id)
	if k < 0 {
		return false
	}
	m.setCursor(k)
	return true
}

// viewIndex returns the index in the view of the record with this ID, or -1
// when it is not shown. It looks near the cursor first: a new version
// moves the selected row by the rows that came or went above it, mostly
// few, and a view holds each row once.
func (m *Model) viewIndex(id string) int {
	if m.data == nil {
		return -1
	}
	s, ok := m.data.ids.Get(id)
	if !ok {
		return -1
	}
	for d := range nearCursor {
		if i := m.cursor + d; i < len(m.view) && m.view[i] == s {
			return i
		}
		if i := m.cursor - d; i >= 0 && i < len(m.view) && m.view[i] == s {
			return i
		}
	}
	return slices.Index(m.view, s)
}

// nearCursor is how far from the cursor viewIndex looks before it looks
// through the whole view.
const nearCursor = 64

// Tick advances the table's clock to now, ending highlights that are over.
// It reports whether the rendering changed. Call it from the shell's tick
// message; NextExpiry says when it is next worth calling.
func (m *Model) Tick(now time.Time) bool {
	old := m.now
	m.now = now.UnixNano()
	if m.c.valid {
		for k := m.offset; k < min(len(m.view), m.offset+m.bodyHeight()); k++ {
			r := m.data.row(m.view[k])
			if r != nil && m.hl(r, old) != m.hl(r, m.now) {
				m.c.invalidate()
				return true
			}
		}
	}
	return false
}

// NextExpiry returns when the latest highlight ends (zero when none is on).
func (m *Model) NextExpiry() time.Time {
	last := int64(0)
	if m.data != nil {
		last = m.data.last
	}
	if last == 0 || m.highlight <= 0 || last+int64(m.highlight) <= m.now {
		return time.Time{}
	}
	return time.Unix(0, last+int64(m.highlight))
}

// Highlighted reports whether the record with this ID is highlighted now.
func (m *Model) Highlighted(id string) bool {
	r, ok := m.data.Get(id)
	return ok && m.hl(r, m.now)
}

func (m *Model) hl(r *Row, now int64) bool {
	t := r.changed
	return t != 0 && m.highlight > 0 && now-t < int64(m.highlight)
}

// SetFollow makes the table follow its first row (a live, newest-first
// table): while the cursor is on the first row, new rows appear at the top
// and the cursor stays on the newest; once moved away, the view holds
// still and the footer says how many arrived above, until Home returns to
// the top and follows again.
func (m *Model) SetFollow(on bool) {
	m.live, m.following, m.newAbove = on, on, 0
	m.c.invalidate()
}

// Following reports whether the table follows its first row; NewAbove how
// many rows arrived above the cursor since it stopped.
func (m *Model) Following() bool { return m.live && m.following }
func (m *Model) NewAbove() int   { return m.newAbove }

// SetMarker draws a "▸" before the selected row (and blanks before the
// others), for terminals where styles do not show.
func (m *Model) SetMarker(on bool) {
	if on != m.marker {
		m.marker = on
		m.c.invalidate()
		m.c.widths = nil
	}
}

// Data is the version of the rows shown (tests, benchmarks, CSV).
func (m *Model) Data() *Rows { return m.data }
