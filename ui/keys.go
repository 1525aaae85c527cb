package ui

import (
	"charm.land/bubbles/v2/key"

	"treasury/config"
)

// Keys are the shell's key bindings, declared once; help is generated from
// them and from each view's own bindings.
type Keys struct {
	NextView, PrevView, Palette, Filter, Back, Raw, Copy, ShowID, Save, Refresh, Pause, Help, Quit, Alerts key.Binding
	// Jump goes to view 1-9 by its number.
	Jump key.Binding
	// Close closes the help and the raw pager (with Back, and the key
	// that opened them).
	Close key.Binding
	// FilterKeep and FilterClear end the filter input: keep the text, or
	// clear it.
	FilterKeep, FilterClear key.Binding
	// Columns opens the column picker of the table shown (columns.go).
	Columns key.Binding
}

// DefaultKeys are the shell's bindings in force (km: the profile's keys:;
// number keys 1-9 jump to a view).
func DefaultKeys(km config.Keymap) Keys {
	b := func(name string) key.Binding { return Bind(km, name) }
	return Keys{
		NextView: b("next_view"),
		PrevView: b("prev_view"),
		Palette:  b("palette"),
		Filter:   b("filter"),
		Back:     b("back"),
		Raw:      b("raw"),
		Copy:     b("copy"),
		ShowID:   b("show_id"),
		Save:     b("save_csv"),
		Refresh:  b("refresh"),
		Pause:    b("pause"),
		Help:     b("help"),
		Quit:     b("quit"),
		Alerts:   b("alerts"),
		Jump: key.NewBinding(key.WithKeys("1", "2", "3", "4", "5", "6", "7", "8", "9"),
			key.WithHelp("1-9", "jump to view")),
		Close:       b("close"),
		FilterKeep:  b("filter_keep"),
		FilterClear: b("filter_clear"),
		Columns:     b("columns"),
	}
}

// Bind is action name's binding in km (config.KeyActions names every
// action): its keys in force, help's label for them and what it does.
func Bind(km config.Keymap, name string) key.Binding {
	return key.NewBinding(key.WithKeys(km.Keys(name)...), key.WithHelp(km.Label(name), km.Help(name)))
}

// BindAs is Bind with what the action does said as desc (a view's own
// words: "window 24h·7d·30d").
func BindAs(km config.Keymap, name, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(km.Keys(name)...), key.WithHelp(km.Label(name), desc))
}

// Key is action name's binding in force in this session's profile.
func (c *Context) Key(name string) key.Binding { return Bind(c.keymap(), name) }

// KeyAs is Key with the view's own words for what it does.
func (c *Context) KeyAs(name, desc string) key.Binding { return BindAs(c.keymap(), name, desc) }

// keymap is the profile's keys in force (the defaults without one).
func (c *Context) keymap() config.Keymap {
	if c == nil || c.Shared == nil {
		return config.Keymap{}
	}
	return c.Keys
}

// List returns the bindings in help order.
func (k Keys) List() []key.Binding {
	return []key.Binding{k.NextView, k.PrevView, k.Jump, k.Palette, k.Alerts, k.Filter, k.Columns, k.Back, k.Raw, k.Copy, k.ShowID, k.Save, k.Refresh, k.Pause, k.Help, k.Quit}
}

// ShortHelp are the shell's bindings the footer always shows.
func (k Keys) ShortHelp() []key.Binding {
	return []key.Binding{
		key.NewBinding(key.WithKeys(k.Palette.Keys()...), key.WithHelp(k.Palette.Help().Key, "palette")),
		k.Help,
		key.NewBinding(key.WithKeys(k.Quit.Keys()...), key.WithHelp(k.Quit.Help().Key, "quit")),
	}
}

// PagerKeys scroll the raw record and the id pager.
type PagerKeys struct {
	Up, Down, PageUp, PageDown key.Binding
}

// DefaultPagerKeys are the pager's bindings in force.
func DefaultPagerKeys(km config.Keymap) PagerKeys {
	return PagerKeys{Up: Bind(km, "pager_up"), Down: Bind(km, "pager_down"),
		PageUp: Bind(km, "pager_page_up"), PageDown: Bind(km, "pager_page_down")}
}

// PaletteKeys are the command palette's bindings.
type PaletteKeys struct {
	// Close leaves the palette; Complete takes the selected completion;
	// Next and Prev move through the completions; Run runs the line.
	Close, Complete, Next, Prev, Run key.Binding
}

// DefaultPaletteKeys are the palette's bindings in force.
func DefaultPaletteKeys(km config.Keymap) PaletteKeys {
	return PaletteKeys{Close: Bind(km, "palette_close"), Complete: Bind(km, "palette_complete"),
		Next: Bind(km, "palette_next"), Prev: Bind(km, "palette_prev"), Run: Bind(km, "palette_run")}
}

// DialogKeys are the confirmation dialog's bindings: its hint line is
// generated from them.
type DialogKeys struct {
	// Next and Prev move the focus through every field in turn: the
	// reason, the typed code (prod), Cancel and the action's button.
	Next, Prev key.Binding
	// Switch moves between the two buttons.
	Switch key.Binding
	// Enter moves on from a valid text field (to the next field needed,
	// else the action's button), cancels on Cancel, and runs the action
	// only on its focused button.
	Enter key.Binding
	// Close cancels the dialog; while the action runs it hides the
	// dialog, and the call goes on.
	Close key.Binding
	// ScrollUp and ScrollDown move through the record's lines when the
	// terminal is too short for them all (the records of a batch).
	ScrollUp, ScrollDown key.Binding
}

// DefaultDialogKeys are the dialog's bindings in force.
func DefaultDialogKeys(km config.Keymap) DialogKeys {
	return DialogKeys{Next: Bind(km, "dialog_next"), Prev: Bind(km, "dialog_prev"), Switch: Bind(km, "dialog_switch"),
		Enter: Bind(km, "dialog_enter"), Close: Bind(km, "dialog_close"),
		ScrollUp: Bind(km, "dialog_scroll_up"), ScrollDown: Bind(km, "dialog_scroll_down")}
}
