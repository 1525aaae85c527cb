package ui

import (
	"strings"
	"sync/atomic"
	"time"
	"unicode"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"treasury/config"
	"treasury/config/route"
	"treasury/desk/live"
)

// App is the shell: one per session (local terminal or SSH client).
type App struct {
	ctx    *Context
	keys   Keys
	views  []View
	active int
	// letters are the keys of the views past the ninth (viewLetters).
	letters map[string]int
	sub     *live.Subscription
	// routine is set when the store signalled new versions of data the
	// session has (not news): they are read with the next tick.
	routine atomic.Bool
	// newsRead is when the session last read news from the store (and
	// drew it): the next news waits storeGap from then. Zero before the
	// first: the store's first news is shown as it comes.
	newsRead time.Time

	width, height int
	// overlays are what is shown over the active view, the top one last
	// (overlay.go).
	overlays   []overlay
	pause      pause
	flash      Flash
	flashUntil time.Time
	now        time.Time

	// filter is the filter's input (the filter overlay types in it), the
	// palette the command palette (built once, pushed as an overlay at
	// each opening, its input emptied then).
	filter  textinput.Model
	palette *palette
	help    help.Model
	// confirms numbers the dialogs; background are the confirmed actions
	// whose dialog was hidden while their call runs.
	confirms   int
	background []*dialog
	// links are the views that opened the active one through a link,
	// innermost last: esc on the page a link opened goes back to the view
	// it came from. A jump (a tab, the palette) forgets them.
	links []link
	quit  bool
	// alertMark is how far this session has read the store's alert
	// journal (notify.go).
	alertMark uint64
	// paint is what the chrome drew, per text (paint.go).
	paint paint
}

// link is a cross-view open: from the view at index from to the view at
// index to, whose trail was crumbs long on the page the link opened.
type link struct {
	from, to, crumbs int
}

// maxLinks bounds the links remembered: a loop of links (alerts, a
// payment, alerts...) does not grow them without end.
const maxLinks = 16

// NewApp builds the shell over views, in tab order (keys 1-9).
func NewApp(ctx *Context, views ...View) *App {
	fi := NewInput(ctx.Theme, "/", 200, lipgloss.NewStyle())
	a := &App{ctx: ctx, keys: DefaultKeys(ctx.keymap()), views: views, filter: fi, now: ctx.Clock(), help: newHelpModel(ctx.Theme)}
	a.setLetters()
	a.palette = newPalette(a)
	return a
}

// setLetters gives the views past the ninth their letters, and the jump
// key every number and letter.
func (a *App) setLetters() {
	keys, help := []string{"1", "2", "3", "4", "5", "6", "7", "8", "9"}, "1-9"
	a.keys.Jump = key.NewBinding(key.WithKeys(keys...)) // the letters given before are not taken: they are given again
	a.letters = viewLetters(a.keys, a.ctx.keymap(), a.views)
	for i := 9; i < len(a.views); i++ {
		for l, v := range a.letters {
			if v == i {
				keys, help = append(keys, l), help+" "+l
			}
		}
	}
	a.keys.Jump = key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, "jump to view"))
}

// viewAdded is a view to add as the last tab (a view saved with :save),
// and what to say.
type viewAdded struct {
	view  View
	flash Flash
}

// addView adds v as the last tab, with its key, and starts it.
func (a *App) addView(msg viewAdded) tea.Cmd {
	a.views = append(a.views, msg.view)
	a.setLetters()
	a.setFlash(msg.flash)
	return address(msg.view.Name(), msg.view.Init())
}

// viewLetters gives the views past the ninth (which have no number) a
// capital letter as their key, when no binding of the shell, no
// capital key of a view and no earlier view has it: the first letter of
// the title, else (a saved search whose initial is taken) its next
// letter that is free. A tab label is always a key; a view with no free
// letter is reached with tab or the palette.
func viewLetters(k Keys, km config.Keymap, views []View) map[string]int {
	taken := map[string]bool{}
	for _, a := range config.KeyActions() { // every action's keys in force, on any page
		for _, s := range km.Keys(a.Name) {
			taken[s] = true
		}
	}
	for _, b := range append(k.List(), k.Close, k.FilterKeep, k.FilterClear) {
		for _, s := range b.Keys() {
			taken[s] = true
		}
	}
	for _, v := range views {
		for _, b := range v.Keys() {
			for _, s := range b.Keys() {
				taken[s] = true
			}
		}
	}
	out := map[string]int{}
	for i := 9; i < len(views); i++ {
		for _, r := range views[i].Title() {
			l := strings.ToUpper(string(r))
			if !unicode.IsLetter(r) || len(l) != 1 || l[0] < 'A' || l[0] > 'Z' || taken[l] {
				continue
			}
			taken[l] = true
			out[l] = i
			break
		}
	}
	return out
}

