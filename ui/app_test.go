package ui

import (
	"image/color"
	"io"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"treasury/config/route"
	"treasury/desk/live"
	"treasury/ui/uitest"
)

// listView is a minimal view for shell tests.
type listView struct {
	name   string
	rows   []string
	cursor int
	filter string
	crumbs []string
	opened []string
	acted  *int
	// link is the view "o" opens with the row under the cursor (a
	// ledger row's payment).
	link string
}

func (v *listView) Name() route.Route    { return route.Route(v.name) }
func (v *listView) Title() string        { return strings.ToUpper(v.name[:1]) + v.name[1:] }
func (v *listView) Topics() []live.Topic { return nil }
func (v *listView) Init() tea.Cmd        { return nil }
func (v *listView) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case Open:
		v.opened = msg.Args
		if len(msg.Args) > 0 {
			v.crumbs = append(v.crumbs, msg.Args...)
		}
	case tea.KeyPressMsg:
		switch msg.String() {
		case "j", "down":
			v.cursor = min(v.cursor+1, len(v.rows)-1)
		case "enter":
			v.crumbs = append(v.crumbs, v.rows[v.cursor])
		case "o":
			return OpenCmd(route.Route(v.link), v.rows[v.cursor])
		case "f":
			return func() tea.Msg {
				return Confirm{Title: "Freeze " + v.rows[v.cursor], Lines: []string{"record " + v.rows[v.cursor]}, Action: "Freeze",
					TypeToConfirm: "", Run: func() tea.Msg { *v.acted++; return Flash{Text: "frozen"} }}
			}
		}
	}
	return nil
}
func (v *listView) Render(w, h int) string {
	var b strings.Builder
	for i, r := range v.rows {
		if v.filter != "" && !strings.Contains(r, v.filter) {
			continue
		}
		mark := "  "
		if i == v.cursor {
			mark = "> "
		}
		b.WriteString(mark + r + "\n")
	}
	return b.String()
}
func (v *listView) Keys() []key.Binding {
	return []key.Binding{key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "freeze"))}
}
func (v *listView) Crumbs() []string { return v.crumbs }
func (v *listView) Back() bool {
	if len(v.crumbs) == 0 {
		return false
	}
	v.crumbs = v.crumbs[:len(v.crumbs)-1]
	return true
}
func (v *listView) Selected() (string, any, bool) {
	return v.rows[v.cursor], map[string]string{"id": v.rows[v.cursor], "note": "evil\x1b[2Jtext"}, true
}
func (v *listView) SetFilter(s string) tea.Cmd { v.filter = s; return nil }
func (v *listView) Filter() string             { return v.filter }
func (v *listView) CSV() func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, "id\n"); return err }
}
func (v *listView) Commands() []Command {
	return []Command{{Name: "row", Args: "<id>", Help: "open a row", Complete: func(p string) []string {
		var out []string
		for _, r := range v.rows {
			if strings.HasPrefix(r, p) {
				out = append(out, r)
			}
		}
		return out
	}}}
}

func testContext(env string, readOnly bool) *Context {
	r := colorprofile.NoTTY
	at := time.Date(2026, 11, 16, 9, 30, 0, 0, time.UTC)
	return &Context{Shared: &Shared{Profile: "sandbox", Environment: env, Now: func() time.Time { return at }, Store: live.New(live.Options{Now: func() time.Time { return at }})}, Session: Session{Colors: r, Dark: true, Theme: NewTheme(r, true, nil), ReadOnly: readOnly}}
}

func newTestApp(t *testing.T, ctx *Context, acted *int) (*teatest.TestModel, *listView, *listView) {
	a := &listView{name: "alpha", rows: []string{"a-1", "a-2", "a-3"}, acted: acted}
	b := &listView{name: "bravo", rows: []string{"b-1", "b-2"}, acted: acted}
	app := NewApp(ctx, a, b)
	tm := teatest.NewTestModel(t, app, teatest.WithInitialTermSize(80, 24))
	return tm, a, b
}

// waitFor waits until the 80x24 screen of tm shows want.
func waitFor(t *testing.T, tm *teatest.TestModel, want string) {
	t.Helper()
	uitest.WaitFor(t, tm, 80, 24, 5*time.Second, want)
}

