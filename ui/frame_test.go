package ui

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/golden"

	"treasury/desk/live"
	"treasury/kit/keep"
	"treasury/ui/uitest"
	"treasury/wire/apierr"
)

// TestAlertBadgeClaimsNoMoreThanWasRead: "no alerts" only once every
// topic that raises alerts answered; before, "checking"; while one fails,
// "unknown", and the alerts open are said to be perhaps not all.
func TestAlertBadgeClaimsNoMoreThanWasRead(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	fail := false
	feed := func(tp live.Topic) live.Feed {
		return live.ValueFeed(live.KeyOf[int](tp), func(context.Context) (int, error) {
			if fail && tp == "b" {
				return 0, errors.New("refused")
			}
			return 1, nil
		}, live.FeedOptions[int, int]{Interval: time.Minute, Interface: "payments",
			Alerts: func(int, time.Time) []live.Alert { return nil }})
	}
	st := live.New(live.Options{Now: func() time.Time { return now }, Feeds: []live.Feed{feed("a"), feed("b")}})
	th := NewTheme(colorprofile.NoTTY, true, nil)
	if got := badgeText(alertBadge(&th, st, len(st.Alerts()))); !strings.Contains(got, "checking") {
		t.Errorf("before any read: %q", got)
	}
	st.FetchNow(context.Background(), "a")
	if got := badgeText(alertBadge(&th, st, len(st.Alerts()))); !strings.Contains(got, "checking") {
		t.Errorf("one topic read: %q", got)
	}
	st.FetchNow(context.Background(), "b")
	if got := badgeText(alertBadge(&th, st, len(st.Alerts()))); got != "no alerts" {
		t.Errorf("both read: %q", got)
	}
	fail = true
	st.FetchNow(context.Background(), "b")
	if got := badgeText(alertBadge(&th, st, len(st.Alerts()))); got != "alerts unknown (a)" {
		t.Errorf("one failing: %q", got)
	}
}

// TestAgeNeverNegative: a time ahead of the clock is less than ten
// seconds ago.
func TestAgeNeverNegative(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	if got := Age(now, now.Add(3*time.Second)); got != "<10s" {
		t.Errorf("a time 3s ahead: %q", got)
	}
	if got := Age(now, now.Add(-90*time.Second)); got != "<2m" {
		t.Errorf("90s ago: %q", got)
	}
}

// TestAgeUnderAMinuteIsABound: under a minute an age steps by ten
// seconds, as the bound it is still under a second later (the text stays
// until the next tick): it never reads younger than it is, and it changes
// six times a minute, not sixty.
func TestAgeUnderAMinuteIsABound(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		ago  time.Duration
		want string
	}{
		{0, "<10s"}, {8900 * time.Millisecond, "<10s"}, {9 * time.Second, "<20s"},
		{30 * time.Second, "<40s"}, {48 * time.Second, "<50s"}, {49 * time.Second, "<1m"}, {58900 * time.Millisecond, "<1m"},
		{59 * time.Second, "<2m"}, {2 * time.Minute, "<3m"}, {118 * time.Second, "<2m"}, {119 * time.Second, "<3m"},
		{2*time.Hour + 5*time.Minute + 30*time.Second, "<2h06m"}, {47*time.Hour + 59*time.Minute, "<2d"},
		{3*24*time.Hour + time.Hour, "<4d"},
	} {
		if got := Age(now, now.Add(-c.ago)); got != c.want {
			t.Errorf("%v ago: %q, want %q", c.ago, got, c.want)
		}
	}
	texts := map[string]bool{}
	for ago := time.Duration(0); ago < time.Minute; ago += 100 * time.Millisecond {
		got := Age(now, now.Add(-ago))
		texts[got] = true
		if !strings.HasPrefix(got, "<") {
			continue
		}
		bound, err := time.ParseDuration(strings.Replace(got[1:], "1m", "60s", 1))
		if err != nil || bound <= ago+time.Second {
			t.Fatalf("%v ago reads %q: younger than it is a second later", ago, got)
		}
	}
	for ago := time.Minute; ago < 4*24*time.Hour; ago += 7 * time.Second {
		got := Age(now, now.Add(-ago))
		var bound time.Duration
		if days, ok := strings.CutSuffix(strings.TrimPrefix(got, "<"), "d"); ok {
			n, _ := strconv.Atoi(days)
			bound = time.Duration(n) * 24 * time.Hour
		} else {
			bound, _ = time.ParseDuration(strings.TrimPrefix(got, "<"))
		}
		if !strings.HasPrefix(got, "<") || bound <= ago+time.Second || bound > ago+time.Second+24*time.Hour {
			t.Fatalf("%v ago reads %q: not the bound it is under a second later", ago, got)
		}
	}
	if len(texts) != 7 { // <10s … <50s, <1m, <2m
		t.Errorf("a minute of ages reads %d texts: %v", len(texts), texts)
	}
}

