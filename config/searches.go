package config

import (
	"fmt"
	"strings"
)

// A profile's saved searches, as gh-dash's sections: each is a tab after
// the built-in views showing one view's table with a search applied.
//
//	searches:
//	  - title: Failed EUR
//	    view: payments                     # default payments
//	    search: "state:FAILED currency:EUR"
//	    window: 7d                         # optional
//	    columns: [paymentid, state, sent, beneficiary, error]   # optional
//	    sort: sent desc                    # optional: a column, then asc or desc
//
// This package checks the form (a title, given once; a list of names);
// what only the views know (which views exist, their columns, whether a
// search's expressions compile, which windows they take) is checked by a
// SearchCheck given to Load, and reported the same way: the file, the
// line, the entry's key and what is wrong.

// DefaultSearchView is the view of a saved search that names none.
const DefaultSearchView = "payments"

// Search is one saved search.
type Search struct {
	Title  string
	View   string // the view's palette name: DefaultSearchView when not given
	Search string // in the table's search language (ui/table)
	Window string // as the view's :command takes it ("7d"); "" for the view's default
	// Columns are the columns shown, by the names a search uses
	// ("state", "beneficiary"); none: every column.
	Columns []string
	// Sort is the column sorted by, by its name ("" the view's order),
	// SortDesc descending: sort: "sent desc" in the file.
	Sort     string
	SortDesc bool

	// Key is the entry's key in the file ("profiles.prod.searches[0]")
	// and Lines the line of each of its keys ("" for the entry itself):
	// for messages that say what to fix.
	Key   string
	Lines map[string]int
}

// SearchCheck checks a saved search against the views: field is the key
// of the entry that is wrong ("view", "search", "columns", "window") and
// err what is wrong with it; nil when the search is good.
type SearchCheck func(s Search) (field string, err error)

// searches resolves the profile's saved searches.
func (r *resolver) searches(base string, raw []*rawSearch) []Search {
	var out []Search
	seen := map[string]string{}
	for i, rs := range raw {
		key := fmt.Sprintf("%s[%d]", base, i)
		if rs == nil {
			r.d.at(key, "an empty saved search: give at least its title")
			continue
		}
		s := Search{Title: strings.TrimSpace(rs.Title), View: strings.TrimSpace(rs.View), Search: strings.TrimSpace(rs.Search),
			Window: strings.TrimSpace(rs.Window), Key: key, Lines: map[string]int{"": r.d.lines[key]}}
		for _, f := range []string{"title", "view", "search", "window", "columns", "sort"} {
			if l, ok := r.d.lines[joinKey(key, f)]; ok {
				s.Lines[f] = l
			}
		}
		if s.View == "" {
			s.View = DefaultSearchView
		}
		switch low := strings.ToLower(s.Title); {
		case s.Title == "":
			r.requiredIn(key, "title", "")
			continue
		case len([]rune(s.Title)) > 24:
			r.d.at(joinKey(key, "title"), "is a tab label: at most 24 characters, not %d", len([]rune(s.Title)))
			continue
		case seen[low] != "":
			r.d.at(joinKey(key, "title"), "%q is the title of %s too: each saved search needs its own", s.Title, seen[low])
			continue
		default:
			seen[low] = key
		}
		for j, c := range rs.Columns {
			c = strings.ToLower(strings.TrimSpace(c))
			if c == "" {
				r.d.at(fmt.Sprintf("%s.columns[%d]", key, j), "must not be empty")
				continue
			}
			s.Columns = append(s.Columns, c)
		}
		if sort := strings.Fields(strings.ToLower(rs.Sort)); len(sort) > 0 {
			s.Sort = sort[0]
			switch {
			case len(sort) > 2 || len(sort) == 2 && sort[1] != "asc" && sort[1] != "desc":
				r.d.at(joinKey(key, "sort"), "is a column's name, then asc or desc: not %q", rs.Sort)
				continue
			case len(sort) == 2:
				s.SortDesc = sort[1] == "desc"
			}
		}
		out = append(out, s)
	}
	return out
}

// CheckSearches checks every saved search with check; the problems are
// Errors naming the file, the entry's key (with its title) and line.
func (c *Config) CheckSearches(check SearchCheck) error {
	var errs Errors
	for _, s := range c.Searches {
		field, err := check(s)
		if err == nil {
			continue
		}
		key, line := s.Key, s.Lines[""]
		if field != "" {
			key = joinKey(key, field)
			if l, ok := s.Lines[field]; ok {
				line = l
			}
		}
		errs = append(errs, &Error{File: c.File, Key: key, Line: line,
			Msg: fmt.Sprintf("saved search %q: %v", s.Title, err)})
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}
