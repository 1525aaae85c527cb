package ui

import (
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"treasury/ui/sanitize"
)

// palette is the ':' command line: it jumps to any view or record, with
// completion of command names and of their arguments.
type palette struct {
	app      *App
	keys     PaletteKeys
	input    textinput.Model
	matches  []string
	selected int
	// picked says the selection was moved (↓/↑) since the last key typed:
	// enter runs the completion picked, not the line typed.
	picked bool
}

func newPalette(a *App) *palette {
	in := NewInput(a.ctx.Theme, ":", 200, lipgloss.NewStyle())
	return &palette{app: a, keys: DefaultPaletteKeys(a.ctx.keymap()), input: in}
}

// commands are every view's commands plus one per view name.
func (p *palette) commands() []Command {
	var out []Command
	seen := map[string]bool{}
	for _, v := range p.app.views {
		for _, c := range CommandsOf(v) {
			if c.View == "" && !c.Global {
				c.View = v.Name()
			}
			if !seen[c.Name] {
				seen[c.Name] = true
				out = append(out, c)
			}
		}
		if name := v.Name(); !seen[string(name)] {
			seen[string(name)] = true
			out = append(out, Command{Name: string(name), View: name, Help: "open " + v.Title()})
		}
	}
	out = append(out, Command{Name: "quit", Help: "quit the dashboard", Run: func([]string) tea.Cmd { return tea.Quit }},
		Command{Name: "help", Help: "show every key", Run: func([]string) tea.Cmd {
			return func() tea.Msg { return showHelp{} }
		}},
		Command{Name: "save", Args: "<title>", Help: "save this view (search, columns, sort) as a tab of the profile", Global: true,
			Run: p.app.saveView}, p.app.ctxCommand())
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

type showHelp struct{}

func (p *palette) open() {
	p.input.SetValue("")
	p.input.Focus()
	p.picked = false
	p.refresh()
}

func (p *palette) find(name string) (Command, bool) {
	for _, c := range p.commands() {
		if c.Name == name {
			return c, true
		}
	}
	return Command{}, false
}

// refresh recomputes completions for the current input.
func (p *palette) refresh() {
	text := p.input.Value()
	fields := strings.Fields(text)
	p.matches = p.matches[:0]
	p.selected = 0
	if len(fields) == 0 || (len(fields) == 1 && !strings.HasSuffix(text, " ")) {
		prefix := ""
		if len(fields) == 1 {
			prefix = strings.ToLower(fields[0])
		}
		for _, c := range p.commands() {
			if strings.HasPrefix(c.Name, prefix) {
				p.matches = append(p.matches, c.Name)
			}
		}
		return
	}
	c, ok := p.find(strings.ToLower(fields[0]))
	if !ok || c.Complete == nil {
		return
	}
	// The whole argument is the prefix, spaces included, so names of
	// several words ("Wayne Escrow settlement 1") complete as typed.
	cmdEnd := strings.Index(text, fields[0]) + len(fields[0])
	prefix := strings.TrimLeft(text[cmdEnd:], " ")
	for _, s := range c.Complete(prefix) {
		p.matches = append(p.matches, c.Name+" "+s)
		if len(p.matches) >= 50 {
			break
		}
	}
}

func (p *palette) update(msg tea.KeyPressMsg) tea.Cmd {
	a := p.app
	k := p.keys
	switch {
	case key.Matches(msg, k.Close):
		a.pop()
		p.input.Blur()
		return nil
	case key.Matches(msg, k.Complete):
		if len(p.matches) > 0 {
			p.input.SetValue(p.matches[p.selected] + " ")
			p.input.CursorEnd()
			p.refresh()
		}
		return nil
	case key.Matches(msg, k.Next):
		if len(p.matches) > 0 {
			p.selected, p.picked = (p.selected+1)%len(p.matches), true
		}
		return nil
	case key.Matches(msg, k.Prev):
		if len(p.matches) > 0 {
			p.selected, p.picked = (p.selected+len(p.matches)-1)%len(p.matches), true
		}
		return nil
	case key.Matches(msg, k.Run):
		text := strings.TrimSpace(p.input.Value())
		if (text == "" || p.picked) && len(p.matches) > 0 {
			text = p.matches[p.selected]
		}
		a.pop()
		p.input.Blur()
		return p.run(text)
	}
	var cmd tea.Cmd
	p.input, cmd = p.input.Update(msg)
	p.picked = false
	p.refresh()
	return cmd
}

// run executes a command line such as "payments failed".
func (p *palette) run(text string) tea.Cmd {
	a := p.app
	fields := strings.Fields(text)
	if len(fields) == 0 {
		return nil
	}
	c, ok := p.find(strings.ToLower(fields[0]))
	if !ok {
		// An unambiguous prefix is enough.
		var hits []Command
		for _, x := range p.commands() {
			if strings.HasPrefix(x.Name, strings.ToLower(fields[0])) {
				hits = append(hits, x)
			}
		}
		if len(hits) != 1 {
			a.setFlash(Flash{Text: "unknown command :" + sanitize.Line(fields[0]) + " (tab completes, ? shows keys)"})
			return nil
		}
		c = hits[0]
	}
	args := fields[1:]
	if c.Run != nil {
		if c.View != "" {
			a.open(Open{View: c.View})
			return address(c.View, c.Run(args))
		}
		return c.Run(args)
	}
	return a.open(Open{View: c.View, Args: args})
}

func (p *palette) view(w, h int) string {
	t := p.app.ctx.Theme
	var b strings.Builder
	b.WriteString(p.input.View())
	b.WriteString("\n")
	cmds := map[string]Command{}
	for _, c := range p.commands() {
		cmds[c.Name] = c
	}
	for i, m := range p.matches {
		if i >= h-2 {
			break
		}
		line := "  " + sanitize.Line(m)
		if c, ok := cmds[m]; ok {
			if c.Args != "" {
				line += " " + c.Args
			}
			line += "  " + t.Muted.Render(c.Help)
		}
		if i == p.selected {
			line = t.Selected.Render(line)
		}
		b.WriteString(line + "\n")
	}
	if len(p.matches) == 0 {
		b.WriteString(t.Muted.Render("  no completion; " + p.keys.Run.Help().Key + " runs the line as typed"))
	}
	return b.String()
}

// paste types pasted text into the command line.
func (p *palette) paste(msg tea.PasteMsg) tea.Cmd {
	var cmd tea.Cmd
	p.input, cmd = p.input.Update(msg)
	p.refresh()
	return cmd
}
