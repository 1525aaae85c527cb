package viewkit

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"treasury/desk/live"
	"treasury/ui"
	"treasury/ui/table"
)

// TableSpec describes a table page of records of type T: what both kinds
// of table page have in common. Where its rows come from is the kind's
// own part: Shared (a projection of the store built once for every
// session, NewSharedTable) or Own (the page's own records, its rows built
// for this session, NewOwnTable).
type TableSpec[T any] struct {
	Crumb   string
	Columns []table.Column
	Topics  []live.Topic
	// Live makes the table follow its newest row (a live, newest-first
	// table): new records appear at the top with the cursor on the
	// newest while it is on the first row; moved away, the view holds
	// still and says how many arrived ("↑ N new") until g returns.
	Live bool
	// Enter opens the selected record (drill-down or detail).
	Enter   func(rec T) tea.Cmd
	Actions []Action[T]
	// Above draws what goes above the table (a chart, a summary) in the
	// width given and at most maxHeight lines; sel is the selected record.
	Above func(width, maxHeight int, sel *T) string
	// AboveShare is the share of the height Above may take (0..1).
	AboveShare float64
	// AboveAlways draws Above also before the records are loaded (it
	// shows what does not come from them: the wallet over its
	// transactions); otherwise Above waits for the records.
	AboveAlways bool
	// Empty is what the table says when a successful read returned no
	// records; after a partial read it says so too.
	Empty string
	// What names the records for the loading and failed states ("custody
	// endpoints"); empty means the crumb.
	What string
	// Handle sees every message first (Fetched, the Replies of the page's
	// own calls); it returns whether to re-read the records and a command.
	Handle func(msg tea.Msg) (reread bool, cmd tea.Cmd)
	// Sort is the initial sort column and direction.
	SortCol  int
	SortDesc bool
	// Export, when set, is the page's CSV: the records as data, one
	// meaning per column; without it the CSV is the cells as shown.
	Export *Export[T]
	// Shown, when set, is told the records in view whenever they change
	// (the cursor scrolled, a new version came, the table was sized):
	// what a page reads more of only for what it shows (a payment's
	// reason). Its command runs as the page's.
	Shown func(recs []T) tea.Cmd
}

// Shared is where a shared table page's rows come from: a projection of
// the store built once for every session (Project); the page holds only
// its cursor, filter and sort. The store notifies the page when the
// projection is rebuilt (its topic is among the page's).
type Shared[T any] struct {
	Source live.Key[Projected[T]]
	// Group, when set, shows only the rows of that group of the Source
	// (the transactions of one wallet among the shared rows of all).
	Group string
	// Check, when set, may turn the state of the read into failed for
	// this page (a partial read whose failed part holds this page's
	// records: they are unknown, not none).
	Check func(live.Snapshot) live.Snapshot
}

// Own is where a table page of its own records gets them: records of the
// page's own calls, or a small list, whose rows are built for this
// session.
type Own[T any] struct {
	// Read returns the records and the snapshot whose age and error the
	// status line shows.
	Read func() ([]T, live.Snapshot)
	// Row is a record's row.
	Row func(rec T) table.Row
}

// Export is a table page's CSV of its records: a header and a record's
// values (amounts without grouping and apart from their currency, times
// in ISO 8601 with their zone, no glyphs, "" for none).
type Export[T any] struct {
	Header []string
	Row    func(rec T) []string
	// Begin, when set, is called once per export, on the UI goroutine,
	// and returns the row function of that export in Row's place: for
	// cells that look up other records once (a transaction's wallet
	// name among the wallets held).
	Begin func() func(rec T) []string
}

// TableKeys are a table page's own bindings (the table's are its KeyMap).
type TableKeys struct {
	// Open opens the selected record; while the records could not be
	// read, it opens the errors view.
	Open, Errors key.Binding
}

// DefaultTableKeys are the table page's bindings in force.
func DefaultTableKeys(ctx *ui.Context) TableKeys {
	return TableKeys{Open: ctx.Key("open"), Errors: ctx.KeyAs("open", "show the errors")}
}

