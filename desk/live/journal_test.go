package live

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"treasury/wire/apierr"
)

// clock is a settable clock for the store.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func events(es []AlertEvent) string {
	var out []string
	for _, e := range es {
		s := fmt.Sprintf("%s %s %s", e.Change, e.Alert.Key, e.Alert.Severity)
		if e.Initial {
			s += " initial"
		}
		if e.Repeat {
			s += " repeat"
		}
		out = append(out, s)
	}
	return strings.Join(out, "; ")
}

// TestAlertJournal: the journal notes each alert opened, raised and
// closed once for the process; the alerts of a source's first judgement
// are found at start, not news; an alert that closes and opens again
// within RepeatQuiet at the same severity is a repeat, one that rises is
// news again.
func TestAlertJournal(t *testing.T) {
	c := &clock{t: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)}
	level := Medium
	var lowRunway bool
	s := New(Options{Now: c.now, Inline: true, Feeds: []Feed{ValueFeed(KeyOf[int]("bal"), func(context.Context) (int, error) { return 1, nil },
		FeedOptions[int, int]{Interval: time.Hour, Alerts: func(int, time.Time) []Alert {
			if !lowRunway {
				return nil
			}
			return []Alert{{Key: "low", Severity: level, Code: "LOW"}}
		}})}})
	defer s.Close()
	lowRunway = true
	s.FetchNow(context.Background(), "bal") // the first judgement: found at start
	mark := s.AlertMark()
	got, next := s.AlertEvents(0)
	if events(got) != "opened low MEDIUM initial" || next != mark || got[0].Notable(Low) {
		t.Fatalf("first judgement: %s (mark %d of %d)", events(got), next, mark)
	}

	step := func(d time.Duration, on bool, sev Severity) {
		c.add(d)
		lowRunway, level = on, sev
		s.Rejudge()
	}
	step(time.Minute, false, Medium)
	step(time.Minute, true, Medium) // back within the quiet time: a repeat
	step(time.Minute, true, High)   // rose: news
	step(time.Minute, false, High)
	step(time.Minute, true, High) // back at the same level: a repeat
	step(RepeatQuiet, false, High)
	step(time.Minute, true, High) // long after: news again
	got, next = s.AlertEvents(mark)
	want := "closed low MEDIUM; opened low MEDIUM repeat; raised low HIGH; closed low HIGH; opened low HIGH repeat; closed low HIGH; opened low HIGH"
	if events(got) != want {
		t.Errorf("events:\n%s\nwant:\n%s", events(got), want)
	}
	var news []string
	for _, e := range got {
		if e.Notable(High) {
			news = append(news, e.Change.String())
		}
	}
	if strings.Join(news, " ") != "raised opened" {
		t.Errorf("notable at HIGH: %v", news)
	}
	if more, again := s.AlertEvents(next); len(more) != 0 || again != next {
		t.Errorf("read again: %s", events(more))
	}

	// A call's failures raise an error alert: news, never found at start.
	for range RepeatedSystemErrors {
		s.Observe(apierr.Payments, "/v2/balances", time.Millisecond, errors.New("connection refused"))
	}
	got, _ = s.AlertEvents(next)
	if events(got) != "opened net:payments /v2/balances MEDIUM" {
		t.Errorf("after failures: %s", events(got))
	}
}

// TestJudgeStale: a feed polled now without a good answer for the warning
// time is a warning, for the critical time critical (never before three
// of its intervals); one nobody watches is not judged; an answer clears
// it.
func TestJudgeStale(t *testing.T) {
	c := &clock{t: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)}
	fail := false
	s := New(Options{Now: c.now, Inline: true, Feeds: []Feed{
		ValueFeed(KeyOf[int]("quotes"), func(context.Context) (int, error) {
			if fail {
				return 0, errors.New("503")
			}
			return 1, nil
		}, FeedOptions[int, int]{Interface: apierr.Liquidity, Interval: 2 * time.Second, Always: true}),
		ValueFeed(KeyOf[int]("reports"), func(context.Context) (int, error) { return 1, nil },
			FeedOptions[int, int]{Interface: apierr.Reporting, Interval: 5 * time.Minute}),
		ValueFeed(KeyOf[int]("wallets"), func(context.Context) (int, error) { return 1, nil },
			FeedOptions[int, int]{Interface: apierr.Wallet, Interval: 30 * time.Second, Always: true}),
	}})
	defer s.Close()
	ctx := context.Background()
	s.FetchNow(ctx, "quotes")
	s.FetchNow(ctx, "reports")
	s.FetchNow(ctx, "wallets")
	stale := func() string {
		var out []string
		for _, a := range s.Alerts() {
			if a.Code == "STALE" {
				out = append(out, a.Key+" "+a.Severity.String())
			}
		}
		return strings.Join(out, ", ")
	}
	fail = true
	c.add(59 * time.Second)
	s.FetchNow(ctx, "quotes")
	s.JudgeStale(time.Minute, 5*time.Minute)
	if got := stale(); got != "" {
		t.Fatalf("at 59 s: %s", got)
	}
	c.add(time.Second)
	s.JudgeStale(time.Minute, 5*time.Minute)
	// wallets answered a minute ago too, but its interval is 30 s: not
	// before 90 s. reports is watched by nobody.
	if got := stale(); got != "stale:quotes MEDIUM" {
		t.Fatalf("at 60 s: %q", got)
	}
	c.add(30 * time.Second)
	s.JudgeStale(time.Minute, 5*time.Minute)
	if got := stale(); got != "stale:quotes MEDIUM, stale:wallets MEDIUM" {
		t.Fatalf("at 90 s: %q", got)
	}
	for _, a := range s.Alerts() {
		if a.Key == "stale:quotes" && (a.Interface != apierr.Liquidity || !strings.Contains(a.Title, "no good answer since 12:00:00 UTC (warning after 1m0s): liquidity: 503")) {
			t.Errorf("alert %+v", a)
		}
	}
	c.add(4 * time.Minute)
	s.JudgeStale(time.Minute, 5*time.Minute)
	if got := stale(); got != "stale:quotes HIGH, stale:wallets HIGH" {
		t.Fatalf("at 5m30s: %q", got)
	}
	fail = false
	s.FetchNow(ctx, "quotes")
	s.FetchNow(ctx, "wallets")
	s.JudgeStale(time.Minute, 5*time.Minute)
	if got := stale(); got != "" {
		t.Fatalf("after answers: %q", got)
	}
}
