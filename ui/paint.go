package ui

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"

	"treasury/kit/keep"
)

// paint is one session's memo of what its chrome (header, tabs, footer)
// drew: the styled texts, by style and text, and the last lines fitted to
// the width. bubbletea asks for the whole frame after every message (a
// store change, the clock's tick) and draws nothing when the frame is the
// text it drew last; with the memo, such a frame costs the shell map
// lookups instead of lipgloss rendering the same texts again. It is kept
// for one colour profile and background: a new theme (the terminal said
// its background) forgets it.
type paint struct {
	colors colorprofile.Profile
	dark   bool
	ok     bool
	styled map[styledKey]string
	helps  map[string]string
	fits   map[fitKey]string
	// tabs is the last tab line, drawn for tabsKey.
	tabs, tabsKey string
	// body is the last view body fitted, and what it was fitted from;
	// bodyLines its lines and fitLines each fitted, for the lines of the
	// next body that are the same.
	body, bodyFit       string
	bodyW, bodyH        int
	bodyLines, fitLines []string
}

type styledKey struct {
	style *lipgloss.Style
	text  string
}

type fitKey struct {
	s    string
	w, h int
}

// paintMemoMax bounds each memo: the texts of a session's chrome are few
// (ages step by ten seconds, the clock by the minute), so reaching it
// means they moved on, and the memo starts again.
const paintMemoMax = 512

// memo is the session's paint for its current theme.
func (a *App) memo() *paint {
	p := &a.paint
	if !p.ok || p.colors != a.ctx.Colors || p.dark != a.ctx.Dark {
		*p = paint{colors: a.ctx.Colors, dark: a.ctx.Dark, ok: true}
	}
	return p
}

// styled is st.Render(text), st a style of the session's theme
// (&a.ctx.Theme.Muted), rendered once per text.
func (a *App) styled(st *lipgloss.Style, text string) string {
	p := a.memo()
	k := styledKey{st, text}
	if s, ok := p.styled[k]; ok {
		return s
	}
	if p.styled == nil || len(p.styled) >= paintMemoMax {
		p.styled = map[styledKey]string{}
	}
	s := st.Render(text)
	p.styled[k] = s
	return s
}

// fitBody is fit of the view's body, remembered for the last body: a
// body drawn again the same (the view's own caches) is not measured
// again, and of a body that changed only the lines that are new are (a
// new quote adds one row to a table, moving the others down, and leaves
// the chart above it).
func (a *App) fitBody(s string, w, h int) string {
	p := a.memo()
	if p.bodyFit != "" && s == p.body && w == p.bodyW && h == p.bodyH {
		return p.bodyFit
	}
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	same := w == p.bodyW
	fitted := make([]string, h)
	var moved map[string]string // the last body's lines by text, once one is not where it was
	for i, l := range lines {
		if same && i < len(p.bodyLines) && l == p.bodyLines[i] {
			fitted[i] = p.fitLines[i]
			continue
		}
		if same && moved == nil {
			moved = make(map[string]string, len(p.bodyLines))
			for j, was := range p.bodyLines {
				moved[was] = p.fitLines[j]
			}
		}
		if f, ok := moved[l]; ok { // a row of a table moved down by a new one
			fitted[i] = f
			continue
		}
		fitted[i] = fitShared(a.ctx.Kept, l, w)
	}
	p.body, p.bodyW, p.bodyH = s, w, h
	p.bodyLines, p.fitLines = lines, fitted
	p.bodyFit = strings.Join(fitted, "\n")
	return p.bodyFit
}

// fitShared is fitLine(l, w), made once for every session of the process
// (the lines of a shared table or chart are the same in each) through
// kept, what the process keeps for display (nil: made here).
func fitShared(kept *keep.Registry, l string, w int) string {
	k := lineFit{l, w}
	if f, ok := keep.Get[lineFit, string](kept, k); ok {
		return f
	}
	f := fitLine(l, w)
	keep.Put(kept, k, f)
	return f
}

// lineFit is a line fitted to a width.
type lineFit struct {
	line string
	w    int
}

// fitMemo is fit, remembered for the last lines fitted (the chrome's).
func (a *App) fitMemo(s string, w, h int) string {
	p := a.memo()
	k := fitKey{s, w, h}
	if f, ok := p.fits[k]; ok {
		return f
	}
	f := fit(s, w, h)
	a.remember(k, f)
	return f
}

// remember keeps what a text of the chrome shows as (fitMemo's memo).
func (a *App) remember(k fitKey, v string) {
	p := a.memo()
	if p.fits == nil || len(p.fits) >= paintMemoMax/8 {
		p.fits = map[fitKey]string{}
	}
	p.fits[k] = v
}

// helpMemo is shortHelp, remembered by what it shows of the bindings.
func (a *App) helpMemo(bs []key.Binding, width int) string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(width))
	for _, k := range bs {
		if !k.Enabled() {
			continue
		}
		h := k.Help()
		b.WriteByte(0)
		b.WriteString(h.Key)
		b.WriteByte(1)
		b.WriteString(h.Desc)
	}
	id := b.String()
	p := a.memo()
	if s, ok := p.helps[id]; ok {
		return s
	}
	if p.helps == nil || len(p.helps) >= paintMemoMax/8 {
		p.helps = map[string]string{}
	}
	s := a.shortHelp(bs, width)
	p.helps[id] = s
	return s
}
