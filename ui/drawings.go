package ui

import "treasury/kit/keep"

// MaxKept bounds what the process keeps for display (kit/keep): the
// charts of the views shown (a few kilobytes each), the overview's
// panels, the tables' formatted rows (some 30 shown per table, times the
// layouts and styles of the sessions at once) and the lines fitted to the
// sessions' widths, with room to spare.
const MaxKept = 16384

// NewKept returns the registry of what a process makes for display once
// for every session (Shared.Kept).
func NewKept() *keep.Registry { return keep.New(MaxKept) }

// chartKey is a chart at one size and colour profile: what, a value of
// the caller's own type, says which chart.
type chartKey[K comparable] struct {
	what    K
	w, h    int
	profile string
}

// Chart returns what draw draws (the chart key names, at version, w x h),
// shared with every session of the same colour profile through c.Kept;
// drawn here when the context keeps nothing. The key is a value of a type
// of the caller's own (a struct of what makes the chart distinct: its
// pair and window), never a string built by hand: two views' keys cannot
// collide, and a key the compiler cannot compare does not compile. A
// chart redraw costs milliseconds and megabytes (the line chart), so
// twenty sessions on the quotes view would otherwise draw it twenty times
// per poll.
func Chart[K comparable](c *Context, key K, version uint64, w, h int, draw func() string) string {
	return keep.Make(c.Kept, chartKey[K]{key, w, h, c.StylesName()}, version, draw)
}

// StylesName names the session's styles: sessions of one name draw alike
// (the same colour profile and background).
func (c *Context) StylesName() string {
	profile := "light"
	if c.Dark {
		profile = "dark"
	}
	return profile + string(rune('0'+c.Colors))
}