// TestUntilSaysTheTimeLeftAndThenThatItExpired: a deadline two hours
// ahead read "in 0s" through Age, which clamps what is ahead of now.
func TestUntilSaysTheTimeLeftAndThenThatItExpired(t *testing.T) {
	now := time.Date(2026, 11, 27, 23, 38, 0, 0, time.UTC)
	for _, c := range []struct {
		at   time.Time
		want string
	}{
		{now.Add(2*time.Hour - time.Minute), "in 1h59m"},
		{now.Add(40 * time.Second), "in 40s"},
		{now.Add(3 * 24 * time.Hour), "in 3d"},
		{now, "expired <10s ago"},
		{now.Add(-3*24*time.Hour - time.Hour), "expired <4d ago"},
		{time.Time{}, "never"},
	} {
		if got := Until(now, c.at); got != c.want {
			t.Errorf("Until(%v): %q, want %q", c.at.Sub(now), got, c.want)
		}
	}
}

// TestHealthLineNamesEveryInterface: when every interface fails and the
// full health line is too long, each interface is still named with its
// state, in short, rather than the last ones cut off.
func TestHealthLineNamesEveryInterface(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	var feeds []live.Feed
	names := []string{"liquidity", "payments", "auth", "reporting", "wallet", "custody"}
	for _, n := range names {
		feeds = append(feeds, live.ValueFeed(live.KeyOf[int](live.Topic("t-"+n)), func(context.Context) (int, error) {
			return 0, errors.New("refused")
		}, live.FeedOptions[int, int]{Interval: time.Minute, Interface: apierr.Interface(n)}))
	}
	st := live.New(live.Options{Now: func() time.Time { return now }, Feeds: feeds})
	for _, n := range names {
		st.FetchNow(context.Background(), live.Topic("t-"+n))
	}
	ctx := testContext("test", false)
	ctx.Store = st
	a := NewApp(ctx, &listView{name: "alpha", rows: []string{"a-1"}})
	a.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	line := strings.Split(a.Frame(), "\n")[1]
	for _, n := range names {
		if !strings.Contains(line, n+" ✖") {
			t.Errorf("the health line at 80 columns lacks %q: %q", n+" ✖", line)
		}
	}
}

// TestTabsNameWhatFits: every tab is named, with its key, when the line
// holds them; then the views with a number key (those past the ninth by
// their letter key); then only the open view. The trail is never what is
// cut. Every label is a key: I and L jump to the tenth and eleventh.
func TestTabsNameWhatFits(t *testing.T) {
	var views []View
	for _, n := range []string{"overview", "quotes", "balances", "payments", "wallets", "reports", "addresses", "alerts", "errors", "identities", "ledger"} {
		views = append(views, &listView{name: n, rows: []string{"x"}})
	}
	a := NewApp(testContext("sandbox", false), views...)
	for _, c := range []struct {
		width int
		want  string
	}{
		{140, "[1 Overview]  2 Quotes  3 Balances  4 Payments  5 Wallets  6 Reports  7 Addresses  8 Alerts  9 Errors  I Identities  L Ledger"},
		{110, "[1 Overview]  2 Quotes  3 Balances  4 Payments  5 Wallets  6 Reports  7 Addresses  8 Alerts  9 Errors  I  L"},
		{80, "[1 Overview]  2  3  4  5  6  7  8  9  I  L"},
	} {
		a.width = c.width
		if got := strings.TrimSpace(a.tabs()); got != c.want {
			t.Errorf("at %d columns:\n got %q\nwant %q", c.width, got, c.want)
		}
	}
	a.Update(uitest.Key("L"))
	if a.active != 10 {
		t.Errorf("L: active %d, want the ledger (10)", a.active)
	}
}