// TablePage is a Page showing a table of records, kept current from the
// store, with drill-down, actions, filter, sort, raw record and CSV.
type TablePage[T any] struct {
	ctx  *ui.Context
	keys TableKeys
	spec TableSpec[T]
	t    *table.Model
	// dark is the background the table's styles are for.
	dark bool
	snap live.Snapshot
	seq  uint64
	read bool
	// dirty says the store changed since the rows were read: they are
	// read when first needed (a render, a key, a selection), so a view no
	// session looks at costs nothing.
	dirty bool
	// tableTop is the line of the table's header in the last render (a
	// click on a row is placed by it).
	tableTop int
	// cmd is a command the table asked for while reading (a view of a
	// large table computed off the UI goroutine): Update returns it.
	cmd tea.Cmd

	// isShared says the page is of the shared kind (NewSharedTable).
	isShared bool
	src      Shared[T]    // the shared kind's source
	shared   Projected[T] // the shared kind: the rows and records of every session

	own   Own[T] // the own kind's read
	recs  []T    // the own kind: the records, their index by id
	index map[string]int
	ids   []string // ids in record order, to see whether index still holds
	empty string   // the empty message set on the table

	// shownIDs and shownOf are the rows in view Shown was last told of,
	// and the version of the rows they were of.
	shownIDs []string
	shownOf  *table.Rows
}

// NewSharedTable builds a table page showing a projection of the store
// shared by every session.
func NewSharedTable[T any](ctx *ui.Context, spec TableSpec[T], src Shared[T]) *TablePage[T] {
	p := newTablePage(ctx, spec)
	p.isShared, p.src = true, src
	if src.Group != "" {
		p.t.SetGroup(src.Group, true)
	}
	return p
}

// NewOwnTable builds a table page of its own records, their rows built for
// this session.
func NewOwnTable[T any](ctx *ui.Context, spec TableSpec[T], own Own[T]) *TablePage[T] {
	p := newTablePage(ctx, spec)
	p.own = own
	return p
}

// newTablePage is the core both kinds share.
func newTablePage[T any](ctx *ui.Context, spec TableSpec[T]) *TablePage[T] {
	t := NewTable(ctx, spec.Columns)
	if spec.SortCol > 0 || spec.SortDesc {
		t.SetSort(spec.SortCol, spec.SortDesc)
	}
	t.SetFollow(spec.Live)
	t.SetMarking(slices.ContainsFunc(spec.Actions, func(a Action[T]) bool { return a.Batch != nil }))
	return &TablePage[T]{ctx: ctx, keys: DefaultTableKeys(ctx), spec: spec, t: t, dark: ctx.Theme.Dark}
}

// Table is the page's table widget.
func (p *TablePage[T]) Table() *table.Model { return p.t }

// Crumb names the page.
func (p *TablePage[T]) Crumb() string { return p.spec.Crumb }

// Topics the page reads: the spec's, and its source's (the store notifies
// the page when the shared rows are rebuilt).
func (p *TablePage[T]) Topics() []live.Topic {
	if p.sourced() {
		return append(slices.Clone(p.spec.Topics), p.src.Source.Topic())
	}
	return p.spec.Topics
}

// SetSource shows another projection (a scope, a window) with the cursor
// on its first row. A page of its own records (NewOwnTable) has no
// projection to change: there it does nothing.
func (p *TablePage[T]) SetSource(k live.Key[Projected[T]]) tea.Cmd {
	if !p.isShared || k == p.src.Source {
		return nil
	}
	p.src.Source, p.read, p.dirty = k, false, false
	p.refresh(true)
	p.t.Home()
	return p.takeCmd()
}

// Records are the records held, in the order they are given (Own.Read, or
// the source's given order).
func (p *TablePage[T]) Records() []T {
	p.ensure()
	if !p.sourced() {
		return p.recs
	}
	ids := p.shared.Rows.IDs()
	out := make([]T, 0, len(ids))
	for _, id := range ids {
		if r, ok := p.shared.Record(id); ok {
			out = append(out, r)
		}
	}
	return out
}

// sourced reports whether the page shows a shared projection.
func (p *TablePage[T]) sourced() bool { return p.isShared }

// ensure builds the rows if the store changed since they were built.
func (p *TablePage[T]) ensure() {
	if p.sourced() {
		p.refresh(false) // a lookup: the shared rows are adopted whenever they are newer
		return
	}
	if p.dirty {
		p.dirty = false
		p.refresh(false)
	}
}

// Reread reads the records again at the next StoreChanged, even if the
// snapshot did not change (after a call delivered new records).
func (p *TablePage[T]) Reread() { p.read, p.dirty = false, false; p.refresh(true) }

