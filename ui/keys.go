package ui

import "charm.land/bubbles/v2/key"

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
}

// DefaultKeys are the shell's bindings (number keys 1-9 jump to a view).
func DefaultKeys() Keys {
	b := func(desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(keys[0], desc))
	}
	return Keys{
		NextView: b("next view", "tab"),
		PrevView: b("previous view", "shift+tab"),
		Palette:  b("command palette", ":"),
		Filter:   b("filter rows", "/"),
		Back:     b("back", "esc"),
		Raw:      b("raw record (JSON)", "y"),
		Copy:     b("copy id (OSC 52)", "c"),
		ShowID:   b("show id to select by hand", "C"),
		Save:     b("save table as CSV", "ctrl+s"),
		Refresh:  b("refresh now", "r"),
		Pause:    b("pause what is shown / resume", "p"),
		Help:     b("help", "?"),
		Quit:     b("quit", "q", "ctrl+c"),
		Alerts:   b("open alerts", "a"),
		Jump: key.NewBinding(key.WithKeys("1", "2", "3", "4", "5", "6", "7", "8", "9"),
			key.WithHelp("1-9", "jump to view")),
		Close:       b("close", "q"),
		FilterKeep:  b("keep", "enter"),
		FilterClear: b("clear", "esc"),
	}
}

// List returns the bindings in help order.
func (k Keys) List() []key.Binding {
	return []key.Binding{k.NextView, k.PrevView, k.Jump, k.Palette, k.Alerts, k.Filter, k.Back, k.Raw, k.Copy, k.ShowID, k.Save, k.Refresh, k.Pause, k.Help, k.Quit}
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

// DefaultPagerKeys are the pager's bindings.
func DefaultPagerKeys() PagerKeys {
	return PagerKeys{
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup", "b"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", "space"), key.WithHelp("pgdn", "page down")),
	}
}

// PaletteKeys are the command palette's bindings.
type PaletteKeys struct {
	// Close leaves the palette; Complete takes the selected completion;
	// Next and Prev move through the completions; Run runs the line.
	Close, Complete, Next, Prev, Run key.Binding
}

// DefaultPaletteKeys are the palette's bindings.
func DefaultPaletteKeys() PaletteKeys {
	return PaletteKeys{
		Close:    key.NewBinding(key.WithKeys("esc", "ctrl+c"), key.WithHelp("esc", "close")),
		Complete: key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "complete")),
		Next:     key.NewBinding(key.WithKeys("down", "ctrl+n"), key.WithHelp("↓", "next")),
		Prev:     key.NewBinding(key.WithKeys("up", "ctrl+p"), key.WithHelp("↑", "previous")),
		Run:      key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "run")),
	}
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
}

// DefaultDialogKeys are the dialog's bindings.
func DefaultDialogKeys() DialogKeys {
	b := func(desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(keys[0], desc))
	}
	return DialogKeys{
		Next:   b("next field", "tab"),
		Prev:   b("previous field", "shift+tab"),
		Switch: key.NewBinding(key.WithKeys("left", "right"), key.WithHelp("←/→", "other button")),
		Enter:  b("as the dialog says", "enter"),
		Close:  b("cancel", "esc", "ctrl+c"),
	}
}