// TestHealthLineSaysWhatIsNotPolled: an interface read once and needed by
// no view of the session since is idle, with the age of its last read, not
// a green mark whose age grows past any interval; when the session's view
// watches it, it is polled.
func TestHealthLineSaysWhatIsNotPolled(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	k := live.KeyOf[int]("t-wallet")
	st := live.New(live.Options{Now: func() time.Time { return now }, Feeds: []live.Feed{live.ValueFeed(k,
		func(context.Context) (int, error) { return 1, nil }, live.FeedOptions[int, int]{Interval: time.Minute, Interface: apierr.Wallet})}})
	st.FetchNow(context.Background(), "t-wallet")
	now = now.Add(5 * time.Minute)
	ctx := testContext("test", false)
	ctx.Store = st
	idle := &listView{name: "alpha", rows: []string{"a-1"}}
	a := NewApp(ctx, idle, &topicView{listView{name: "bravo", rows: []string{"b-1"}}, []live.Topic{"t-wallet"}})
	a.Init()
	defer a.Close()
	a.Update(tea.WindowSizeMsg{Width: 120, Height: 24})
	if got := a.healthLine(now, 0); got != "wallet ○ idle <6m" {
		t.Errorf("not watched by the session: %q", got)
	}
	a.Update(uitest.Key("2"))
	if got := a.healthLine(now, 0); !strings.HasPrefix(got, "wallet ●") {
		t.Errorf("watched by the session's view: %q", got)
	}
}

// topicView is a listView that reads topics.
type topicView struct {
	listView
	topics []live.Topic
}

func (v *topicView) Topics() []live.Topic { return v.topics }

// TestHeaderKeepsTheAlertsAt80Columns: a read-only session at 80 columns
// drops the date, then the program's name, rather than cut the alerts.
func TestHeaderKeepsTheAlertsAt80Columns(t *testing.T) {
	ctx := testContext("test", true)
	ctx.Profile = "production-eu"
	a := NewApp(ctx, &listView{name: "alpha", rows: []string{"a-1"}})
	a.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	head := strings.Split(a.Frame(), "\n")[0]
	if !strings.Contains(head, "alerts") || strings.Contains(head, "…") {
		t.Errorf("the header cuts the alerts: %q", head)
	}
	a.Update(tea.WindowSizeMsg{Width: 120, Height: 24})
	if head := strings.Split(a.Frame(), "\n")[0]; !strings.Contains(head, "2026-11-16 09:30 UTC") || !strings.HasPrefix(head, "treasury") {
		t.Errorf("at 120 columns: %q", head)
	}
}