func (p *TablePage[T]) refresh(force bool) {
	if p.sourced() {
		snap := live.Get(p.ctx.Store, p.src.Source)
		p.snap = p.check(snap.Snapshot)
		if !force && p.read && snap.Version == p.seq {
			return
		}
		p.read, p.seq, p.shared = true, snap.Version, snap.Data
		if snap.Data.Rows != nil {
			p.cmd = tea.Batch(p.cmd, p.t.SetData(snap.Data.Rows))
		}
		p.t.SetStale(snap.Stale(p.ctx.Clock()) || (snap.Err != nil && !snap.FetchedAt.IsZero()))
		return
	}
	recs, snap := p.own.Read()
	if !force && p.read && snap.Seq == p.seq && snap.Seq != 0 {
		p.snap = snap
		return
	}
	p.read, p.seq, p.snap = true, snap.Seq, snap
	rows := make([]table.Row, len(recs))
	same := len(recs) == len(p.ids)
	for i, r := range recs {
		rows[i] = p.own.Row(r)
		same = same && p.ids[i] == rows[i].ID
	}
	// The index by id is rebuilt only when the ids moved (records added,
	// removed or reordered); a poll that changed records in place, the
	// usual case, keeps it.
	if !same {
		if p.index == nil {
			p.index = make(map[string]int, len(recs))
		}
		clear(p.index)
		p.ids = p.ids[:0]
		for i := range rows {
			p.index[rows[i].ID] = i
			p.ids = append(p.ids, rows[i].ID)
		}
	}
	p.recs = recs
	p.t.SetRows(rows, p.ctx.Clock())
	p.t.SetStale(snap.Stale(p.ctx.Clock()) || (snap.Err != nil && !snap.FetchedAt.IsZero()))
}

// check is the state of the shared read for this page (Shared.Check).
func (p *TablePage[T]) check(snap live.Snapshot) live.Snapshot {
	if p.src.Check == nil {
		return snap
	}
	return p.src.Check(snap)
}

// Update handles a message, then tells Shown of the records in view when
// they changed.
func (p *TablePage[T]) Update(msg tea.Msg) tea.Cmd {
	cmd := p.update(msg)
	if shown := p.shown(); shown != nil {
		return tea.Batch(cmd, shown)
	}
	return cmd
}

// shown is Shown's command for the records in view, when they changed
// since it was last told (nil otherwise, and without Shown).
func (p *TablePage[T]) shown() tea.Cmd {
	if p.spec.Shown == nil || !p.read {
		return nil
	}
	ids, of := p.t.ShownIDs(), p.t.Data()
	if of == p.shownOf && slices.Equal(ids, p.shownIDs) {
		return nil
	}
	p.shownIDs, p.shownOf = ids, of
	recs := make([]T, 0, len(ids))
	for _, id := range ids {
		if r, ok := p.record(id); ok {
			recs = append(recs, r)
		}
	}
	return p.spec.Shown(recs)
}

func (p *TablePage[T]) update(msg tea.Msg) tea.Cmd {
	cmds := []tea.Cmd{p.takeCmd()}
	defer func() { p.cmd = nil }()
	if p.spec.Handle != nil {
		reread, cmd := p.spec.Handle(msg)
		cmds = append(cmds, cmd)
		if reread {
			p.dirty = false
			p.refresh(true)
		}
	}
	switch msg := msg.(type) {
	case Fetched:
		p.dirty = true // a read answered: the records are read when needed
	case ui.StoreChanged:
		p.dirty = true
		if p.sourced() {
			p.ensure() // a shared version costs nothing to adopt: keep the view current
			cmds = append(cmds, p.takeCmd())
		}
	case table.Computed:
		cmds = append(cmds, p.t.Update(msg))
	case unmarker:
		p.t.Unmark(msg.unmark())
	case tea.MouseClickMsg:
		p.ensure()
		if msg.Button == tea.MouseLeft {
			// Y counts from the page's top: the table's header is at
			// tableTop. A click on a row's gutter (left of its cells)
			// marks it, where the page marks.
			if msg.X >= p.t.GutterWidth() || !p.t.ClickMark(msg.Y-p.tableTop-1) {
				p.t.ClickRow(msg.Y - p.tableTop - 1)
			}
		}
	case tea.MouseWheelMsg:
		p.ensure()
		cmds = append(cmds, p.t.Update(msg))
	case ui.Tick:
		p.t.Tick(msg.Now)
		p.t.SetStale(p.snap.Stale(p.ctx.Clock()) || (p.snap.Err != nil && !p.snap.FetchedAt.IsZero()))
	case tea.KeyPressMsg:
		if p.t.Picking() {
			return tea.Batch(append(cmds, p.t.Update(msg))...) // the key picks the sort column
		}
		// Enter and the actions take the record drawn under the cursor: a
		// version adopted now (its notice still on its way) can put
		// another there, in a table following the newest row.
		drawn, wasDrawn := p.selected()
		p.ensure()
		if key.Matches(msg, p.keys.Errors) {
			if cmd := OpenErrors(p.snap); cmd != nil {
				return tea.Batch(append(cmds, cmd)...)
			}
		}
		if p.t.MarkCount() > 0 {
			for _, a := range p.spec.Actions {
				if a.Batch != nil && key.Matches(msg, a.Key) {
					return tea.Batch(append(cmds, p.batch(a))...)
				}
			}
		}
		sel, ok := p.selected()
		if wasDrawn {
			sel, ok = drawn, true
		}
		if ok {
			if key.Matches(msg, p.keys.Open) && p.spec.Enter != nil {
				return tea.Batch(append(cmds, p.spec.Enter(sel))...)
			}
			for _, a := range p.spec.Actions {
				if key.Matches(msg, a.Key) {
					return tea.Batch(append(cmds, a.press(sel, p.ctx.ReadOnly))...)
				}
			}
		}
		cmds = append(cmds, p.t.Update(msg))
	}
	return tea.Batch(cmds...)
}

