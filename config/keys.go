package config

import (
	"slices"
	"sort"
	"strings"
	"treasury/config/route"
	"unicode/utf8"
)

// KeyAction is one action of the dashboard's keymap that a profile may
// rebind (keys:): its name, where its key is read (Places), its keys by
// default, the label help shows for them and what it does.
type KeyAction struct {
	Name string
	// Places are where the key is read (Place). Two actions whose
	// places meet cannot share a key (meets).
	Places []Place
	Keys   []string
	Label  string // the keys as help shows them ("↑/k")
	Help   string
}

// Place is where a key is read: Everywhere (the shell's keys), OnTable
// (every table page), OnDetail (every detail page), a view (On: its every
// page), a view's tables only (TablesOf), or a modal place (InDialog,
// InPalette...) that takes every key while it is open. A view's place is
// made of its route, never written by hand.
type Place string

// The places that are no view's.
const (
	Everywhere Place = "*"
	OnTable    Place = "table"
	OnDetail   Place = "detail"
	InDialog   Place = "dialog"
	InPalette  Place = "palette"
	InFilter   Place = "filter"
	InOverlay  Place = "overlay" // the pager: help, the raw record
	InForm     Place = "form"
	InPicker   Place = "picker"
)

// On is the place of view r: its every page.
func On(r route.Route) Place { return Place(r) }

// TablesOf is the place of view r's table pages only.
func TablesOf(r route.Route) Place { return Place(r) + "/table" }

// Modal places: while one is open it takes every key.
var modalPlaces = []Place{InDialog, InPalette, InFilter, InOverlay, InForm, InPicker}