// TestHeaderShowsBannersUntilWithdrawn: an alert with a banner (the audit
// log broken, every action refused) is named in every header, at 80
// columns too, until it is withdrawn.
func TestHeaderShowsBannersUntilWithdrawn(t *testing.T) {
	ctx := testContext("prod", true)
	ctx.Profile = "production-eu"
	ctx.ReadOnly = true
	a := NewApp(ctx, &listView{name: "alpha", rows: []string{"a-1"}})
	a.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	ctx.Store.Notice(live.Alert{Key: "audit:broken", Severity: live.High, Banner: "AUDIT BROKEN", Title: "Audit log broken at line 46"})
	ctx.Store.Notice(live.Alert{Key: "audit:unwritable", Severity: live.High, Banner: "ACTIONS REFUSED", Title: "Every action is refused"})
	head := strings.Split(a.Frame(), "\n")[0]
	if !strings.Contains(head, "AUDIT BROKEN") || !strings.Contains(head, "ACTIONS REFUSED") || !strings.Contains(head, "2 alerts") {
		t.Errorf("the header at 80 columns: %q", head)
	}
	ctx.Store.Withdraw("audit:broken")
	ctx.Store.Withdraw("audit:unwritable")
	if head := strings.Split(a.Frame(), "\n")[0]; strings.Contains(head, "AUDIT") || strings.Contains(head, "REFUSED") {
		t.Errorf("after the alerts were withdrawn: %q", head)
	}
}

// TestHeaderSaysTheSiteIsWeakGolden: the site's watch's alerts (a node
// behind: SITE WEAK) are named in the header at 80 columns, beside the
// count of alerts; the alert's words are the alerts view's.
func TestHeaderSaysTheSiteIsWeakGolden(t *testing.T) {
	ctx := testContext("prod", true)
	ctx.Profile = "production-eu"
	a := NewApp(ctx, &listView{name: "alpha", rows: []string{"a-1"}})
	a.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	ctx.Store.Notice(live.Alert{Key: "site:node:b3", Severity: live.Medium, Code: "SITE", Banner: "SITE WEAK",
		Title: "b3 16 lines behind: the site cannot lose another node"})
	lines := strings.Split(a.Frame(), "\n")
	golden.RequireEqual(t, []byte(strings.Join(lines[:2], "\n")+"\n"))
}

// TestHealthTurnsAtTheFirstFailedAttempt: an interface whose call fails
// and is being retried is marked at once (↻ with the attempt and status,
// the age of its last success), ✖ when the retries are given up, ● only
// after a success; and the header names a platform clock more than a
// second away from the host's.
func TestHealthTurnsAtTheFirstFailedAttempt(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	k := live.KeyOf[int]("t-quotes")
	st := live.New(live.Options{Now: func() time.Time { return now }, Feeds: []live.Feed{live.ValueFeed(k,
		func(context.Context) (int, error) { return 1, nil }, live.FeedOptions[int, int]{Interval: time.Second, Interface: apierr.Liquidity, Always: true})}})
	st.FetchNow(context.Background(), "t-quotes")
	ctx := testContext("test", false)
	ctx.Store = st
	a := NewApp(ctx, &topicView{listView{name: "quotes", rows: []string{"q"}}, []live.Topic{"t-quotes"}})
	a.Init()
	defer a.Close()
	a.Update(tea.WindowSizeMsg{Width: 120, Height: 24})
	now = now.Add(14 * time.Second)
	unavailable := &apierr.Error{Interface: apierr.Liquidity, Method: "GET", Path: "/api/v0/quotes", HTTPStatus: 503, Class: apierr.ClassRetry}
	st.Retrying(apierr.Liquidity, "/api/v0/quotes", 2, 5, unavailable)
	if got := a.healthLine(now, 0); got != "liquidity ↻ retrying 2/5 503, ok <20s ago" {
		t.Errorf("while retrying: %q", got)
	}
	st.Observe(apierr.Liquidity, "/api/v0/quotes", 0, unavailable) // given up
	if got := a.healthLine(now, 0); !strings.HasPrefix(got, "liquidity ✖ 503") || !strings.HasSuffix(got, "ok <20s ago") {
		t.Errorf("given up: %q", got)
	}
	// The next call is retried: still ✖ (nothing has worked since), with
	// the retry said.
	st.Retrying(apierr.Liquidity, "/api/v0/quotes", 1, 5, unavailable)
	if got := a.healthLine(now, 0); got != "liquidity ✖ 503, retrying 1/5 503, ok <20s ago" {
		t.Errorf("retrying after giving up: %q", got)
	}
	// A body that could not be read came with 200: the mark says so,
	// not "200".
	st.Observe(apierr.Liquidity, "/api/v0/quotes", 0, &apierr.Error{Interface: apierr.Liquidity, Method: "GET", Path: "/api/v0/quotes", HTTPStatus: 200, Class: apierr.ClassMalformed})
	if got := a.healthLine(now, 0); !strings.HasPrefix(got, "liquidity ✖ malformed") {
		t.Errorf("given up on a malformed body: %q", got)
	}
	st.Observe(apierr.Liquidity, "/api/v0/quotes", 0, nil)
	if got := a.healthLine(now, 0); !strings.HasPrefix(got, "liquidity ●") {
		t.Errorf("after a success: %q", got)
	}
	// The platform's clock, ten minutes ahead by its Date headers.
	for i := range 3 {
		at := now.Add(time.Duration(i) * time.Second)
		st.ObserveDate(apierr.Liquidity, at, at, at.Add(10*time.Minute))
	}
	if got := a.header(); !strings.Contains(got, "liquidity clock +10m") {
		t.Errorf("header without the clock offset:\n%s", got)
	}
}

