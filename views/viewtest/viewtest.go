// Package viewtest is the harness of the views' tests: a seeded sandbox
// with a frozen clock on loopback, a platform on it with every topic read
// once, a session context with a pinned colour profile, and a teatest
// program of the shell with the view under test at a fixed size, whose
// final frame is compared with a golden file.
//
// A world (the sandbox and the platform, its topics read) is costly: most
// of a view test's time. Tests that only read share one per package:
// Shared gives the default world, a package-level World one prepared
// otherwise (its clock advanced), each built once by the first test that
// asks. A test on a shared world has a session of its own (context, save
// directory, audit log, actor) but must leave the world as it found it: it
// does not advance the clock, read topics again, set faults, act (freeze,
// lock, sweep), put records into the store or make a call that fails. The
// harness refuses writes and fails a test at whose end the world differs.
// Tests that change their world, or need another profile or sandbox, call
// New, which builds one of their own; Options.Skip spares a test of a view
// that shows no quotes or trades the reading of their windows.
package viewtest

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"treasury/config"
	"treasury/desk/actions"
	"treasury/desk/audit"
	"treasury/desk/live"
	"treasury/desk/platform"
	"treasury/process/sandboxprofile"
	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
	"treasury/ui"
	"treasury/ui/uitest"
)

// Width and Height are the golden files' terminal size.
const Width, Height = 120, 40

// Env is a sandbox, the platform on it, and a session context.
type Env struct {
	Sandbox *sandbox.Server
	P       *platform.Platform
	Ctx     *ui.Context
	Audit   *audit.Log
	Actor   *actions.Actor

	skip   map[live.Topic]bool
	shared *World // the world e's session is on, when shared
	opts   Options
}

// Options adjust New and NewWorld.
type Options struct {
	Sandbox  *sandbox.Options // nil: sandboxtest.Options()
	ReadOnly bool
	Prod     bool
	// Profile, when set, changes the sandbox profile before the platform
	// opens (a wrong secret, an unknown domain, an unreachable URL).
	Profile func(*config.Config)
	// Who acts; nil is the local user "tester".
	Who *audit.Who
	// Colour renders the session in 256 colours on a dark background
	// (colour goldens); otherwise it is plain text, as with NO_COLOR.
	Colour bool
	// Skip are topics that Fetch and Advance never read: they stay
	// loading. A test of a view that shows none of them saves their reads;
	// the quote and trade windows (NoLiquidityHistory) are the costly ones.
	Skip []live.Topic
	// Unread leaves the payments' reasons unread but for those the store
	// reads by itself (the alerts' needs), as a dashboard holds them
	// until a session shows them; otherwise Fetch has every one read.
	Unread bool
}

// NoLiquidityHistory are the topics of the liquidity windows, the costliest
// to read (30 minutes of quotes, 24 hours of trades, each read as a first
// window then a backfill), for Options.Skip in tests that show neither.
func NoLiquidityHistory() []live.Topic { return []live.Topic{live.Quotes, live.Trades} }

func (o Options) who() audit.Who {
	if o.Who != nil {
		return *o.Who
	}
	return audit.Who{Via: audit.ViaLocal, User: "tester"}
}

func skipSet(ts []live.Topic) map[live.Topic]bool {
	m := make(map[live.Topic]bool, len(ts))
	for _, t := range ts {
		m[t] = true
	}
	return m
}

