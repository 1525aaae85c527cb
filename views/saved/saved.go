// Package saved shows a profile's saved searches (config searches:) as
// tabs after the built-in views, as gh-dash's sections: each tab is a view
// of its own (any built-in view with a table) with the saved search
// applied, over the saved window (payments), showing only the saved
// columns, sorted as saved. The search stays editable
// with `/`; esc on the tab's root goes back to the saved search, and
// `:search <title>` opens the tab.
//
// Check is what config.Load is given to check the searches before the
// dashboard starts: an unknown view, a regular expression that does not
// compile, a payments column or window that is not; Views checks the
// rest on the built views.
package saved

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"treasury/config"
	"treasury/config/route"
	"treasury/desk/live"
	"treasury/ui"
	"treasury/ui/table"
	paymentsview "treasury/views/payments"
)

// Build makes a new instance of the view of route (the dashboard's
// constructors), for a saved search's tab; nil for a route it does not
// know.
type Build func(r route.Route) ui.View

// searchable are the views a saved search can name: every built-in view
// with a table (the overview has none).
func searchable() []route.Route {
	var out []route.Route
	for _, r := range route.All() {
		if r != route.Overview {
			out = append(out, r)
		}
	}
	return out
}

// Check checks a saved search as far as the views' names and the
// payments' columns and windows go: a config.SearchCheck, run when the
// file is read. What only a built view knows (another view's columns,
// what it sorts by) is checked when the tabs are built (Views), before
// the dashboard starts.
func Check(s config.Search) (field string, err error) {
	if !slices.Contains(searchable(), route.Route(s.View)) {
		names := make([]string, 0, 12)
		for _, r := range searchable() {
			names = append(names, string(r))
		}
		return "view", fmt.Errorf("no view %q to search (views: %s)", s.View, strings.Join(names, ", "))
	}
	if s.View != string(paymentsview.Name) {
		// Its table says which columns it has when it is built (Views);
		// a search's words it does not know are looked for as text.
		if s.Window != "" {
			return "window", fmt.Errorf("the %s view keeps no window in a saved search (only payments does)", s.View)
		}
		return "", nil
	}
	columns, fields := paymentsview.SearchColumns(), paymentsview.SearchFields()
	if err := table.CheckQuery(s.Search, columns, fields); err != nil {
		return "search", err
	}
	for _, c := range s.Columns {
		if table.ColumnIndex(columns, c) < 0 {
			return "columns", fmt.Errorf("no column %q in %s (columns: %s)", c, s.View, strings.Join(columns, ", "))
		}
	}
	if s.Window != "" {
		if err := paymentsview.CheckWindow(s.Window); err != nil {
			return "window", err
		}
	}
	return "", nil
}

// Views builds the tabs of the saved searches, in the file's order, each
// a new instance of the view it names (build) with its window, columns
// and sort set; the search is set when the tab starts. A search whose
// columns or sort its view does not have is left out, and named in the
// error (config.Errors: the file, the line, what is wrong), which the
// dashboard refuses to start with.
func Views(ctx *ui.Context, file string, searches []config.Search, build Build) ([]ui.View, error) {
	var out []ui.View
	var errs config.Errors
	titles := make([]string, 0, len(searches))
	for _, s := range searches {
		titles = append(titles, s.Title)
	}
	for _, s := range searches {
		inner := build(route.Route(s.View))
		if inner == nil {
			continue // Check refused it when the file was read
		}
		var cmds []tea.Cmd
		if s.Window != "" {
			cmds = append(cmds, inner.Update(ui.Open{View: inner.Name(), Args: []string{s.Window}}))
		}
		if l, ok := ui.As[ui.Layouter](inner); ok {
			cmd, err := l.SetLayout(s.Columns, s.Sort, s.SortDesc)
			if err != nil {
				field := "columns"
				if le := (*table.LayoutError)(nil); errors.As(err, &le) && le.Sort {
					field = "sort"
				}
				errs = append(errs, searchError(file, s, field, err))
				continue
			}
			cmds = append(cmds, cmd)
		} else if len(s.Columns) > 0 || s.Sort != "" {
			errs = append(errs, searchError(file, s, "columns", fmt.Errorf("the %s view has no table to lay out", s.View)))
			continue
		}
		out = append(out, &View{View: inner, s: s, name: Name(s.Title), init: tea.Batch(cmds...), first: len(out) == 0, titles: titles, home: true})
	}
	if len(errs) > 0 {
		return out, errs
	}
	return out, nil
}