func TestShellNavigationPaletteHelpAndBack(t *testing.T) {
	acted := 0
	tm, a, b := newTestApp(t, testContext("test", false), &acted)
	waitFor(t, tm, "[TEST]")
	tm.Send(uitest.Key("2"))
	waitFor(t, tm, "b-2")
	// Palette with completion: ":ro" + tab completes "row", then an argument.
	tm.Type(":ro")
	tm.Send(uitest.Key("tab"))
	tm.Type("a-")
	waitFor(t, tm, "row a-3")
	tm.Send(uitest.Key("down"))
	tm.Send(uitest.Key("down"))
	tm.Type("3")
	tm.Send(uitest.Key("enter"))
	waitFor(t, tm, "alpha › a-3")
	tm.Send(uitest.Key("esc"))
	tm.Type("?")
	waitFor(t, tm, "Everywhere")
	tm.Send(uitest.Key("esc"))
	tm.Type("/a-2")
	tm.Send(uitest.Key("enter"))
	tm.Type("q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	if len(a.opened) != 1 || a.opened[0] != "a-3" {
		t.Fatalf("palette opened %v", a.opened)
	}
	if len(a.crumbs) != 0 {
		t.Fatalf("esc did not go back: %v", a.crumbs)
	}
	if a.filter != "a-2" {
		t.Fatalf("filter %q", a.filter)
	}
	_ = b
}

func TestConfirmDefaultsToCancel(t *testing.T) {
	acted := 0
	tm, _, _ := newTestApp(t, testContext("test", false), &acted)
	waitFor(t, tm, "a-1")
	tm.Type("f")
	waitFor(t, tm, "Freeze a-1")
	tm.Send(uitest.Key("enter")) // Cancel has the focus
	waitFor(t, tm, "cancelled")
	tm.Type("f")
	waitFor(t, tm, "Environment: TEST")
	tm.Send(uitest.Key("tab"))
	tm.Send(uitest.Key("enter"))
	waitFor(t, tm, "frozen")
	tm.Send(uitest.Key("esc")) // the result, read
	tm.Type("q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	if acted != 1 {
		t.Fatalf("action ran %d times, want 1", acted)
	}
}

func TestReadOnlyRefusesActions(t *testing.T) {
	acted := 0
	tm, _, _ := newTestApp(t, testContext("prod", true), &acted)
	waitFor(t, tm, "READ-ONLY")
	tm.Type("f")
	waitFor(t, tm, "read-only session")
	tm.Type("q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	if acted != 0 {
		t.Fatal("read-only session acted")
	}
}

func TestRawPagerSanitizes(t *testing.T) {
	ctx := testContext("test", false)
	p := newRawPager(ctx, map[string]string{"note": "a\u202eb\x1b]52;c;x\x07"}, 80, 20)
	out := p.view()
	if strings.ContainsAny(out, "\x1b\u202e\x07") {
		t.Fatalf("raw pager leaked control characters: %q", out)
	}
}

// TestPaletteCompletesNamesOfSeveralWords: the whole argument typed so far,
// spaces included, is what completion matches.
func TestPaletteCompletesNamesOfSeveralWords(t *testing.T) {
	acted := 0
	a := &listView{name: "alpha", rows: []string{"Wayne Escrow 1", "Wayne Escrow 2", "Wayne Payroll"}, acted: &acted}
	app := NewApp(testContext("test", false), a)
	p := app.palette
	p.open()
	p.input.SetValue("row Wayne Es")
	p.refresh()
	if len(p.matches) != 2 || p.matches[0] != "row Wayne Escrow 1" {
		t.Fatalf("matches %q", p.matches)
	}
	p.input.SetValue("row Wayne ")
	p.refresh()
	if len(p.matches) != 3 {
		t.Fatalf("matches after a space %q", p.matches)
	}
}