// TestHealthNamesAFailureThatIsNotAnAnswer: a poll that timed out gives
// up with "timed out", as a call that timed out does, not "error".
func TestHealthNamesAFailureThatIsNotAnAnswer(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	k := live.KeyOf[int]("t-payments")
	st := live.New(live.Options{Now: func() time.Time { return now }, Feeds: []live.Feed{live.ValueFeed(k,
		func(context.Context) (int, error) {
			return 0, fmt.Errorf("read payments: %w", context.DeadlineExceeded)
		},
		live.FeedOptions[int, int]{Interval: time.Second, Interface: apierr.Payments, Always: true})}})
	st.FetchNow(context.Background(), "t-payments")
	ctx := testContext("test", false)
	ctx.Store = st
	a := NewApp(ctx, &topicView{listView{name: "payments", rows: []string{"p"}}, []live.Topic{"t-payments"}})
	a.Init()
	defer a.Close()
	a.Update(tea.WindowSizeMsg{Width: 120, Height: 24})
	if got := a.healthLine(now, 0); !strings.Contains(got, "payments ✖ timed out") {
		t.Errorf("health after a poll that timed out: %q", got)
	}
}

// TestIdleFrameChangesOnlyWithWhatItShows: a session whose data does not
// change draws the same frame from one tick to the next (bubbletea then
// sends nothing); it changes when an age passes its ten-second bound and
// when the clock's minute turns.
func TestIdleFrameChangesOnlyWithWhatItShows(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 40, 0, time.UTC)
	a := quotesSession(t, &now, time.Second)
	frameAt := func(d time.Duration) string {
		now = time.Date(2026, 3, 1, 12, 0, 40, 0, time.UTC).Add(d)
		a.Update(Tick{Now: now})
		return a.View().Content
	}
	first := frameAt(time.Second)
	for _, d := range []time.Duration{2 * time.Second, 5 * time.Second, 8 * time.Second} {
		if got := frameAt(d); got != first {
			t.Fatalf("%v later the frame changed with nothing shown changing:\n%s\nthen\n%s", d, first, got)
		}
	}
	if got := frameAt(9 * time.Second); got == first || !strings.Contains(got, "liquidity ● <20s") {
		t.Errorf("the age passed ten seconds, the frame did not say it:\n%s", got)
	}
	if got := frameAt(20 * time.Second); !strings.Contains(got, "12:01 UTC") {
		t.Errorf("the minute turned, the clock did not:\n%s", got)
	}
}