// record is the record id, if the page holds it.
func (p *TablePage[T]) record(id string) (T, bool) {
	if p.sourced() {
		return p.shared.Record(id)
	}
	i, ok := p.index[id]
	if !ok {
		var zero T
		return zero, false
	}
	return p.recs[i], true
}

// Layout is the table's columns shown and sort (ui.Layouter).
func (p *TablePage[T]) Layout() ([]string, string, bool) {
	sort, desc := p.t.SortName()
	return p.t.ShownColumns(), sort, desc
}

// SetLayout shows only the columns named and sorts by one (ui.Layouter).
func (p *TablePage[T]) SetLayout(columns []string, sort string, desc bool) (tea.Cmd, error) {
	return p.t.SetLayout(columns, sort, desc)
}

// ColumnTitles are every column's name (as a search and a saved view
// name it) and title, in the table's order (ui.ColumnPicker).
func (p *TablePage[T]) ColumnTitles() (names, titles []string) {
	for _, c := range p.t.Columns() {
		titles = append(titles, c.Title)
	}
	return p.t.ColumnNames(), titles
}

// Marks counts the marked records (ui.Marker).
func (p *TablePage[T]) Marks() int { return p.t.MarkCount() }

// ClearMarks drops the marks (ui.Marker: esc).
func (p *TablePage[T]) ClearMarks() int { return p.t.ClearMarks() }

// Typing is whether the table waits for a sort column's letter: the
// shell then hands the page every key (ui.Typing).
func (p *TablePage[T]) Typing() bool { return p.t.Picking() }

// takeCmd returns the command the table asked for, once.
func (p *TablePage[T]) takeCmd() tea.Cmd {
	c := p.cmd
	p.cmd = nil
	return c
}

func (p *TablePage[T]) selected() (T, bool) {
	if id := p.t.SelectedID(); id != "" {
		return p.record(id)
	}
	var zero T
	return zero, false
}

// Render draws the status line, what goes above, and the table; before the
// first good answer, the loading or failed state instead of the table.
func (p *TablePage[T]) Render(w, h int) string {
	if p.dark != p.ctx.Theme.Dark { // the terminal said its background is not the one assumed
		p.dark = p.ctx.Theme.Dark
		p.t.SetStyles(TableStyles(p.ctx.Theme))
		shareLines(p.ctx, p.t)
	}
	p.ensure()
	what := cmp.Or(p.spec.What, p.spec.Crumb, "the records")
	if body, ok := StateBody(p.ctx, p.spec.Topics, p.snap, what, w); ok {
		head := Status(p.ctx, p.snap)
		if p.spec.Above != nil && p.spec.AboveAlways {
			if a := p.spec.Above(w, int(float64(h-1)*p.spec.AboveShare), nil); a != "" {
				head += "\n" + a
			}
		}
		return head + "\n" + body
	}
	p.setEmpty()
	parts := append([]string{Status(p.ctx, p.snap)}, Notes(p.ctx, p.snap)...)
	used := len(parts)
	if p.spec.Above != nil {
		var sel *T
		if s, ok := p.selected(); ok {
			sel = &s
		}
		maxH := int(float64(h-used) * p.spec.AboveShare)
		if maxH > 0 {
			if a := p.spec.Above(w, maxH, sel); a != "" {
				parts = append(parts, a)
				used += lipgloss.Height(a)
			}
		}
	}
	p.t.SetSize(w, max(h-used, 3))
	p.tableTop = used
	parts = append(parts, p.t.View())
	return strings.Join(parts, "\n")
}

// setEmpty sets what the empty table says: the spec's sentence after a
// complete read, and after a partial one a sentence that claims no more
// than the sources that answered.
func (p *TablePage[T]) setEmpty() {
	msg := p.spec.Empty
	if msg == "" {
		msg = "No rows."
	}
	if !RecordsComplete(p.snap) {
		msg = "none among the records read; the sources named above could not be read, so there may be more"
	}
	if msg != p.empty {
		p.empty = msg
		p.t.SetEmptyMessage(msg)
	}
}