// KeyActions are the dashboard's rebindable actions with their default
// keys, in help's order. A fresh table each call.
func KeyActions() []KeyAction {
	all, table, detail := []Place{Everywhere}, []Place{OnTable}, []Place{OnDetail}
	a := func(name string, places []Place, label, help string, keys ...string) KeyAction {
		if label == "" {
			label = strings.Join(keys, "/")
		}
		return KeyAction{Name: name, Places: places, Keys: keys, Label: label, Help: help}
	}
	v := func(places ...Place) []Place { return places }
	on := func(views ...route.Route) []Place {
		out := make([]Place, len(views))
		for i, r := range views {
			out[i] = On(r)
		}
		return out
	}
	return []KeyAction{
		// The shell's.
		a("next_view", all, "", "next view", "tab"),
		a("prev_view", all, "", "previous view", "shift+tab"),
		a("palette", all, "", "command palette", ":"),
		a("filter", all, "", "filter rows", "/"),
		a("back", v(Everywhere, InOverlay), "", "back", "esc"),
		a("raw", v(Everywhere, InOverlay), "", "raw record (JSON)", "y"),
		a("copy", all, "", "copy id (OSC 52)", "c"),
		a("show_id", all, "", "show id to select by hand", "C"),
		a("save_csv", all, "", "save table as CSV", "ctrl+s"),
		a("refresh", all, "", "refresh now", "r"),
		a("pause", all, "", "pause what is shown / resume", "p"),
		a("help", v(Everywhere, InOverlay), "", "help", "?"),
		a("quit", all, "q", "quit", "q", "ctrl+c"),
		a("alerts", all, "", "open alerts", "a"),
		// A table's, and a table page's.
		a("up", table, "↑/k", "up", "up", "k"),
		a("down", table, "↓/j", "down", "down", "j"),
		a("page_up", table, "pgup", "page up", "pgup", "ctrl+b"),
		a("page_down", table, "pgdn", "page down", "pgdown", "ctrl+f"),
		a("top", table, "g/home", "first", "home", "g"),
		a("bottom", table, "G/end", "last", "end", "G"),
		a("sort", table, "", "sort by column", "s"),
		a("sort_reverse", table, "", "reverse sort", "S"),
		a("columns_left", table, "←", "columns to the left", "left"),
		a("columns_right", table, "→", "columns to the right", "right"),
		a("mark", table, "", "mark", "space"),
		a("mark_range", table, "ctrl+space", "mark a range", "ctrl+space", "ctrl+@"),
		a("invert_marks", table, "", "invert marks", "*"),
		a("clear_marks", table, "", "clear marks", "u"),
		a("open", table, "", "open", "enter"),
		a("columns", table, "", "columns: hide, show, reorder", "v"),
		// A detail page's.
		a("scroll_up", detail, "↑/k", "scroll up", "up", "k"),
		a("scroll_down", detail, "↓/j", "scroll down", "down", "j"),
		a("scroll_page_up", detail, "pgup/b", "page up", "pgup", "b"),
		a("scroll_page_down", detail, "pgdn/space", "page down", "pgdown", "space"),
		a("half_page_up", detail, "", "half a page up", "ctrl+u"),
		a("half_page_down", detail, "", "half a page down", "ctrl+d"),
		// The views'.
		a("window", on(route.Overview, route.Quotes, route.Balances, route.Payments, route.Ledger), "", "chart window", "w"),
		a("pin_pair", on(route.Quotes), "", "chart: pin/unpin the selected pair", "P"),
		a("board", v(TablesOf(route.Quotes)), "", "board: latest per pair / every quote", "b"),
		a("trades", on(route.Balances), "", "trades / balances", "t"),
		a("funding", on(route.Balances), "", "funding plan / balances", "f"),
		a("plan_longer", on(route.Balances), "", "plan an hour longer", "+"),
		a("plan_shorter", on(route.Balances), "", "plan an hour shorter", "-"),
		a("next_scope", on(route.Payments), "", "next state scope", "]"),
		a("prev_scope", on(route.Payments), "", "previous state scope", "["),
		a("ticket", on(route.Payments), "", "copy a ticket summary", "Y"),
		a("platform_payments", on(route.Payments), "", "the platform's payments beyond the window", "o"),
		a("vaults", on(route.Wallets), "", "section: vaults and wallets", "V"),
		a("transactions", on(route.Wallets), "", "section: all transactions", "T"),
		a("sweeps", on(route.Wallets), "", "section: sweep configurations", "E"),
		a("webhooks", on(route.Wallets), "", "section: webhooks and subscriptions", "W"),
		a("freeze", on(route.Wallets), "", "freeze the transaction", "f"),
		a("unfreeze", on(route.Wallets), "", "unfreeze the transaction", "U"),
		a("trigger", on(route.Wallets), "", "trigger the sweep", "t"),
		a("counterparties", on(route.AddressBook), "", "wallet counterparties", "w"),
		a("lock", on(route.AddressBook), "", "lock endpoint", "l"),
		a("unlock", on(route.AddressBook), "", "unlock endpoint", "U"),
		a("thresholds", on(route.Alerts), "", "thresholds", "e"),
		a("save_report", on(route.Reports), "", "save report file as downloaded", "w"),
		a("skipped_rows", on(route.Reports), "", "list the rows skipped", "!"),
		// Modal: a confirmation, the palette, a pager, the filter, the
		// help and raw overlays, the thresholds form, the column picker.
		a("dialog_next", v(InDialog), "", "next field", "tab"),
		a("dialog_prev", v(InDialog), "", "previous field", "shift+tab"),
		a("dialog_switch", v(InDialog), "←/→", "other button", "left", "right"),
		a("dialog_enter", v(InDialog), "", "as the dialog says", "enter"),
		a("dialog_close", v(InDialog), "esc", "cancel", "esc", "ctrl+c"),
		a("dialog_scroll_up", v(InDialog), "pgup", "the record's lines up", "pgup"),
		a("dialog_scroll_down", v(InDialog), "pgdn", "the record's lines down", "pgdown"),
		a("palette_close", v(InPalette), "esc", "close", "esc", "ctrl+c"),
		a("palette_complete", v(InPalette), "", "complete", "tab"),
		a("palette_next", v(InPalette), "↓", "next", "down", "ctrl+n"),
		a("palette_prev", v(InPalette), "↑", "previous", "up", "ctrl+p"),
		a("palette_run", v(InPalette), "", "run", "enter"),
		a("pager_up", v(InOverlay), "↑/k", "up", "up", "k"),
		a("pager_down", v(InOverlay), "↓/j", "down", "down", "j"),
		a("pager_page_up", v(InOverlay), "pgup", "page up", "pgup", "b"),
		a("pager_page_down", v(InOverlay), "pgdn", "page down", "pgdown", "space"),
		a("filter_keep", v(InFilter), "", "keep", "enter"),
		a("filter_clear", v(InFilter), "", "clear", "esc"),
		a("close", v(InOverlay), "", "close", "q"),
		a("form_next", v(InForm), "tab/↓", "next field", "tab", "down"),
		a("form_prev", v(InForm), "shift+tab/↑", "previous field", "shift+tab", "up"),
		a("form_save", v(InForm), "", "save to the file and apply", "enter"),
		a("form_cancel", v(InForm), "", "cancel", "esc"),
		a("picker_up", v(InPicker), "↑/k", "up", "up", "k"),
		a("picker_down", v(InPicker), "↓/j", "down", "down", "j"),
		a("picker_toggle", v(InPicker), "space/x", "show / hide", "space", "x"),
		a("picker_move_up", v(InPicker), "K/shift+↑", "move up (left)", "K", "shift+up"),
		a("picker_move_down", v(InPicker), "J/shift+↓", "move down (right)", "J", "shift+down"),
		a("picker_all", v(InPicker), "", "every column", "a"),
		a("picker_done", v(InPicker), "", "done", "enter"),
		a("picker_cancel", v(InPicker), "", "cancel", "esc"),
	}
}

