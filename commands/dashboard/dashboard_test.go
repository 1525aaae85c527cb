package dashboard

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"treasury/commands/cli/clitest"
	"treasury/config"
	"treasury/config/route"
	"treasury/desk/audit"
	"treasury/desk/live"
	"treasury/process"
	"treasury/process/sandboxprofile"
	"treasury/sandbox/sandboxtest"
	"treasury/ui"
	"treasury/ui/uitest"
)

// TestDashboardOnEmbeddedSandbox opens what `go run .` opens (the built-in
// profile: an embedded sandbox, the platform, the webhook receiver, the
// logs) and drives the shell until live quotes and payments are on the
// overview.
func TestDashboardOnEmbeddedSandbox(t *testing.T) {
	e, _ := clitest.Env(t, io.Discard)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rt, err := process.Open(ctx, e, config.Builtin())
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	r := colorprofile.NoTTY
	app := NewApp(rt, Session{Colors: r, Dark: true, Who: audit.Who{Via: audit.ViaLocal, User: "tester"}, SaveDir: t.TempDir()})
	// A second session (an SSH client's) shares what the process shares,
	// and owns what is its own.
	other := NewApp(rt, Session{Colors: colorprofile.ANSI256, Dark: false, Who: audit.Who{Via: audit.ViaSSH, User: "ana"}, SaveDir: t.TempDir()})
	if a, b := app.Context(), other.Context(); a.Shared != b.Shared || a.Store != rt.Platform.Store || a.Operator == b.Operator || a.Colors == b.Colors {
		t.Fatalf("two sessions: shared %p and %p, operators %q and %q", a.Shared, b.Shared, a.Operator, b.Operator)
	}
	tm := teatest.NewTestModel(t, app, teatest.WithInitialTermSize(120, 40))
	scr := uitest.ScreenOf(tm, 120, 40)
	shows := scr.Shows("[TEST]", "BTC/USD")
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		s := scr.String()
		return shows(b) && (inFlightCount.MatchString(s) || strings.Contains(s, "no payment initiated"))
	}, teatest.WithDuration(20*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	tm.Type("q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	if rt.Platform.Store.Snapshot(live.Payments).FetchedAt.IsZero() {
		t.Fatal("payments were never polled")
	}
}

// inFlightCount is the payments panel's count of the payments in flight
// ("in flight 94"): the panel has read the payments.
var inFlightCount = regexp.MustCompile(`in flight \d`)

// BenchmarkFirstFrame measures the time from start (embedded sandbox,
// platform, first polls) to the first frame that shows live quotes.
func BenchmarkFirstFrame(b *testing.B) {
	for b.Loop() {
		e, _ := clitest.Env(b, io.Discard)
		ctx, cancel := context.WithCancel(context.Background())
		rt, err := process.Open(ctx, e, config.Builtin())
		if err != nil {
			b.Fatal(err)
		}
		sub := rt.Platform.Store.Subscribe()
		sub.Watch(live.Quotes)
		for rt.Platform.Store.Snapshot(live.Quotes).FetchedAt.IsZero() {
			<-sub.C()
		}
		r := colorprofile.NoTTY
		app := NewApp(rt, Session{Colors: r, Dark: true, Who: audit.Who{Via: audit.ViaLocal, User: "bench"}})
		rt.Platform.Store.Sync() // the overview's rates, built from the quotes
		app.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		app.Update(ui.StoreChanged{})
		if !bytes.Contains([]byte(app.Frame()), []byte("BTC/USD")) {
			b.Fatal("first frame without quotes")
		}
		b.StopTimer() // shutting down is not part of the first frame
		sub.Close()
		cancel()
		rt.Close()
		b.StartTimer()
	}
}