// Keys are the page's bindings: enter (the errors while the records could
// not be read), the actions this session may run, ←/→ while columns are
// out of view, and sorting; NavKeys move the cursor.
func (p *TablePage[T]) Keys() []key.Binding {
	p.ensure()
	var out []key.Binding
	switch {
	case OpenErrors(p.snap) != nil:
		out = append(out, p.keys.Errors)
	case p.spec.Enter != nil:
		out = append(out, p.keys.Open)
	}
	sel, ok := p.selected()
	marks := p.t.MarkCount()
	var marked []T
	if marks > 0 {
		marked, _ = p.marked()
	}
	for _, a := range p.spec.Actions {
		switch {
		case marks > 0 && a.Batch != nil:
			// Offered while one marked record at least is not ruled out.
			if (!a.Write || !p.ctx.ReadOnly) && slices.ContainsFunc(marked, func(r T) bool { return a.offered(r, true, false) }) {
				out = append(out, key.NewBinding(key.WithKeys(a.Key.Keys()...),
					key.WithHelp(a.Key.Help().Key, fmt.Sprintf("%s %d marked", a.BatchHelp, marks))))
			}
		case a.offered(sel, ok, p.ctx.ReadOnly):
			out = append(out, a.Key)
		}
	}
	km := p.t.KeyMap()
	if marks > 0 {
		out = append(out, km.Mark, km.Unmark, km.MarkRange, km.Invert)
	}
	if p.t.CanScroll() {
		// Columns are out of view at this width: the keys that show them
		// come before sorting, for the footer to keep them at 80 columns.
		out = append(out, key.NewBinding(key.WithKeys(append(km.Left.Keys(), km.Right.Keys()...)...),
			key.WithHelp(km.Left.Help().Key+"/"+km.Right.Help().Key, "more columns")))
	}
	return append(out, km.SortNext, km.SortBack)
}

// NavKeys are the table's keys that move the cursor.
func (p *TablePage[T]) NavKeys() []key.Binding {
	km := p.t.KeyMap()
	out := []key.Binding{km.Up, km.Down, km.PageUp, km.PageDown, km.Home, km.End}
	if p.t.Marking() && p.t.MarkCount() == 0 {
		// With the moves, after the view's own keys in the footer: marks
		// are a way of moving through the records to act on.
		out = append([]key.Binding{km.Mark}, out...)
	}
	return out
}

// Selected is the record under the cursor.
func (p *TablePage[T]) Selected() (string, any, bool) {
	p.ensure()
	r, ok := p.selected()
	if !ok {
		return "", nil, false
	}
	return p.t.SelectedID(), r, true
}

// SelectedRecord is the record under the cursor, typed.
func (p *TablePage[T]) SelectedRecord() (T, bool) { p.ensure(); return p.selected() }

// SetFilter filters the table; a large one filters in the command it
// returns.
func (p *TablePage[T]) SetFilter(text string) tea.Cmd {
	p.ensure()
	return tea.Batch(p.takeCmd(), p.t.SetFilter(text))
}

// Filter is the table's filter.
func (p *TablePage[T]) Filter() string { return p.t.Filter() }

// WriteCSV writes the table as filtered and sorted.
func (p *TablePage[T]) CSV() func(io.Writer) error {
	p.ensure()
	ex := p.spec.Export
	if ex == nil {
		return p.t.CSV()
	}
	ids := p.t.Shown()
	row := ex.Row
	if ex.Begin != nil {
		row = ex.Begin()
	}
	if !p.sourced() {
		// A page's own records (few: a session's read) are exported now,
		// on the UI goroutine: their cells may read what the session
		// holds (the counts of the wallets pages).
		cells := make(map[string][]string, len(p.recs))
		for id := range ids {
			if i, ok := p.index[id]; ok {
				cells[id] = row(p.recs[i])
			}
		}
		return func(w io.Writer) error {
			return table.WriteRecordsCSV(w, ex.Header, ids, func(id string) ([]string, bool) {
				c, ok := cells[id]
				return c, ok
			})
		}
	}
	// A shared projection's version is immutable: its records are read
	// by the command, on any goroutine.
	record := p.shared.Record
	return func(w io.Writer) error {
		return table.WriteRecordsCSV(w, ex.Header, ids, func(id string) ([]string, bool) {
			r, ok := record(id)
			if !ok {
				return nil, false
			}
			return row(r), true
		})
	}
}