// searchError is what is wrong with s's field, at its line in file.
func searchError(file string, s config.Search, field string, err error) *config.Error {
	line, ok := s.Lines[field]
	if !ok {
		line = s.Lines[""]
	}
	return &config.Error{File: file, Key: s.Key + "." + field, Line: line, Msg: fmt.Sprintf("saved search %q: %v", s.Title, err)}
}

// Name is the palette name of the tab of the saved search titled title
// (route.Saved): "search:" and the title, lowercased, its spaces dashes.
func Name(title string) route.Route { return route.Saved(title) }

// View is the tab of one saved search: the view it names, with the
// search set.
type View struct {
	ui.View
	s    config.Search
	name route.Route
	init tea.Cmd
	// pending is the command of a Back that set the saved search again,
	// run at the next Update (Back returns none).
	pending tea.Cmd
	// first offers :search (once for all the tabs), over titles.
	first  bool
	titles []string
	// home says the tab opens on its first row once its rows are there:
	// at the start and whenever the tab is opened afresh (a live table
	// would follow its newest row, wherever the saved sort puts it).
	home bool
}

// Name is the tab's palette name.
func (v *View) Name() route.Route { return v.name }

// Base is the route of the view the tab shows (:save saves it as that
// view's).
func (v *View) Base() route.Route { return v.View.Name() }

// Title is the saved search's title.
func (v *View) Title() string { return v.s.Title }

// Search is the saved search.
func (v *View) Search() config.Search { return v.s }

// Init sets the saved search and window.
func (v *View) Init() tea.Cmd {
	return tea.Batch(v.View.Init(), v.init, ui.SetFilterOf(v.View, v.s.Search))
}

// KeepsFilter: esc does not clear the saved search.
func (v *View) KeepsFilter() bool { return ui.FilterOf(v.View) == v.s.Search }

// Back walks back one page of the view; on its root, from a search
// edited with `/`, back to the saved one.
func (v *View) Back() bool {
	if v.View.Back() {
		return true
	}
	if ui.FilterOf(v.View) == v.s.Search {
		return false
	}
	v.pending = tea.Batch(v.pending, ui.SetFilterOf(v.View, v.s.Search))
	return true
}

// Update runs what Back left, and on an Open of the tab itself (a tab
// key, :search) shows the saved search afresh, on its first row.
func (v *View) Update(msg tea.Msg) tea.Cmd {
	cmd := v.pending
	v.pending = nil
	if o, ok := msg.(ui.Open); ok && o.View == v.name {
		for v.View.Back() {
		}
		v.home = true
		cmd = tea.Batch(cmd, ui.SetFilterOf(v.View, v.s.Search), v.View.Update(ui.StoreChanged{}))
		v.toFirstRow()
		return cmd
	}
	cmd = tea.Batch(cmd, v.View.Update(msg))
	v.toFirstRow()
	return cmd
}

// toFirstRow puts the cursor on the table's first row while the tab is to
// open there (home) and has rows.
func (v *View) toFirstRow() {
	if !v.home {
		return
	}
	if p, ok := ui.As[interface{ Table() *table.Model }](v.View); ok && p.Table().Len() > 0 {
		p.Table().Home()
		v.home = false
	}
}

// Commands offer :search <title> (on the first tab only: one command for
// all); the view's own commands are its built-in tab's.
func (v *View) Commands() []ui.Command {
	if !v.first {
		return nil
	}
	titles := v.titles
	return []ui.Command{{Name: "search", Args: "<title>", Help: "open a saved search's tab", Global: true,
		Complete: func(prefix string) []string {
			var out []string
			for _, t := range titles {
				if strings.HasPrefix(strings.ToLower(t), strings.ToLower(prefix)) {
					out = append(out, t)
				}
			}
			return out
		},
		Run: func(args []string) tea.Cmd {
			want := strings.ToLower(strings.Join(args, " "))
			var hits []string
			for _, t := range titles {
				switch lt := strings.ToLower(t); {
				case lt == want:
					return ui.JumpCmd(Name(t))
				case strings.HasPrefix(lt, want):
					hits = append(hits, t)
				}
			}
			if len(hits) == 1 {
				return ui.JumpCmd(Name(hits[0]))
			}
			return ui.FlashCmd(fmt.Sprintf(":search %s: no saved search of that title (saved: %s)", want, strings.Join(titles, ", ")))
		}}}
}

// The rest is the view's: these say so for the interface's sake.

// Topics are the view's.
func (v *View) Topics() []live.Topic { return v.View.Topics() }

// Keys are the view's.
func (v *View) Keys() []key.Binding { return v.View.Keys() }

// Shown is the view the tab shows: its search, export and selection are
// the tab's (ui.Shower).
func (v *View) Shown() any { return v.View }