// TestAgesStepAtTicks: the frame drawn for a store change between two
// ticks shows the ages the tick showed (they hold until the next tick), so
// that ages step at ticks only, all in one frame: an age whose ten-second
// bound passes between two ticks (the data was read at 40.5 s) steps at
// the next tick, not in a frame of its own drawn for a store change.
func TestAgesStepAtTicks(t *testing.T) {
	at := func(d time.Duration) time.Time { return time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC).Add(d) }
	now := at(40500 * time.Millisecond)
	a := quotesSession(t, &now, time.Minute)
	now = at(49 * time.Second)
	a.Update(Tick{Now: now})
	ticked := a.View().Content
	if !strings.Contains(ticked, "liquidity ● <10s") {
		t.Fatalf("8.5 s after the read, the age is not under ten seconds:\n%s", ticked)
	}
	now = at(49600 * time.Millisecond) // 10.1 s after the read
	a.Update(StoreChanged{})
	if got := a.View().Content; got != ticked {
		t.Errorf("a store change between two ticks drew the ages anew:\n%s\nthen\n%s", ticked, got)
	}
	now = at(50 * time.Second)
	a.Update(Tick{Now: now})
	if got := a.View().Content; !strings.Contains(got, "liquidity ● <20s") {
		t.Errorf("at the next tick the age did not pass ten seconds:\n%s", got)
	}
}

func badgeText(_ *lipgloss.Style, text string) string { return text }

// TestAgeChange: Age's text is the same until AgeChange has passed, and
// differs then, for ages under a minute, in minutes, hours and days, and
// for a time ahead of now.
func TestAgeChange(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, ago := range []time.Duration{0, 300 * time.Millisecond, 8500 * time.Millisecond, 9 * time.Second, 59 * time.Second,
		61*time.Second + 700*time.Millisecond, 59 * time.Minute, 3*time.Hour + 30*time.Second, 47*time.Hour + 59*time.Minute, 50 * time.Hour,
		-2 * time.Second, -1500 * time.Millisecond} {
		at := now.Add(-ago)
		d := AgeChange(now, at)
		if d <= 0 {
			t.Fatalf("%v ago: changes in %v", ago, d)
		}
		was := Age(now, at)
		if got := Age(now.Add(d-time.Millisecond), at); got != was {
			t.Errorf("%v ago (%s): %q %v later, before AgeChange's %v", ago, was, got, d-time.Millisecond, d)
		}
		if got := Age(now.Add(d), at); got == was {
			t.Errorf("%v ago (%s): still %q after AgeChange's %v", ago, was, got, d)
		}
	}
	if d := AgeChange(now, time.Time{}); d < 24*time.Hour {
		t.Errorf("a zero time's age (never) changes in %v", d)
	}
}

// quotesSession is a 120x24 session on a view of one liquidity topic,
// read once at *now, on a clock that reads *now.
func quotesSession(t *testing.T, now *time.Time, every time.Duration) *App {
	t.Helper()
	k := live.KeyOf[int]("t-quotes")
	st := live.New(live.Options{Now: func() time.Time { return *now }, Feeds: []live.Feed{live.ValueFeed(k,
		func(context.Context) (int, error) { return 1, nil }, live.FeedOptions[int, int]{Interval: every, Interface: apierr.Liquidity, Always: true})}})
	st.FetchNow(context.Background(), "t-quotes")
	ctx := testContext("test", false)
	ctx.Store, ctx.Now = st, func() time.Time { return *now }
	a := NewApp(ctx, &topicView{listView{name: "quotes", rows: []string{"q"}}, []live.Topic{"t-quotes"}})
	a.Init()
	t.Cleanup(a.Close)
	a.Update(tea.WindowSizeMsg{Width: 120, Height: 24})
	return a
}