// TestDashboardOnTheVariant opens the dashboard on the sandbox's second
// face (the other legal choices where the spec leaves one open) and shows
// every view: each shows its records, none a failure, and the header has
// every interface healthy.
func TestDashboardOnTheVariant(t *testing.T) {
	e, _ := clitest.Env(t, io.Discard)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := config.Builtin()
	cfg.Embedded.Variant = true
	rt, err := process.Open(ctx, e, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	for _, tp := range rt.Platform.Store.Topics() {
		if snap := rt.Platform.Store.FetchNow(ctx, tp); snap.Err != nil {
			t.Errorf("%s: %v", tp, snap.Err)
		}
	}
	r := colorprofile.NoTTY
	app := NewApp(rt, Session{Colors: r, Dark: true, Who: audit.Who{Via: audit.ViaLocal, User: "tester"}, SaveDir: t.TempDir()})
	tm := teatest.NewTestModel(t, app, teatest.WithInitialTermSize(160, 40))
	var seen bytes.Buffer
	for _, v := range []struct {
		name  route.Route
		shows string
	}{
		{route.Overview, "Total "}, {route.Quotes, "mid rate"}, {route.Balances, "USD"}, {route.Payments, "COMPLETED"}, {route.Wallets, "Treasury Operations"},
		{route.AddressBook, "Alias"}, {route.Identities, "BENEFICIARY"}, {route.Ledger, "RESERVE"}, {route.Errors, "no call has failed"},
	} {
		tm.Send(ui.Open{View: v.name})
		shows := uitest.ScreenOf(tm, 160, 40).Shows(v.shows)
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
			ok := shows(b)
			seen.WriteString(uitest.ScreenOf(tm, 160, 40).String()) // every screen shown on the way
			return ok
		}, teatest.WithDuration(20*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	}
	tm.Type("q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
	// "STALE: fetched" alone (data older than twice its interval, no
	// error) can be true of a slow machine under -race; a stale mark with
	// an error cannot.
	for _, bad := range []string{"Could not read", "✖", "STALE (", "incomplete", "could not be read"} {
		if i := bytes.Index(seen.Bytes(), []byte(bad)); i >= 0 {
			line := seen.Bytes()[max(0, bytes.LastIndexByte(seen.Bytes()[:i], '\n')+1):]
			line, _, _ = bytes.Cut(line, []byte("\n"))
			t.Errorf("the dashboard on the variant showed %q: %s", bad, line)
		}
	}
	if fs := rt.Platform.Store.Failures(); len(fs) > 0 {
		t.Errorf("%d failed calls against the variant, first %v", len(fs), fs[0].Err)
	}
}

// TestDashboardNamesAFailureFromTheStart: an interface that refuses the
// first read is named where its quotes would be, not "loading" for ever,
// on a dashboard opened before any answer came (as a real start is: the
// refusal here comes 300 ms after the dashboard is up).
func TestDashboardNamesAFailureFromTheStart(t *testing.T) {
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	cfg := sandboxprofile.Of(srv, config.Builtin())
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(300 * time.Millisecond)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		io.WriteString(w, `{"code":401,"message":"connection refused by policy"}`)
	}))
	defer slow.Close()
	cfg.Liquidity.BaseURL = slow.URL + "/liquidity"
	e, _ := clitest.Env(t, io.Discard)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rt, err := process.Open(ctx, e, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	r := colorprofile.NoTTY
	app := NewApp(rt, Session{Colors: r, Dark: true, Who: audit.Who{Via: audit.ViaLocal, User: "tester"}, SaveDir: t.TempDir()})
	// A second session (an SSH client's) shares what the process shares,
	// and owns what is its own.
	other := NewApp(rt, Session{Colors: colorprofile.ANSI256, Dark: false, Who: audit.Who{Via: audit.ViaSSH, User: "ana"}, SaveDir: t.TempDir()})
	if a, b := app.Context(), other.Context(); a.Shared != b.Shared || a.Store != rt.Platform.Store || a.Operator == b.Operator || a.Colors == b.Colors {
		t.Fatalf("two sessions: shared %p and %p, operators %q and %q", a.Shared, b.Shared, a.Operator, b.Operator)
	}
	tm := teatest.NewTestModel(t, app, teatest.WithInitialTermSize(120, 40))
	tm.Send(ui.Open{View: "quotes"})
	uitest.WaitFor(t, tm, 120, 40, 20*time.Second, "Could not read quotes", "connection refused")
	tm.Type("q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
}
