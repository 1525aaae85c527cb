package dashboard

import (
	"slices"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"treasury/config/route"
	"treasury/desk/audit"
	"treasury/ui"
	"treasury/ui/uitest"
)

// probe runs fn on the program's goroutine (the only one that may touch
// the shell and its views).
type probe struct {
	fn   func(*ui.App)
	done chan struct{}
}

// prober is the shell with a door for probes.
type prober struct{ app *ui.App }

func (p prober) Init() tea.Cmd  { return p.app.Init() }
func (p prober) View() tea.View { return p.app.View() }
func (p prober) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if pr, ok := msg.(probe); ok {
		pr.fn(p.app)
		close(pr.done)
		return p, nil
	}
	_, cmd := p.app.Update(msg)
	return p, cmd
}

// keyScreen is what one screen offers: its name and its enabled bindings.
type keyScreen struct {
	name string
	keys []key.Binding
	sel  bool
}

// duplicateKeys names every key that two enabled bindings of a screen
// share.
func duplicateKeys(s keyScreen) []string {
	var out []string
	seen := map[string]key.Binding{}
	for _, b := range s.keys {
		if !b.Enabled() {
			continue
		}
		for _, k := range b.Keys() {
			if o, ok := seen[k]; ok {
				out = append(out, s.name+": key "+k+" is both "+quoteHelp(o)+" and "+quoteHelp(b))
				continue
			}
			seen[k] = b
		}
	}
	return out
}

// bound reports whether an enabled binding of the screen has key k.
func bound(s keyScreen, k string) bool {
	for _, b := range s.keys {
		if b.Enabled() && slices.Contains(b.Keys(), k) {
			return true
		}
	}
	return false
}

func quoteHelp(b key.Binding) string { return "«" + b.Help().Key + " " + b.Help().Desc + "»" }

// TestNoScreenHasTwoBindingsOnOneKey walks every view, as newApp builds
// them over the embedded sandbox, every section a palette command opens
// without an argument, and every page reached from them by enter on the
// first row (up to four pages deep), and fails when the shell's and the
// keyScreen's enabled bindings give one key twice: one of them would never
// run, and help would promise both.
func TestNoScreenHasTwoBindingsOnOneKey(t *testing.T) {
	if testing.Short() {
		t.Skip("walks every view over the embedded sandbox")
	}
	rt := openRead(t)
	r := colorprofile.NoTTY
	app := NewApp(rt, Session{Colors: r, Dark: true, Who: audit.Who{Via: audit.ViaLocal, User: "tester"}, SaveDir: t.TempDir()})
	tm := teatest.NewTestModel(t, prober{app}, teatest.WithInitialTermSize(120, 40))
	on := func(fn func(*ui.App)) {
		t.Helper()
		pr := probe{fn: fn, done: make(chan struct{})}
		tm.Send(pr)
		select {
		case <-pr.done:
		case <-time.After(10 * time.Second):
			t.Fatal("the program did not take a probe")
		}
	}
	look := func() keyScreen {
		var s keyScreen
		on(func(a *ui.App) {
			v := a.Active()
			s.name = strings.Join(append([]string{string(v.Name())}, v.Crumbs()...), " › ")
			s.keys = append(a.Keys().List(), v.Keys()...)
			_, _, s.sel = ui.SelectedOf(v)
		})
		return s
	}
	// until waits for cond on the keyScreen shown, up to d.
	until := func(d time.Duration, cond func(keyScreen) bool) (keyScreen, bool) {
		end := time.Now().Add(d)
		for {
			s := look()
			if cond(s) {
				return s, true
			}
			if time.Now().After(end) {
				return s, false
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	var names []string
	on(func(a *ui.App) {
		for _, v := range a.Views() {
			names = append(names, string(v.Name()))
		}
	})
	checked := map[string]bool{}
	check := func(s keyScreen) {
		if checked[s.name] {
			return
		}
		checked[s.name] = true
		for _, d := range duplicateKeys(s) {
			t.Error(d)
		}
	}
	// walk checks the screen that open leads to in view name, and those
	// reached from it by enter on the first row, three times: four pages
	// deep at most (a wallet transaction is the fourth page of the
	// wallets).
	walk := func(name string, open tea.Msg) {
		tm.Send(open)
		// The data was fetched before the walk: once the shared rows are
		// built, a view with rows selects the first one at once.
		rt.Platform.Store.Sync()
		s, _ := until(2*time.Second, func(s keyScreen) bool { return strings.HasPrefix(s.name, name) && s.sel })
		check(s)
		for range 3 {
			if !s.sel || !strings.HasPrefix(s.name, name) || !bound(s, "enter") {
				break
			}
			from := s.name
			tm.Send(uitest.Key("enter"))
			var moved bool
			s, moved = until(time.Second, func(n keyScreen) bool { return n.name != from })
			if !moved {
				break
			}
			s, _ = until(3*time.Second, func(n keyScreen) bool { return n.sel })
			check(s)
		}
	}
	for _, name := range names {
		walk(name, ui.Open{View: route.Route(name)})
	}
	// Then every palette command that needs no argument (the sections a
	// letter opens: sweeps, webhooks, counterparties, a payments scope…).
	var cmds []ui.Command
	on(func(a *ui.App) {
		for _, v := range a.Views() {
			cmds = append(cmds, ui.CommandsOf(v)...)
		}
	})
	walked, before := 0, len(checked)
	for _, c := range cmds {
		if c.View == "" || c.Run == nil || strings.HasPrefix(c.Args, "<") {
			continue // an action, or a record that needs its id
		}
		cmd := c.Run(nil)
		if cmd == nil {
			continue
		}
		msg := cmd()
		if _, ok := msg.(ui.Open); !ok {
			continue
		}
		walk(string(c.View), msg)
		walked++
	}
	if walked == 0 || len(checked) == before {
		t.Fatalf("%d palette commands walked, %d screens found by them", walked, len(checked)-before)
	}
	tm.Type("q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	if len(checked) < len(names) {
		t.Fatalf("only %d screens checked for %d views", len(checked), len(names))
	}
	t.Logf("%d screens checked", len(checked))
	for n := range checked {
		t.Log(n)
	}
}

// TestDuplicateKeysAreNamed: the check itself finds two bindings on one
// key, and names the keyScreen, the key and both.
func TestDuplicateKeysAreNamed(t *testing.T) {
	s := keyScreen{name: "quotes › BTC/USD", keys: []key.Binding{
		key.NewBinding(key.WithKeys("pgup", "b"), key.WithHelp("pgup/b", "page up")),
		key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "board")),
		key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "off"), key.WithDisabled()),
		key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "on")),
	}}
	got := duplicateKeys(s)
	if len(got) != 1 || got[0] != "quotes › BTC/USD: key b is both «pgup/b page up» and «b board»" {
		t.Fatalf("got %q", got)
	}
}