// Context returns the session context.
func (a *App) Context() *Context { return a.ctx }

// Views returns the views in tab order.
func (a *App) Views() []View { return a.views }

// Keys are the shell's bindings.
func (a *App) Keys() Keys { return a.keys }

// Active returns the active view.
func (a *App) Active() View { return a.views[a.active] }

// storeGap is the least time between two reads of news from the store
// (live.Subscription.News: a first answer, a failure, a recovery, an
// alert): news closer together is read as one, at most storeGap late.
// Keys are answered at once.
const storeGap = 500 * time.Millisecond

// storeSettle is how long a session waits after news before it reads it:
// what the store builds from a topic (a table's rows, a board) lands a
// few milliseconds after the topic, and read at once the topic's change
// would be one frame and its rows another (storeGap later, once the view
// has its data; while it waits for some, at once, so the wait is short).
const storeSettle = 20 * time.Millisecond

// waitStore waits for the next news from the store, storeGap at the
// earliest after the last news read (the previous frame that drew news:
// the first news comes as soon as it is there). New versions of data the session
// has (a poll's new records, several a second across the views' topics)
// are not news: they are read with the next tick (a second at most, the
// clock's second for every session), in the same frame as the ages the
// tick steps, rather than each in a frame of its own.
func (a *App) waitStore() tea.Cmd {
	if a.sub == nil {
		return nil
	}
	sub, ch, routine, last := a.sub, a.sub.C(), &a.routine, a.newsRead
	store, topics := a.ctx.Store, a.Active().Topics()
	return func() tea.Msg {
		for {
			if _, ok := <-ch; !ok {
				return nil
			}
			if !sub.News() {
				routine.Store(true)
				continue
			}
			break
		}
		if d := newsWait(last, time.Now(), loading(store, topics)); d > 0 {
			time.Sleep(d)
			select { // a change signalled meanwhile is read with this one
			case _, ok := <-ch:
				if !ok {
					return nil
				}
			default:
			}
		}
		return StoreChanged{}
	}
}

// newsWait is how long news that came at now waits before it is read:
// storeSettle, and at least until storeGap after the news read last
// (last; zero for none yet: the first news waits only to settle), unless
// the view still waits for some of its data (loading): each first answer
// is then shown as it comes.
func newsWait(last, now time.Time, loading bool) time.Duration {
	if last.IsZero() || loading {
		return storeSettle
	}
	return max(last.Add(storeGap).Sub(now), storeSettle)
}

// loading reports whether a topic of topics has had no answer yet.
func loading(store *live.Store, topics []live.Topic) bool {
	for _, t := range topics {
		if sn := store.Snapshot(t); !sn.Loaded() && sn.Err == nil {
			return true
		}
	}
	return false
}

// tick is the clock's tick, on the host clock's second (tea.Every): the
// header's minute turns when the host's does, not up to a second later.
func tick() tea.Cmd {
	return tea.Every(time.Second, func(t time.Time) tea.Msg { return Tick{Now: t} })
}

// Init subscribes to the store and starts the clock.
func (a *App) Init() tea.Cmd {
	// The terminal's background colour is asked, not waited for: its
	// answer comes as a message (tea.BackgroundColorMsg) when it comes.
	cmds := []tea.Cmd{tick(), tea.RequestBackgroundColor}
	if a.ctx.Store != nil {
		a.alertMark = a.ctx.Store.AlertMark() // what is open now is no news to this session
		a.sub = a.ctx.Store.Subscribe()
		a.watch()
		cmds = append(cmds, a.waitStore())
	}
	for _, v := range a.views {
		cmds = append(cmds, address(v.Name(), v.Init()))
	}
	return tea.Batch(cmds...)
}

// Close releases the session's subscription; the SSH server calls it when a
// client disconnects.
func (a *App) Close() {
	if a.sub != nil {
		a.sub.Close()
	}
	for _, d := range a.dialogs() {
		a.removeDialog(d)
		d.ended()
	}
}

