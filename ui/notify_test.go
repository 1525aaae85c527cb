package ui

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"treasury/desk/live"
)

// alertStore is a store whose open alerts the test sets.
type alertStore struct {
	*live.Store
	mu   sync.Mutex
	open []live.Alert
}

func newAlertStore(t *testing.T, open ...live.Alert) *alertStore {
	s := &alertStore{open: open}
	s.Store = live.New(live.Options{Inline: true, Feeds: []live.Feed{live.ValueFeed(live.KeyOf[int]("balances"),
		func(context.Context) (int, error) { return 1, nil },
		live.FeedOptions[int, int]{Interval: time.Hour, Alerts: func(int, time.Time) []live.Alert {
			s.mu.Lock()
			defer s.mu.Unlock()
			return append([]live.Alert(nil), s.open...)
		}})}})
	t.Cleanup(s.Close)
	s.FetchNow(context.Background(), "balances")
	return s
}

func (s *alertStore) set(open ...live.Alert) {
	s.mu.Lock()
	s.open = open
	s.mu.Unlock()
	s.Rejudge()
}

var (
	runwayUSD = live.Alert{Key: "low-runway:USD", Severity: live.High, Code: "LOW_RUNWAY", Title: "USD prefunded lasts 0.7 h; empty ≈ 10:40 UTC"}
	declines  = live.Alert{Key: "declines", Severity: live.Medium, Code: "USR_062..USR_067", Title: "5 payments declined"}
	staleFeed = live.Alert{Key: "stale:quotes", Severity: live.High, Code: "STALE", Title: "quotes: no good answer\x1b]0;pwned\a"}
)

// TestNewCriticalAlertRings: a session rings the bell and raises a
// desktop notification (OSC 9 and 777) for a critical alert new since it
// started, once; not for one open before it started, nor for a warning;
// with alerts.terminal off, not at all.
func TestNewCriticalAlertRings(t *testing.T) {
	st := newAlertStore(t, staleFeed)
	ctx := testContext("test", false)
	ctx.Store, ctx.Terminal, ctx.Term = st.Store, true, "xterm-256color"
	on := [2]bool{true, true}
	ctx.AlertTerminal = func() (bool, bool) { return on[0], on[1] }
	app := NewApp(ctx, &listView{name: "alpha", rows: []string{"a-1"}})
	app.Init()
	defer app.Close()
	// What the shell does on every StoreChanged, paused or not: the
	// sequences are written by the program between frames (tea.Raw).
	ring := func() string { return written(run(app.notifyAlerts())) }

	got := ring()
	if got != "" {
		t.Fatalf("an alert open before the session rang: %q", got)
	}
	st.set(staleFeed, declines)
	got = ring()
	if got != "" {
		t.Fatalf("a warning rang: %q", got)
	}
	st.set(staleFeed, declines, runwayUSD)
	got = ring()
	want := "\a\x1b]9;treasury sandbox: HIGH LOW_RUNWAY: USD prefunded lasts 0.7 h, empty ≈ 10:40 UTC\x1b\\" +
		"\x1b]777;notify;treasury sandbox;HIGH LOW_RUNWAY: USD prefunded lasts 0.7 h, empty ≈ 10:40 UTC\x1b\\"
	if got != want {
		t.Fatalf("wrote %q, want %q", got, want)
	}
	got = ring()
	if got != "" {
		t.Fatalf("rang twice: %q", got)
	}

	// Off by the setting: the mark moves on, nothing is written.
	on = [2]bool{false, false}
	st.set(staleFeed, declines, runwayUSD, live.Alert{Key: "cfg:x", Severity: live.High, Code: "CFG_001", Title: "configuration"})
	got = ring()
	if got != "" {
		t.Fatalf("rang with alerts.terminal off: %q", got)
	}
}

// TestNotice: a bell only when the desktop is off or the terminal dumb;
// inside tmux the OSCs also go wrapped for passthrough; a title from the
// network cannot end the sequence or start another.
func TestNotice(t *testing.T) {
	if got := notice([]live.Alert{runwayUSD}, "p", true, false, false); got != "\a" {
		t.Errorf("bell only: %q", got)
	}
	got := notice([]live.Alert{staleFeed, runwayUSD}, "p;q", false, true, true)
	if strings.Contains(got, "\a") || strings.Count(got, "\x1bPtmux;") != 2 {
		t.Errorf("tmux: %q", got)
	}
	if !strings.Contains(got, "\x1b]9;treasury p,q: HIGH STALE: quotes: no good answer\\x1b]0,pwned\\x07 (+1 more)\x1b\\") {
		t.Errorf("escaped title: %q", got)
	}
	if strings.Count(got, "\x1b]") != 4 { // two OSCs, each also wrapped (its escape doubled)
		t.Errorf("sequences: %q", got)
	}
}
