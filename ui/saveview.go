package ui

import (
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"treasury/config"
	"treasury/config/route"
)

// based is a view that shows another (a saved search's tab): :save saves
// it as that view's.
type based interface{ Base() route.Route }

// windowed is a view over a window it can say (payments: "7d").
type windowed interface{ WindowShown() string }

// saveView is :save <title>: the view shown, its search, the columns its
// table shows and its sort (and the payments' window), written to the
// profile's file as a saved search (searches:), and its tab added after
// the others. The file is written off the UI goroutine.
func (a *App) saveView(args []string) tea.Cmd {
	title := strings.TrimSpace(strings.Join(args, " "))
	if title == "" {
		return ErrorCmd(errors.New(":save needs a title: :save <title> (it is the tab's label)"))
	}
	if a.ctx.SaveView == nil {
		return ErrorCmd(errors.New(":save: over treasury serve the profile's file is the server's; its saved searches are set there"))
	}
	v := a.Active()
	r := v.Name()
	if b, ok := v.(based); ok {
		r = b.Base()
	}
	l, ok := As[Layouter](v)
	if !ok {
		return ErrorCmd(fmt.Errorf(":save: the %s view shown has no table to save", r))
	}
	s := config.Search{Title: title, View: string(r), Search: FilterOf(v)}
	s.Columns, s.Sort, s.SortDesc = l.Layout()
	if w, ok := As[windowed](v); ok {
		s.Window = w.WindowShown()
	}
	save := a.ctx.SaveView
	return func() tea.Msg {
		where, tab, err := save(s)
		if err != nil {
			return Flash{Err: fmt.Errorf(":save %s: %w", title, err)}
		}
		if tab == nil {
			return Flash{Text: fmt.Sprintf("saved view %q (%s) to %s: its tab opens at the next start", title, describe(s), where)}
		}
		return viewAdded{view: tab, flash: Flash{Text: fmt.Sprintf("saved view %q (%s) to %s: it is the last tab", title, describe(s), where)}}
	}
}

// describe says what a saved view keeps, in a few words.
func describe(s config.Search) string {
	parts := []string{s.View}
	if s.Search != "" {
		parts = append(parts, "search "+s.Search)
	}
	if s.Window != "" {
		parts = append(parts, "window "+s.Window)
	}
	if len(s.Columns) > 0 {
		parts = append(parts, "columns "+strings.Join(s.Columns, ", "))
	}
	if s.Sort != "" {
		d := ""
		if s.SortDesc {
			d = " desc"
		}
		parts = append(parts, "sorted by "+s.Sort+d)
	}
	return strings.Join(parts, "; ")
}