// TestKeysTypedAheadAreEachHandled: keys that arrive in one read (typed
// ahead over a slow SSH link, or before the first frame) are each the key
// they are: ":" still opens the palette and what follows is typed into it.
// The bytes go through the program's own input decoder, as a terminal's.
func TestKeysTypedAheadAreEachHandled(t *testing.T) {
	acted := 0
	a := &listView{name: "alpha", rows: []string{"a-1", "a-2", "a-3"}, acted: &acted}
	app := NewApp(testContext("test", false), a)
	in, typed := io.Pipe()
	p := tea.NewProgram(app, tea.WithInput(in), tea.WithOutput(io.Discard), tea.WithWindowSize(80, 24),
		tea.WithoutSignals())
	done := make(chan error, 1)
	go func() { _, err := p.Run(); done <- err }()
	if _, err := typed.Write([]byte(":row a-3\rq")); err != nil { // one read: the palette, its line, enter, quit
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if len(a.opened) != 1 || a.opened[0] != "a-3" {
		t.Fatalf("typed ahead, the palette opened %v", a.opened)
	}
}

// presser sizes app to 80x24 and returns what presses keys on it, one
// message each ("enter", "esc", "backspace", or the runes typed),
// delivering the Open a key's command asks for (a link, a command), as
// the program would.
func presser(app *App) func(keys ...string) {
	app.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	return func(keys ...string) {
		for _, k := range keys {
			msg := uitest.Key(k)
			switch k {
			case "enter":
				msg = uitest.Key("enter")
			case "esc":
				msg = uitest.Key("esc")
			case "backspace":
				msg = uitest.Key("backspace")
			}
			_, cmd := app.Update(msg)
			if cmd == nil {
				continue
			}
			if o, ok := cmd().(Open); ok {
				app.Update(o)
			}
		}
	}
}

// TestEscReturnsThroughALink: a view's link to another view (a ledger
// row's payment, an alert's record, a failed page's errors) opens the
// record there, and esc on that page comes back to the view the link was
// followed from: it went to the payments' root, a page the operator never
// opened. Deeper pages go back as before; a jump (a number, a tab, the
// palette) forgets the way back; `a` (the alerts) comes back too.
func TestEscReturnsThroughALink(t *testing.T) {
	acted := 0
	a := &listView{name: "alpha", rows: []string{"a-1", "a-2"}, acted: &acted, link: "bravo"}
	b := &listView{name: "bravo", rows: []string{"b-1", "b-2"}, acted: &acted}
	al := &listView{name: "alerts", rows: []string{"x-1"}, acted: &acted}
	app := NewApp(testContext("test", false), a, b, al)
	press := presser(app)
	at := func(step string, view string, crumbs ...string) {
		t.Helper()
		if string(app.Active().Name()) != view || !slices.Equal(app.Active().Crumbs(), crumbs) {
			t.Fatalf("%s: at %s %q, want %s %q", step, app.Active().Name(), app.Active().Crumbs(), view, crumbs)
		}
	}

	press("j", "o")
	at("the link", "bravo", "a-2")
	press("enter")
	at("drilled into from the record", "bravo", "a-2", "b-1")
	press("esc")
	at("back from the page drilled into", "bravo", "a-2")
	press("esc")
	at("back from the record the link opened", "alpha")
	if len(b.crumbs) != 0 {
		t.Fatalf("the record the link opened stays open in bravo: %q", b.crumbs)
	}
	press("esc")
	at("esc where the link was followed", "alpha")

	press("o", "1", "2", "esc")
	at("back after a jump", "bravo")

	press("a")
	at("the alerts", "alerts")
	press("esc")
	at("back from the alerts", "bravo")
}

// TestFilterIsShownToReplaceOrEdit: a filter typed on ":payments all 30d"
// stayed on ":payments inflight 30d", and "/QUOTED" then made
// "QUOTEDQUOTED": the filter set is shown when / opens the input, what is
// typed first replaces it, an editing key edits it; a palette command
// shows its listing afresh, without the filter typed before.
func TestFilterIsShownToReplaceOrEdit(t *testing.T) {
	acted := 0
	a := &listView{name: "alpha", rows: []string{"a-1", "a-2", "a-3"}, acted: &acted}
	app := NewApp(testContext("test", false), a)
	press := presser(app)
	press("/", "a-2", "enter")
	if a.filter != "a-2" {
		t.Fatalf("filter %q, want a-2", a.filter)
	}
	press("/")
	if foot := app.footer(); !strings.Contains(foot, "/a-2") || !strings.Contains(foot, "typing replaces it") {
		t.Errorf("the input does not show the filter set, and what typing does: %q", foot)
	}
	press("a-3", "enter")
	if a.filter != "a-3" {
		t.Errorf("typed over a-2: filter %q, want a-3", a.filter)
	}
	press("/", "backspace", "1", "enter")
	if a.filter != "a-1" {
		t.Errorf("edited a-3 with ⌫ and 1: filter %q, want a-1", a.filter)
	}
	press(":", "row a-2", "enter")
	if a.filter != "" || len(a.opened) != 1 || a.opened[0] != "a-2" {
		t.Errorf("after :row a-2 the filter is %q (opened %q): a command shows its listing afresh", a.filter, a.opened)
	}
}

// TestBackgroundAnswerRethemes: the terminal's answer to the background
// question (a light one, against the dark guess) rebuilds the session's
// theme for it; the same answer again changes nothing.
func TestBackgroundAnswerRethemes(t *testing.T) {
	ctx := testContext("test", false)
	ctx.Colors, ctx.Dark = colorprofile.ANSI256, true
	ctx.Theme = NewTheme(ctx.Colors, true, nil)
	app := NewApp(ctx, &listView{name: "alpha", rows: []string{"a-1"}})
	app.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	dark := app.Frame()
	app.Update(tea.BackgroundColorMsg{Color: color.White})
	if ctx.Dark || ctx.Theme.Dark {
		t.Fatal("a white background kept the dark theme")
	}
	light := app.Frame()
	if light == dark {
		t.Fatal("the frame did not change for a light background")
	}
	app.Update(tea.BackgroundColorMsg{Color: color.White})
	if app.Frame() != light {
		t.Fatal("the same answer changed the frame")
	}
}

// TestViewNumberGoesBackToItsList: the number of the view shown walks it
// back from any drill-down to its list; esc walks back one level.
func TestViewNumberGoesBackToItsList(t *testing.T) {
	acted := 0
	a := &listView{name: "alpha", rows: []string{"x"}, crumbs: []string{"alpha", "x", "detail"}, acted: &acted}
	b := &listView{name: "beta", rows: []string{"y"}, acted: &acted}
	app := NewApp(testContext("test", false), a, b)
	app.Update(tea.WindowSizeMsg{Width: 80, Height: 20})
	app.Update(uitest.Key("esc"))
	if len(a.crumbs) != 2 {
		t.Fatalf("esc: crumbs %v, want one level back", a.crumbs)
	}
	app.Update(uitest.Key("1"))
	if len(a.crumbs) != 0 || app.active != 0 {
		t.Fatalf("1 on view 1: crumbs %v, active %d; want its list", a.crumbs, app.active)
	}
	app.Update(uitest.Key("2"))
	if app.active != 1 {
		t.Fatalf("2: active %d", app.active)
	}
}

// A view added as the last tab (one saved with :save) gets a free letter
// and the tabs before it keep theirs.
func TestAddedViewKeepsTheLettersBefore(t *testing.T) {
	var views []View
	for _, n := range []string{"a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8", "i9", "ledger", "audit"} {
		views = append(views, &listView{name: n, rows: []string{"x"}})
	}
	a := NewApp(testContext("test", false), views...)
	before := maps.Clone(a.letters)
	a.Update(viewAdded{view: &listView{name: "lost", rows: []string{"y"}}})
	for l, i := range before {
		if a.letters[l] != i {
			t.Errorf("letter %s went from view %d to %d", l, i, a.letters[l])
		}
	}
	if len(a.letters) != len(before)+1 || a.letters["O"] != 11 {
		t.Errorf("letters %v: the new tab's is its first free letter (L is the ledger's: O)", a.letters)
	}
	if !slices.Contains(a.keys.Jump.Keys(), "O") {
		t.Errorf("jump keys %v", a.keys.Jump.Keys())
	}
}
