package viewkit

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"treasury/desk/live"
	"treasury/ui"
)

// Page is one level of a view's drill-down: a table of records or the
// detail of one. A Stack shows the top page and delegates to it.
type Page interface {
	// Crumb names the page in the breadcrumb trail ("FAILED", "a3f…").
	Crumb() string
	// Topics are the store topics the page reads.
	Topics() []live.Topic
	// Update handles StoreChanged and Fetched (re-read the store), Tick,
	// keys and the Replies of the page's own calls.
	Update(msg tea.Msg) tea.Cmd
	Render(width, height int) string
	Keys() []key.Binding
	// A page may also search, export and select (ui.Filterer,
	// ui.Exporter, ui.Selecter): the shell finds them on the page shown.
}

// Stack is a ui.View made of pages: the root and what was drilled into.
// A view embeds a Stack and adds its name, title, Init and commands.
type Stack struct {
	pages []Page
	// trail is the index of the first page the breadcrumb trail names: 0,
	// or the page Open showed (the pages below it were not the way there).
	trail int
}

// Reset replaces every page with root.
func (s *Stack) Reset(root Page) tea.Cmd {
	s.pages = []Page{root}
	s.trail = 0
	return root.Update(ui.StoreChanged{})
}

// Open shows one record's page reached directly (a palette command, a link
// from another view) rather than drilled into: the pages drilled into
// close, p opens above the root, and the trail names p and what is opened
// above it, not the root's scope or group, which the record was not found
// in (a payment opened by id is not one of the root's FAILED payments).
// Back from p shows the root as it was.
func (s *Stack) Open(p Page) tea.Cmd {
	for s.Back() {
	}
	cmd := s.Push(p)
	s.trail = len(s.pages) - 1
	return cmd
}

// Push opens p above the current page and fills it.
func (s *Stack) Push(p Page) tea.Cmd {
	s.pages = append(s.pages, p)
	return p.Update(ui.StoreChanged{})
}

// Top is the page shown.
func (s *Stack) Top() Page { return s.pages[len(s.pages)-1] }

// Depth is the number of pages.
func (s *Stack) Depth() int { return len(s.pages) }

// Topics of the page shown (ui.View).
func (s *Stack) Topics() []live.Topic { return s.Top().Topics() }

// Update delegates to the page shown; a read's answer (Fetched) and a
// Reply go to every page, so a page below the top still receives what it
// asked for.
func (s *Stack) Update(msg tea.Msg) tea.Cmd {
	_, fetched := msg.(Fetched)
	if _, reply := msg.(Reply); reply || fetched {
		cmds := make([]tea.Cmd, len(s.pages))
		for i, p := range s.pages {
			cmds[i] = p.Update(msg)
		}
		return tea.Batch(cmds...)
	}
	return s.Top().Update(msg)
}

// Render draws the page shown.
func (s *Stack) Render(w, h int) string { return s.Top().Render(w, h) }

// Navigator is a page with navigation keys (moving in a table, scrolling
// a detail) apart from its own: they come last in help and the footer.
type Navigator interface {
	NavKeys() []key.Binding
}

// Keys of the page shown, its navigation last.
func (s *Stack) Keys() []key.Binding { return s.KeysWith() }

// KeysWith are the page's own bindings, then the view's own, then the
// page's navigation: the footer, cut to its width, shows the keys that act
// before those that move.
func (s *Stack) KeysWith(own ...key.Binding) []key.Binding {
	out := append(s.Top().Keys(), own...)
	if n, ok := s.Top().(Navigator); ok {
		out = append(out, n.NavKeys()...)
	}
	return out
}

// Crumbs names the pages on the way to the page shown (ui.View): those
// drilled into from the root, or from the page Open showed.
func (s *Stack) Crumbs() []string {
	out := make([]string, 0, len(s.pages))
	for _, p := range s.pages[s.trail:] {
		if c := p.Crumb(); c != "" {
			out = append(out, c)
		}
	}
	return out
}

// Back pops the page shown unless it is the root.
func (s *Stack) Back() bool {
	if len(s.pages) <= 1 {
		return false
	}
	s.pages = s.pages[:len(s.pages)-1]
	if s.trail >= len(s.pages) {
		s.trail = 0
	}
	s.Top().Update(ui.StoreChanged{})
	return true
}

// Shown is the page shown: the shell finds on it what the view can do
// there (ui.Shower).
func (s *Stack) Shown() any { return s.Top() }