// readStore reads what the store signalled: the alerts to ring for, and
// the active view's data (not while paused).
func (a *App) readStore() tea.Cmd {
	a.routine.Store(false)     // read now, with the rest
	notify := a.notifyAlerts() // paused too: the person may not be looking
	var cmd tea.Cmd
	switch {
	case !a.paused():
		cmd = a.send(a.Active(), StoreChanged{})
		a.watch()
	case a.pause.once: // r while paused: this news, once
		a.pause.once, a.pause.at = false, a.ctx.Clock()
		a.ctx.shown = a.pause.at
		a.thaw()
		cmd = a.send(a.Active(), StoreChanged{})
		a.watch()
	}
	return tea.Batch(notify, cmd)
}

func (a *App) watch() {
	if a.sub != nil {
		a.sub.Watch(a.Active().Topics()...)
	}
}

func (a *App) chrome() int { return 4 } // header (2 lines), tabs, footer

func (a *App) resize() {
	a.ctx.Width = a.width
	a.ctx.Height = max(a.height-a.chrome(), 1)
}

func (a *App) setFlash(f Flash) {
	a.flash = f
	d := 4 * time.Second
	switch {
	case f.Pending:
		d = time.Hour // until what it waits for replaces it
	case f.Err != nil || f.Warn:
		d = 10 * time.Second
	}
	a.flashUntil = a.ctx.Clock().Add(d)
}

// Update is the shell's message loop: each message to what takes it.
func (a *App) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg.(type) {
	case tea.KeyPressMsg, tea.MouseMsg, tea.WindowSizeMsg, Open, Jump:
		a.thaw() // paused, what the person asks for is drawn
	}
	switch msg := msg.(type) {
	case addressed:
		return a, a.toView(msg)
	case tea.WindowSizeMsg:
		a.width, a.height = msg.Width, msg.Height
		a.resize()
	case RawRecord:
		a.rawRead(msg)
	case StoreChanged:
		a.newsRead = time.Now()
		return a, tea.Batch(a.readStore(), a.waitStore())
	case Tick:
		return a, a.ticked(msg)
	case Copy:
		return a, a.copyText(msg.What, msg.Text)
	case Flash:
		a.flashed(msg)
	case confirmAnswered:
		return a, a.answered(msg)
	case viewAdded:
		return a, a.addView(msg)
	case spinner.TickMsg:
		if d := a.shownDialog(); d != nil {
			return a, d.tick(msg)
		}
	case Open:
		return a, a.follow(msg)
	case Jump:
		return a, a.open(Open{View: msg.View})
	case showHelp:
		a.openHelp()
	case openPaletteWith:
		a.reopenPalette(msg.text)
	case Confirm:
		return a, a.confirm(msg)
	case tea.KeyPressMsg:
		return a, a.key(msg)
	case tea.PasteMsg:
		return a, a.paste(msg)
	case tea.BackgroundColorMsg:
		a.setDark(msg.IsDark())
	case tea.MouseMsg:
		return a, a.mouse(msg)
	case commandDone:
		a.commandShown(msg)
	default:
		return a, a.toViews(msg)
	}
	return a, nil
}

// toView gives a view's own message to that view alone.
func (a *App) toView(msg addressed) tea.Cmd {
	for _, v := range a.views {
		if v.Name() == msg.to {
			return a.send(v, msg.msg)
		}
	}
	return nil
}

// toViews gives what comes unaddressed (a global command's answer) to
// every view. A view's own messages come addressed (toView), and reach it
// even when another view is in front: the operator may switch tabs while
// an action's answer is on its way.
func (a *App) toViews(msg tea.Msg) tea.Cmd {
	cmds := make([]tea.Cmd, len(a.views))
	for i, v := range a.views {
		cmds[i] = a.send(v, msg)
	}
	return tea.Batch(cmds...)
}

// ticked steps the clock: what the store signalled is read, the ages
// step (not while paused: they hold as they were drawn), a flash past its
// time goes, and a dialog that waits in vain for the view's result
// closes.
func (a *App) ticked(msg Tick) tea.Cmd {
	var read tea.Cmd
	if a.routine.Load() {
		read = a.readStore()
	}
	a.now = msg.Now
	if !a.paused() {
		a.ctx.shown = a.ctx.Clock()
	}
	if a.flashUntil.Before(a.ctx.Clock()) {
		a.flash = Flash{}
	}
	if d := a.shownDialog(); d != nil && d.state == settling {
		// The view said nothing of the answer: do not wait forever.
		if d.settled++; d.settled >= settleTicks {
			a.pop()
		}
	}
	return tea.Batch(read, a.send(a.Active(), msg), tick())
}