// The body fitted line by line from the last body's lines is the body
// fitted whole: lines changed, added, removed, moved, too wide, at a new
// width.
func TestFitBodyReusesOnlyTheSameLines(t *testing.T) {
	a := &App{ctx: &Context{Shared: &Shared{}}}
	wide := strings.Repeat("é", 30)
	bodies := []struct {
		s    string
		w, h int
	}{
		{"a\nb\n" + wide + "\nd", 20, 6},
		{"a\nB\n" + wide + "\nd\ne", 20, 6}, // one changed, one added
		{"a\nB", 20, 6},                     // lines gone
		{"a\nB\n" + wide, 20, 6},
		{"a\nB\n" + wide, 25, 6},                // a new width cuts the same line anew
		{"1\n2\n3\n4\n5\n6\n7\n8", 25, 4},       // more lines than fit
		{"1\n2\n3\n4\n5\n6\n7\n8", 25, 4},       // the same body
		{"\x1b[1m" + wide + "\x1b[m\n2", 10, 2}, // styled
		{"x\n" + wide + "\n2", 10, 3},           // lines moved down by a new one
		{"x\n" + wide + "\n2", 12, 3},           // moved, at a new width
	}
	for i, b := range bodies {
		if got, want := a.fitBody(b.s, b.w, b.h), fit(b.s, b.w, b.h); got != want {
			t.Errorf("body %d: %q, want %q", i, got, want)
		}
	}
	// Sessions of one process fit a line once for all: the second finds
	// the first's, and shows the same.
	d := NewKept()
	s1, s2 := &App{ctx: &Context{Shared: &Shared{Kept: d}}}, &App{ctx: &Context{Shared: &Shared{Kept: d}}}
	for i, b := range bodies {
		got1 := s1.fitBody(b.s, b.w, b.h)
		n := keep.Count[lineFit](d)
		if i == 0 && n == 0 {
			t.Fatal("the first session's lines were not kept for the others")
		}
		got2 := s2.fitBody(b.s, b.w, b.h)
		if want := fit(b.s, b.w, b.h); got1 != want || got2 != want {
			t.Errorf("body %d shared: %q and %q, want %q", i, got1, got2, want)
		}
		if m := keep.Count[lineFit](d); m != n {
			t.Errorf("body %d: the second session fitted lines the first had: %d kept, then %d", i, n, m)
		}
	}
}

// siteRelay is a site as a session's store knows it: who polls.
type siteRelay struct{ p live.Poller }

func (r *siteRelay) Poller() live.Poller                           { return r.p }
func (r *siteRelay) Publish(live.Topic, live.Polled)               {}
func (r *siteRelay) Want(live.Topic, time.Duration, time.Duration) {}
func (r *siteRelay) Wanted(live.Topic) (bool, time.Duration)       { return false, 0 }
func (r *siteRelay) AskWhole(live.Topic)                           {}
func (r *siteRelay) ReadsHere(live.Topic, string)                  {}
func (r *siteRelay) WantDetails([]string)                          {}
func (r *siteRelay) Fence() func() error                           { return nil }

// TestHealthLineNamesTheSitesPoller: in a site, the health line says
// first which node polls the platform and since when (UTC), that this
// one polls alone and why (never quietly), or that nobody polls yet;
// without a site it says nothing of it.
func TestHealthLineNamesTheSitesPoller(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	since := time.Date(2026, 3, 1, 11, 42, 0, 0, time.UTC)
	st := live.New(live.Options{Now: func() time.Time { return now }})
	ctx := testContext("test", false)
	ctx.Store = st
	a := NewApp(ctx, &listView{name: "alpha", rows: []string{"a-1"}})
	a.Init()
	defer a.Close()
	a.Update(tea.WindowSizeMsg{Width: 120, Height: 24})
	if got := a.pollerPart(0); got != "" {
		t.Errorf("no site: %q, want nothing", got)
	}
	r := &siteRelay{}
	st.ShareWith(r)
	for _, c := range []struct {
		p    live.Poller
		want string
	}{
		{live.Poller{}, "no poller yet"},
		{live.Poller{Node: "bastion-b"}, "polled by bastion-b"}, // since when not known yet: no 00:00
		{live.Poller{Node: "bastion-b\x1b[2J", Since: since}, `polled by bastion-b\x1b[2J since 11:42`},
		{live.Poller{Node: "bastion-a", Since: since, Here: true}, "polled here (bastion-a) since 11:42"},
		{live.Poller{Node: "bastion-a", Since: since, Here: true, Alone: "the site cannot be reached: nats: timeout"},
			"polls alone since 11:42: the site cannot be reached: nats: timeout"},
	} {
		r.p = c.p
		if got := a.pollerPart(0); got != c.want {
			t.Errorf("%+v: %q, want %q", c.p, got, c.want)
		}
		if got := a.pollerPart(2); c.p.Node != "" && (strings.Contains(got, "since") || !strings.Contains(got, "poll")) {
			t.Errorf("%+v, brief: %q, want who polls without when", c.p, got)
		}
		if got := a.healthLine(now, 0); !strings.HasPrefix(got, c.want) {
			t.Errorf("%+v: health line %q, want it first", c.p, got)
		}
	}
}

