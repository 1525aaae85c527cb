package main

import (
	"bytes"
	"context"
	"io"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/muesli/termenv"

	"treasury/config"
	"treasury/data/live"
	"treasury/ui"
)

// TestDashboardOnEmbeddedSandbox opens what `go run .` opens (the built-in
// profile: an embedded sandbox, the platform, the webhook receiver, the
// logs) and drives the shell until live quotes are on screen.
func TestDashboardOnEmbeddedSandbox(t *testing.T) {
	e, _ := testEnv(t, io.Discard)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rt, err := openRuntime(ctx, e, config.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	r := lipgloss.NewRenderer(io.Discard, termenv.WithProfile(termenv.Ascii))
	app := newApp(rt, session{renderer: r, operator: "tester", saveDir: t.TempDir()})
	tm := teatest.NewTestModel(t, app, teatest.WithInitialTermSize(120, 40))
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte("[TEST]")) && bytes.Contains(b, []byte("mid rate"))
	}, teatest.WithDuration(20*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	tm.Type("q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	if rt.p.Store.Snapshot(live.Payments).FetchedAt.IsZero() {
		t.Fatal("payments were never polled")
	}
}

// BenchmarkFirstFrame measures the time from start (embedded sandbox,
// platform, first polls) to the first frame that shows live quotes.
func BenchmarkFirstFrame(b *testing.B) {
	for b.Loop() {
		e, _ := testEnv(b, io.Discard)
		ctx, cancel := context.WithCancel(context.Background())
		rt, err := openRuntime(ctx, e, config.Builtin())
		if err != nil {
			b.Fatal(err)
		}
		sub := rt.p.Store.Subscribe()
		sub.Watch(live.Quotes)
		for rt.p.Store.Snapshot(live.Quotes).FetchedAt.IsZero() {
			<-sub.C()
		}
		r := lipgloss.NewRenderer(io.Discard, termenv.WithProfile(termenv.Ascii))
		app := newApp(rt, session{renderer: r, operator: "bench"})
		app.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		app.Update(ui.StoreChanged{})
		if !bytes.Contains([]byte(app.View()), []byte("mid rate")) {
			b.Fatal("first frame without quotes")
		}
		b.StopTimer() // shutting down is not part of the first frame
		sub.Close()
		cancel()
		rt.Close()
		b.StartTimer()
	}
}
