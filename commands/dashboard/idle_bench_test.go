package dashboard

import (
	"context"
	"io"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"treasury/commands/cli/clitest"
	"treasury/config"
	"treasury/desk/audit"
	"treasury/process"
	"treasury/ui"
	"treasury/ui/uitest"
)

// BenchmarkIdleFrame is what one frame of an idle session on the
// payments view costs the shell and its views (a store change, then
// View), over the embedded sandbox: the renderer's diff and the SSH link
// come on top.
func BenchmarkIdleFrame(b *testing.B) {
	app := idleOn(b, "4")
	b.ReportAllocs()
	for b.Loop() {
		app.Update(ui.StoreChanged{})
		_ = app.View()
	}
}

// idleViews are the views the idle benchmarks open, by key.
var idleViews = []struct{ name, key string }{{"payments", "4"}, {"quotes", "2"}, {"overview", "1"}}

// idleOn is a session at 120x40 on the view of key k of the embedded
// sandbox, every topic read and the shared rows built.
func idleOn(b *testing.B, k string) *ui.App {
	rt := openRead(b)
	app := NewApp(rt, Session{Colors: colorprofile.ANSI256, Dark: true, Who: audit.Who{Via: audit.ViaLocal, User: "b"}})
	app.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	app.Update(uitest.Key(k))
	rt.Platform.Store.Sync()
	app.Update(ui.StoreChanged{})
	return app
}

// openRead opens what `go run .` opens (the built-in profile's embedded
// sandbox and platform) with every topic read once, closed with tb.
func openRead(tb testing.TB) *process.Runtime {
	tb.Helper()
	e, _ := clitest.Env(tb, io.Discard)
	ctx, cancel := context.WithCancel(context.Background())
	tb.Cleanup(cancel)
	rt, err := process.Open(ctx, e, config.Builtin())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(rt.Close)
	for _, tp := range rt.Platform.Store.Topics() {
		rt.Platform.Store.FetchNow(ctx, tp)
	}
	return rt
}

// BenchmarkIdleTick is what the clock's tick costs an idle session on the
// payments view, when nothing it shows changed: the tick, then View (the
// renderer compares the frame with the last one drawn, and draws nothing
// when they are the same text).
func BenchmarkIdleTick(b *testing.B) {
	app := idleOn(b, "4")
	now := app.Context().Clock()
	app.Context().Now = func() time.Time { return now } // nothing shown changes
	b.ReportAllocs()
	for b.Loop() {
		app.Update(ui.Tick{Now: now})
		_ = app.View()
	}
}

// BenchmarkIdleTickSecond is what the clock's tick costs an idle session
// on each view as ticks come, a second apart (the data held does not
// change): the frame changes when an age passes its bound or the minute
// turns, and is built every tick when the view cannot tell.
func BenchmarkIdleTickSecond(b *testing.B) {
	for _, v := range idleViews {
		b.Run(v.name, func(b *testing.B) {
			app := idleOn(b, v.key)
			now := app.Context().Clock()
			app.Context().Now = func() time.Time { return now }
			b.ReportAllocs()
			for b.Loop() {
				now = now.Add(time.Second)
				app.Update(ui.Tick{Now: now})
				_ = app.View()
			}
		})
	}
}
