package viewkit

import (
	"cmp"
	"encoding/csv"
	"errors"
	"io"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/viewport"
	tea "charm.land/bubbletea/v2"

	"treasury/desk/live"
	"treasury/ui"
	"treasury/ui/sanitize"
)

// DetailSpec describes the detail page of one record of type T.
type DetailSpec[T any] struct {
	Crumb  string
	Topics []live.Topic
	// Get returns the record as held now, whether it is known, and the
	// snapshot whose age the status line shows.
	Get func() (T, bool, live.Snapshot)
	// ID is the record's id (copy, confirmation).
	ID func(rec T) string
	// Body draws the record at a width; lines beyond the height scroll.
	Body    func(rec T, width int) string
	Actions []Action[T]
	// Handle sees every message first (Fetched, the page's Replies); it
	// returns whether to redraw and a command.
	Handle func(msg tea.Msg) (redraw bool, cmd tea.Cmd)
	// Fields, when set, are the label/value pairs ctrl+s saves.
	Fields func(rec T) [][2]string
	// What names the record for the loading, failed and missing states
	// ("payment 3f…"); empty means the crumb.
	What string
}

// DetailKeys are a detail page's own bindings: scrolling, and enter on a
// record that could not be read.
type DetailKeys struct {
	Up, Down, PageUp, PageDown, HalfPageUp, HalfPageDown key.Binding
	// Errors opens the errors view when the record could not be read.
	Errors key.Binding
}

// DefaultDetailKeys are the detail page's bindings in force (page down
// is not "f" as in a pager: f freezes a wallet transaction).
func DefaultDetailKeys(ctx *ui.Context) DetailKeys {
	return DetailKeys{Up: ctx.Key("scroll_up"), Down: ctx.Key("scroll_down"), PageUp: ctx.Key("scroll_page_up"),
		PageDown: ctx.Key("scroll_page_down"), HalfPageUp: ctx.Key("half_page_up"), HalfPageDown: ctx.Key("half_page_down"),
		Errors: ctx.KeyAs("open", "show the errors")}
}

// DetailPage shows one record, scrollable, kept current from the store.
type DetailPage[T any] struct {
	ctx   *ui.Context
	keys  DetailKeys
	spec  DetailSpec[T]
	vp    viewport.Model
	rec   T
	ok    bool
	snap  live.Snapshot
	width int
	dirty bool
}

// NewDetailPage builds a detail page.
func NewDetailPage[T any](ctx *ui.Context, spec DetailSpec[T]) *DetailPage[T] {
	k := DefaultDetailKeys(ctx)
	vp := viewport.New()
	vp.KeyMap = viewport.KeyMap{Up: k.Up, Down: k.Down, PageUp: k.PageUp, PageDown: k.PageDown,
		HalfPageUp: k.HalfPageUp, HalfPageDown: k.HalfPageDown,
		// The body wraps to the width: nothing scrolls sideways.
		Left: key.NewBinding(key.WithDisabled()), Right: key.NewBinding(key.WithDisabled())}
	return &DetailPage[T]{ctx: ctx, keys: k, spec: spec, vp: vp, dirty: true}
}

// Crumb names the page.
func (d *DetailPage[T]) Crumb() string { return d.spec.Crumb }

// Topics the page reads.
func (d *DetailPage[T]) Topics() []live.Topic { return d.spec.Topics }

// Record is the record shown.
func (d *DetailPage[T]) Record() (T, bool) { return d.rec, d.ok }

// Redraw asks for the body to be drawn again at the next Render.
func (d *DetailPage[T]) Redraw() { d.dirty = true }

func (d *DetailPage[T]) reload() {
	d.rec, d.ok, d.snap = d.spec.Get()
	d.dirty = true
}

// Update handles a message.
func (d *DetailPage[T]) Update(msg tea.Msg) tea.Cmd {
	var cmds []tea.Cmd
	if d.spec.Handle != nil {
		redraw, cmd := d.spec.Handle(msg)
		cmds = append(cmds, cmd)
		if redraw {
			d.reload()
		}
	}
	switch msg := msg.(type) {
	case ui.StoreChanged:
		d.reload()
	case tea.KeyPressMsg:
		if key.Matches(msg, d.keys.Errors) && !d.ok {
			if cmd := OpenErrors(d.snap); cmd != nil {
				return tea.Batch(append(cmds, cmd)...)
			}
		}
		if d.ok {
			for _, a := range d.spec.Actions {
				if key.Matches(msg, a.Key) {
					return tea.Batch(append(cmds, a.press(d.rec, d.ctx.ReadOnly))...)
				}
			}
		}
		var cmd tea.Cmd
		d.vp, cmd = d.vp.Update(msg)
		cmds = append(cmds, cmd)
	}
	return tea.Batch(cmds...)
}

// Render draws the status line and the body.
func (d *DetailPage[T]) Render(w, h int) string {
	status := Status(d.ctx, d.snap)
	if w != d.width {
		d.width, d.dirty = w, true
	}
	d.vp.SetWidth(w)
	d.vp.SetHeight(max(h-1, 1))
	what := cmp.Or(d.spec.What, d.spec.Crumb, "the record")
	if !d.ok {
		if body, ok := StateBody(d.ctx, d.spec.Topics, d.snap, what, w); ok {
			return status + "\n" + body
		}
	}
	// Notes on incomplete data (a partial read) stand between the status
	// and the record, and take their lines from the viewport.
	head := status
	if notes := Notes(d.ctx, d.snap); len(notes) > 0 {
		head += "\n" + strings.Join(notes, "\n")
		d.vp.SetHeight(max(h-1-len(notes), 1))
	}
	if d.dirty {
		d.dirty = false
		missing := " is not in the data read "
		if !RecordsComplete(d.snap) {
			missing = " is not among the records read (the sources named above could not be read) "
		}
		body := d.ctx.Theme.Muted.Render(sanitize.Line(what) + missing + ui.Age(d.ctx.Clock(), d.snap.FetchedAt) + " ago.")
		if d.ok {
			body = d.spec.Body(d.rec, w)
		}
		d.vp.SetContent(body)
	}
	return head + "\n" + d.vp.View()
}

// Keys are the actions this session may run on the record shown; enter
// opens the errors while the record could not be read. NavKeys scroll.
func (d *DetailPage[T]) Keys() []key.Binding {
	var out []key.Binding
	if d.ok {
		for _, a := range d.spec.Actions {
			if a.offered(d.rec, true, d.ctx.ReadOnly) {
				out = append(out, a.Key)
			}
		}
	} else if OpenErrors(d.snap) != nil {
		out = append(out, d.keys.Errors)
	}
	return out
}

// NavKeys scroll the record.
func (d *DetailPage[T]) NavKeys() []key.Binding {
	k := d.keys
	return []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.HalfPageUp, k.HalfPageDown}
}

// Selected is the record shown.
func (d *DetailPage[T]) Selected() (string, any, bool) {
	if !d.ok {
		return "", nil, false
	}
	return d.spec.ID(d.rec), d.rec, true
}

// CSV saves the record's fields as label,value lines (read now, written
// by the returned func on any goroutine).
func (d *DetailPage[T]) CSV() func(io.Writer) error {
	if !d.ok || d.spec.Fields == nil {
		return func(io.Writer) error { return errors.New("this page has no table to save") }
	}
	fs := d.spec.Fields(d.rec)
	rows := make([][]string, len(fs))
	for i, f := range fs {
		rows[i] = []string{f[0], strings.TrimSpace(f[1])}
	}
	return func(w io.Writer) error { return ui.WriteCSVRows(csv.NewWriter(w), []string{"field", "value"}, rows) }
}