// flashed shows a flash in the footer; the first after a dialog's answer
// is the view's result, which the dialog shows.
func (a *App) flashed(msg Flash) {
	a.setFlash(msg)
	if d := a.shownDialog(); d != nil && d.state == settling {
		d.state, d.result = done, msg
	}
}

// setDark takes the terminal's answer to Init's question, read from the
// input as any key is: nothing waited for it. Views read the theme as
// they draw (a table restyles itself, charts are kept per background).
func (a *App) setDark(dark bool) {
	if dark != a.ctx.Dark {
		a.ctx.Dark = dark
		a.ctx.Theme = NewTheme(a.ctx.Colors, dark, a.ctx.Skin)
		a.help = newHelpModel(a.ctx.Theme)
	}
}

// ErrReadOnly is what an action attempted in a read-only session says: the
// same error the actions layer refuses with (config's, on the ground: the
// shell imports no action).
var ErrReadOnly = config.ErrReadOnly

// key gives a key to the overlay shown, else to what takes typing (a
// form's field, a table picking its sort column), else to the shell's
// binding it matches, else to the active view.
func (a *App) key(msg tea.KeyPressMsg) tea.Cmd {
	if o := a.top(); o != nil {
		return o.onKey(a, msg)
	}
	if cmd, ok := a.sendTyped(msg); ok && msg.String() != "ctrl+c" {
		return cmd
	}
	k := a.keys
	switch {
	case key.Matches(msg, k.Quit):
		a.quit = true
		a.Close()
		return tea.Quit
	case key.Matches(msg, k.NextView):
		return a.switchTo((a.active + 1) % len(a.views))
	case key.Matches(msg, k.PrevView):
		return a.switchTo((a.active + len(a.views) - 1) % len(a.views))
	case key.Matches(msg, k.Jump):
		return a.jump(msg)
	case key.Matches(msg, k.Palette):
		a.palette.open()
		a.push(a.palette)
	case key.Matches(msg, k.Help):
		a.openHelp()
	case key.Matches(msg, k.Alerts): // "a: all" on the overview, and from anywhere: esc comes back
		return a.follow(Open{View: route.Alerts})
	case key.Matches(msg, k.Filter):
		return a.openFilter()
	case key.Matches(msg, k.Back):
		return a.back()
	case key.Matches(msg, k.Raw):
		if id, rec, ok := SelectedOf(a.Active()); ok {
			return a.showRaw(id, rec)
		}
	case key.Matches(msg, k.Copy):
		return a.copySelected()
	case key.Matches(msg, k.Columns):
		return a.openColumns()
	case key.Matches(msg, k.ShowID):
		if id, _, ok := SelectedOf(a.Active()); ok && id != "" {
			a.showCopy("The selected id, to select by hand; "+a.keys.Back.Help().Key+" closes:", id)
		}
	case key.Matches(msg, k.Save):
		return a.saveCSV()
	case key.Matches(msg, k.Refresh):
		return a.refresh()
	case key.Matches(msg, k.Pause):
		return a.pauseKey()
	default:
		if c, ok := a.customCommand(msg); ok {
			return a.runCustom(c)
		}
		cmd := a.send(a.Active(), msg)
		a.watch() // a key may change what the view shows (a scope, a window)
		return cmd
	}
	return nil
}

// paste gives pasted text to what takes typing: the filter, the palette,
// a dialog's typed confirmation or a form's field; elsewhere it is
// dropped, never read as keys.
func (a *App) paste(msg tea.PasteMsg) tea.Cmd {
	if o := a.top(); o != nil {
		return o.onPaste(a, msg)
	}
	if cmd, ok := a.sendTyped(msg); ok {
		return cmd
	}
	return nil
}

// sendTyped hands msg to what takes typed keys now: the active view (a
// form's field has the focus), or the page it shows (a table picking its
// sort column), under the view's address. It reports false when neither
// does.
func (a *App) sendTyped(msg tea.Msg) (tea.Cmd, bool) {
	v := a.Active()
	if t, ok := v.(Typing); ok && t.Typing() {
		return a.send(v, msg), true
	}
	sh, ok := v.(Shower)
	if !ok {
		return nil, false
	}
	if p, ok := sh.Shown().(typingPage); ok && p.Typing() {
		return address(v.Name(), p.Update(msg)), true
	}
	return nil, false
}

// typingPage is a page that takes typed keys now.
type typingPage interface {
	Typing
	Update(tea.Msg) tea.Cmd
}
