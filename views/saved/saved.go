// Package saved shows a profile's saved searches (config searches:) as
// tabs after the built-in views, as gh-dash's sections: each tab is a view
// of its own (payments, for now) with the saved search applied, over the
// saved window, showing only the saved columns. The search stays editable
// with `/`; esc on the tab's root goes back to the saved search, and
// `:search <title>` opens the tab.
//
// Check is what config.Load is given to check the searches before the
// dashboard starts: an unknown view, a column or name the view does not
// have, a regular expression that does not compile, a window the view
// does not take.
package saved

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"treasury/config"
	"treasury/data/live"
	"treasury/data/platform"
	"treasury/ui"
	"treasury/ui/route"
	"treasury/ui/table"
	paymentsview "treasury/views/payments"
)

// kind is what a view a saved search can name offers.
type kind struct {
	columns, fields []string
	window          func(string) error
	build           func(ctx *ui.Context, p *platform.Platform, s config.Search) (ui.View, tea.Cmd)
}

// kinds are the views a saved search can name, by palette name.
func kinds() map[string]kind {
	return map[string]kind{
		string(paymentsview.Name): {
			columns: paymentsview.SearchColumns(), fields: paymentsview.SearchFields(), window: paymentsview.CheckWindow,
			build: func(ctx *ui.Context, p *platform.Platform, s config.Search) (ui.View, tea.Cmd) {
				v := paymentsview.New(ctx, p)
				v.ShowColumns(s.Columns)
				var cmd tea.Cmd
				if s.Window != "" {
					cmd = v.Update(ui.Open{View: paymentsview.Name, Args: []string{s.Window}})
				}
				return v, cmd
			},
		},
	}
}

// Check checks a saved search against the views: a config.SearchCheck.
func Check(s config.Search) (field string, err error) {
	ks := kinds()
	k, ok := ks[s.View]
	if !ok {
		return "view", fmt.Errorf("no view %q to search (views: %s)", s.View, strings.Join(slices.Sorted(maps.Keys(ks)), ", "))
	}
	if err := table.CheckQuery(s.Search, k.columns, k.fields); err != nil {
		return "search", err
	}
	for _, c := range s.Columns {
		if table.ColumnIndex(k.columns, c) < 0 {
			return "columns", fmt.Errorf("no column %q in %s (columns: %s)", c, s.View, strings.Join(k.columns, ", "))
		}
	}
	if s.Window != "" {
		if err := k.window(s.Window); err != nil {
			return "window", err
		}
	}
	return "", nil
}

// Views builds the tabs of the saved searches, in the file's order; the
// searches are those Check passed (one it does not know is left out).
func Views(ctx *ui.Context, p *platform.Platform, searches []config.Search) []ui.View {
	var out []ui.View
	titles := make([]string, 0, len(searches))
	for _, s := range searches {
		titles = append(titles, s.Title)
	}
	for i, s := range searches {
		k, ok := kinds()[s.View]
		if !ok {
			continue
		}
		inner, cmd := k.build(ctx, p, s)
		out = append(out, &View{View: inner, s: s, name: Name(s.Title), init: cmd, first: i == 0, titles: titles})
	}
	return out
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
}

// Name is the tab's palette name.
func (v *View) Name() route.Route { return v.name }

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
// key, :search) shows the saved search afresh.
func (v *View) Update(msg tea.Msg) tea.Cmd {
	cmd := v.pending
	v.pending = nil
	if o, ok := msg.(ui.Open); ok && o.View == v.name {
		for v.View.Back() {
		}
		return tea.Batch(cmd, ui.SetFilterOf(v.View, v.s.Search), v.View.Update(ui.StoreChanged{}))
	}
	return tea.Batch(cmd, v.View.Update(msg))
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