// jumpKeys go to view 1-9: no action may take them.
var jumpKeys = []string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}

// Keymap is the keys in force of every action (KeyActions), by name:
// the defaults, with what the profile's keys: rebinds.
type Keymap struct {
	keys   map[string][]string
	labels map[string]string
	helps  map[string]string
}

// defaults is every action on its default keys, built once and never
// changed: what a zero Keymap (no profile's keys:) reads.
var defaults = DefaultKeymap()

// DefaultKeymap is every action on its default keys, in maps of its own.
func DefaultKeymap() Keymap {
	m := Keymap{keys: map[string][]string{}, labels: map[string]string{}, helps: map[string]string{}}
	for _, a := range KeyActions() {
		m.keys[a.Name], m.labels[a.Name], m.helps[a.Name] = a.Keys, a.Label, a.Help
	}
	return m
}

// Help says what action name does.
func (m Keymap) Help(name string) string {
	if m.helps == nil {
		m = defaults
	}
	return m.helps[name]
}

// Keys are the keys of action name in force.
func (m Keymap) Keys(name string) []string {
	if m.keys == nil {
		m = defaults
	}
	k, ok := m.keys[name]
	if !ok {
		panic("config: no key action " + name) // a name in the code that is not in KeyActions
	}
	return slices.Clone(k)
}

// Label is how help shows the keys of action name.
func (m Keymap) Label(name string) string {
	if m.labels == nil {
		m = defaults
	}
	return m.labels[name]
}

// Taken are the keys in force that are read on view (its name): what a
// custom command on that view may not take.
func (m Keymap) Taken(view route.Route) []string {
	out := slices.Clone(jumpKeys)
	for _, a := range KeyActions() {
		if _, ok := meets(a.Places, []Place{On(view)}); ok {
			out = append(out, m.Keys(a.Name)...)
		}
	}
	return out
}

// keyList is one key or a list of keys in the file.
type keyList []string