// New starts a frozen seeded sandbox, opens a platform on it (not polling:
// tests advance the clock and call Fetch) and reads every topic once.
func New(t testing.TB, o Options) *Env {
	t.Helper()
	srv := sandboxtest.Listen(t, sandboxOptions(o))
	p, err := openPlatform(srv, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	e := &Env{Sandbox: srv, P: p, skip: skipSet(o.Skip), opts: o}
	e.session(t) // its audit log is the Audit topic of a world of its own
	e.Fetch()
	// The second poll of the windows backfills them, as in steady state;
	// the other topics read again would read the same (the clock is
	// frozen), at a cost: a second round of every topic was a sixth to two
	// fifths of a views package's CPU under -race (overview, address book).
	e.fetch(live.Quotes, live.Trades)
	return e
}

func sandboxOptions(o Options) sandbox.Options {
	if o.Sandbox != nil {
		return *o.Sandbox
	}
	return sandboxtest.Options()
}

// openPlatform opens a platform on srv for the profile o asks for, its
// requests sent by hc (nil: the default client), retries not waiting.
func openPlatform(srv *sandbox.Server, o Options, hc *http.Client) (*platform.Platform, error) {
	cfg := sandboxprofile.Of(srv, config.Builtin())
	if o.Prod {
		cfg.Environment = config.EnvProd
	}
	cfg.ReadOnly = o.ReadOnly
	if o.Profile != nil {
		o.Profile(cfg)
	}
	return platform.Open(cfg, platform.Options{Now: srv.Clock().Now, Inline: true, HTTP: hc, BackfillBudget: time.Minute,
		Sleep: func(ctx context.Context, d time.Duration) error { return ctx.Err() }})
}

// session gives e a session of its own for t: a context with a pinned
// colour profile and its own save directory, an audit log and an actor.
// On a world of its own the log is the store's Audit topic (as the
// dashboard's is); on a shared world the topic stays unfed (a test that
// reads :audit has a world of its own).
func (e *Env) session(t testing.TB) {
	t.Helper()
	cfg, srv, p, o := e.P.Config, e.Sandbox, e.P, e.opts
	// The log's clock is the sandbox's, frozen: golden frames hold its times.
	al, err := audit.Open(t.TempDir(), audit.Options{Now: srv.Clock().Now, Host: "test-host"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { al.Close() })
	if e.shared == nil {
		if err := live.FollowAudit(p.Store, al); err != nil {
			t.Fatal(err)
		}
	}
	e.Audit = al
	colors := colorprofile.NoTTY // plain text, as NO_COLOR and TERM=dumb
	if o.Colour {
		colors = colorprofile.ANSI256
	}
	e.Ctx = &ui.Context{Shared: &ui.Shared{Store: p.Store, Profile: cfg.Profile, Environment: cfg.Environment, Now: srv.Clock().Now, Keys: cfg.Keys}, Session: ui.Session{Colors: colors, Dark: true, Theme: ui.NewTheme(colors, true, nil), ReadOnly: cfg.ReadOnly, Operator: o.who().String(), SaveDir: t.TempDir(), Width: Width, Height: Height - 4}}
	e.Actor = actions.New(actions.Clients{Transactions: p.WalletTransactions, Custody: p.Custody, CanSign: p.CustodyCanSign},
		actions.Identity{Profile: cfg.Profile, Environment: cfg.Environment, Who: o.who(), ReadOnly: cfg.ReadOnly}, al)
}

// Fetch reads every topic of the store once, now (but those of
// Options.Skip), and waits until what the reads set going (the reasons of
// the failures, read by id; the derivations) is folded in: a frame taken
// then is the same on every run.
func (e *Env) Fetch() {
	e.mustOwn("Fetch")
	e.fetch(e.P.Store.Topics()...)
}

// fetch reads topics (but those of Options.Skip) and waits as Fetch does.
// Every payment held that lacks what a read by id gives (a failure's
// reason) is then read, as a session that showed it would have it read
// (live.Store.WantDetails): a frame shows the same reasons whatever the
// views showed before it, and a test on a shared world changes nothing by
// showing rows. What is read without being shown is the data layer's
// tests' (desk/platform, desk/live).
func (e *Env) fetch(topics ...live.Topic) {
	for _, tp := range topics {
		if !e.skip[tp] {
			e.P.Store.FetchNow(context.Background(), tp)
		}
	}
	e.P.Store.Sync()
	if ps := live.Get(e.P.Store, live.PaymentsKey).Data; ps != nil && !e.opts.Unread {
		var ids []string
		for i := range ps.Len() {
			if p := ps.At(i); live.NeedsDetails(p) {
				ids = append(ids, p.PaymentID)
			}
		}
		e.P.Store.WantDetails(ids)
		e.P.Store.Sync()
	}
}

// Advance moves the sandbox clock and reads every topic again.
func (e *Env) Advance(d time.Duration) {
	e.mustOwn("Advance")
	e.Sandbox.AdvanceClock(d)
	e.Fetch()
}

// AdvanceReading moves the sandbox clock and reads only topics: the steps
// of a chart whose points are counted at each poll of one topic (the
// payments' states), the others read once after the last step.
func (e *Env) AdvanceReading(d time.Duration, topics ...live.Topic) {
	e.mustOwn("AdvanceReading")
	e.Sandbox.AdvanceClock(d)
	e.fetch(topics...)
}

// Program runs the shell with views at Width x Height.
func (e *Env) Program(t testing.TB, views ...ui.View) *teatest.TestModel {
	t.Helper()
	return e.ProgramAt(t, Width, Height, views...)
}

// ProgramAt runs the shell with views at w x h (80 x 24: the smallest
// terminal the dashboard is made for).
func (e *Env) ProgramAt(t testing.TB, w, h int, views ...ui.View) *teatest.TestModel {
	t.Helper()
	return e.ProgramOf(t, e.Ctx, w, h, views...)
}

// ProgramOf runs the shell of another session, whose context is ctx (a
// copy of the Env's: the same store, its own size and ticks), with views
// built on ctx. A context is one session's: two programs running at once
// never share one.
func (e *Env) ProgramOf(t testing.TB, ctx *ui.Context, w, h int, views ...ui.View) *teatest.TestModel {
	t.Helper()
	app := ui.NewApp(ctx, views...)
	tm := teatest.NewTestModel(t, app, teatest.WithInitialTermSize(w, h))
	uitest.ScreenOf(tm, w, h) // the screen WaitFor reads, of the program's size
	return tm
}

// WaitFor waits until the program's screen shows want.
func WaitFor(t testing.TB, tm *teatest.TestModel, want string) {
	t.Helper()
	uitest.WaitFor(t, tm, Width, Height, 45*time.Second, want)
}

// Keys sends key presses: each string is one key ("enter", "esc", "tab",
// "down", "up", or runes typed as they are).
func Keys(tm *teatest.TestModel, keys ...string) {
	for _, k := range keys {
		tm.Send(Key(k))
	}
}

// Golden quits the program and compares its last frame (the shell's View
// at Width x Height) with testdata/<test name>.golden; `go test -update`
// rewrites it.
func Golden(t *testing.T, tm *teatest.TestModel) string {
	t.Helper()
	frame := Frame(t, tm)
	golden.RequireEqual(t, []byte(frame))
	return frame
}

// Frame quits the program and returns its last frame, for tests whose
// frame holds what changes from run to run (request ids).
func Frame(t testing.TB, tm *teatest.TestModel) string {
	t.Helper()
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	return tm.FinalModel(t, teatest.WithFinalTimeout(30*time.Second)).View().Content
}