// TestHeaderKeepsTheAlertCountWhole: at 80 columns with a banner and a
// dozen alerts, the header drops what matters less (the clock, a token of
// no concern) and shortens the alerts' badge before it would cut it: the
// count stays whole (a bastion admin saw "⚠ 12 a…", and with SITE WEAK
// no count at all).
func TestHeaderKeepsTheAlertCountWhole(t *testing.T) {
	ctx := testContext("prod", true)
	ctx.Profile = "production-eu-west-2"
	ctx.ReadOnly = true
	a := NewApp(ctx, &listView{name: "alpha", rows: []string{"a-1"}})
	a.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	ctx.Store.Notice(live.Alert{Key: "site:weak", Severity: live.Medium, Banner: "SITE WEAK", Title: "b3 16 lines behind"})
	ctx.Store.Notice(live.Alert{Key: "audit:unwritable", Severity: live.High, Banner: "ACTIONS REFUSED", Title: "Every action is refused"})
	for i := range 10 {
		ctx.Store.Notice(live.Alert{Key: fmt.Sprint("low:", i), Severity: live.Medium, Title: fmt.Sprint("low ", i)})
	}
	head := strings.Split(a.Frame(), "\n")[0]
	if !strings.Contains(head, "SITE WEAK") || !strings.Contains(head, "ACTIONS REFUSED") || strings.Contains(head, "…") ||
		!regexp.MustCompile(`⚠ 12( alerts)?\s*$`).MatchString(head) {
		t.Errorf("the header at 80 columns: %q", head)
	}
}

// TestClockBadgeNamesTheClocksThatAgree: interfaces whose clocks read the
// same offset are named together, whichever is a second further off
// (the badge named one, then another, as the estimates moved); the
// platform's clock when all known read so.
func TestClockBadgeNamesTheClocksThatAgree(t *testing.T) {
	th := NewTheme(colorprofile.Ascii, true, Skin{})
	day := 24 * time.Hour
	h := func(i apierr.Interface, off time.Duration) live.Health {
		return live.Health{Interface: i, ClockOffset: off, ClockKnown: true}
	}
	for _, c := range []struct {
		hs   []live.Health
		want string
	}{
		{[]live.Health{h(apierr.Liquidity, -21*day), h(apierr.Custody, -21*day-time.Second), h(apierr.Wallet, -21*day)}, "platform clock -21d"},
		{[]live.Health{h(apierr.Liquidity, -21*day-time.Second), h(apierr.Custody, -21*day), h(apierr.Wallet, -21*day)}, "platform clock -21d"},
		{[]live.Health{h(apierr.Liquidity, 0), h(apierr.Custody, -21*day), h(apierr.Wallet, -21*day-2*time.Second)}, "custody, wallet clocks -21d"},
		{[]live.Health{h(apierr.Liquidity, 10*time.Minute), h(apierr.Custody, 0), {Interface: apierr.Wallet}}, "liquidity clock +10m"},
		{[]live.Health{h(apierr.Liquidity, 10*time.Minute), h(apierr.Custody, 3*time.Minute)}, "liquidity clock +10m"},
		{[]live.Health{h(apierr.Liquidity, 500*time.Millisecond), {Interface: apierr.Wallet}}, ""},
	} {
		if _, got := clockBadge(&th, c.hs); got != c.want {
			t.Errorf("%+v: %q, want %q", c.hs, got, c.want)
		}
	}
}