// keymap resolves the profile's keys: each names an action of
// KeyActions and gives its keys, which replace its defaults. An unknown
// action, a key that is no key, or two actions read in one place on one
// key stop the start with the line.
func (r *resolver) keymap(base string, raw map[string]keyList) Keymap {
	m := DefaultKeymap()
	names := make([]string, 0, len(raw))
	for name := range raw {
		names = append(names, name)
	}
	sort.Strings(names)
	known := map[string]KeyAction{}
	for _, a := range KeyActions() {
		known[a.Name] = a
	}
	for _, name := range names {
		key := joinKey(base, name)
		if _, ok := known[name]; !ok {
			r.d.at(key, "no action %q: one of %s", name, strings.Join(sortedKeys(known), ", "))
			continue
		}
		ks := make([]string, 0, len(raw[name]))
		ok := true
		for _, k := range raw[name] {
			k = strings.TrimSpace(k)
			if why := badKey(k); why != "" {
				r.d.at(key, "%q %s", k, why)
				ok = false
			}
			ks = append(ks, k)
		}
		if len(ks) == 0 {
			r.d.at(key, "give at least one key")
			ok = false
		}
		if ok {
			m.keys[name], m.labels[name] = ks, strings.Join(ks, "/")
		}
	}
	for _, c := range m.Collisions() {
		at := base
		for _, n := range []string{c.A, c.B} {
			if _, rebound := raw[n]; rebound {
				at = joinKey(base, n)
				break
			}
		}
		r.d.at(at, "%q is the key of %s and of %s, both read on %s: give one another key", c.Key, c.A, c.B, c.Where)
	}
	return m
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Collision is a key of two actions read in one place.
type Collision struct {
	Key, A, B, Where string
}

// Collisions are the keys in force that two actions read in one place
// share (or one takes from the view numbers).
func (m Keymap) Collisions() []Collision {
	acts := KeyActions()
	var out []Collision
	for i, a := range acts {
		for _, k := range m.Keys(a.Name) {
			if slices.Contains(jumpKeys, k) && !modal(a.Places) {
				out = append(out, Collision{Key: k, A: a.Name, B: "the view numbers", Where: "every view"})
			}
		}
		for _, b := range acts[i+1:] {
			where, meet := meets(a.Places, b.Places)
			if !meet {
				continue
			}
			for _, k := range m.Keys(a.Name) {
				if slices.Contains(m.Keys(b.Name), k) {
					out = append(out, Collision{Key: k, A: a.Name, B: b.Name, Where: where})
				}
			}
		}
	}
	return out
}

// meets says whether two actions' places meet, and where. A modal place
// meets itself only; "*" meets every other place; a table page and a
// detail page are never both shown; a view's name meets either kind of
// page and itself, its tables ("quotes/table") a table page only.
func meets(a, b []Place) (string, bool) {
	for _, p := range a {
		for _, q := range b {
			if w, ok := meet(p, q); ok {
				return w, true
			}
		}
	}
	return "", false
}

func meet(p, q Place) (string, bool) {
	page := func(x Place) bool { return x == OnTable || x == OnDetail }
	pv, pt, _ := strings.Cut(string(p), "/")
	qv, qt, _ := strings.Cut(string(q), "/")
	switch {
	case slices.Contains(modalPlaces, p) || slices.Contains(modalPlaces, q):
		return "the " + string(p), p == q
	case p == Everywhere && q == Everywhere:
		return "every view", true
	case p == Everywhere || q == Everywhere:
		other := p
		if p == Everywhere {
			other = q
		}
		if page(other) {
			return "every " + string(other) + " page", true
		}
		v, _, _ := strings.Cut(string(other), "/")
		return "the " + v + " view", true
	case page(p) && page(q):
		return "every " + string(p) + " page", p == q
	case page(p):
		return "the " + qv + " view", p == OnTable || qt == ""
	case page(q):
		return "the " + pv + " view", q == OnTable || pt == ""
	}
	return "the " + pv + " view", pv == qv
}

func modal(places []Place) bool {
	return slices.ContainsFunc(places, func(p Place) bool { return slices.Contains(modalPlaces, p) })
}

// namedKeys are the keys with names (besides a single character).
var namedKeys = []string{"enter", "esc", "tab", "space", "backspace", "delete", "insert", "up", "down", "left", "right",
	"home", "end", "pgup", "pgdown", "f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "f9", "f10", "f11", "f12", "@"}

// badKey says why k is not a key a terminal sends ("" when it is): one
// character, or a named key, after any of ctrl+, alt+ and shift+.
func badKey(k string) string {
	if k == "" {
		return "is empty"
	}
	rest := k
	for _, mod := range []string{"ctrl+", "alt+", "shift+"} {
		rest = strings.TrimPrefix(rest, mod)
	}
	for _, mod := range []string{"ctrl+", "alt+", "shift+"} {
		rest = strings.TrimPrefix(rest, mod)
	}
	switch {
	case utf8.RuneCountInString(rest) == 1 && rest != " ":
		return ""
	case slices.Contains(namedKeys, rest):
		return ""
	}
	return "is not a key: one character, or " + strings.Join(namedKeys[:len(namedKeys)-1], ", ") + ", after any of ctrl+, alt+, shift+"
}
