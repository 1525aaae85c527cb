// Package alerthook posts alerts to an outgoing webhook, for the people
// who are not looking at a dashboard: `treasury serve` follows the live
// store's alert journal and posts each new alert at the profile's
// severity or above (HIGH by default: critical), each one it told that
// closes, and those open when it starts.
//
// The body is {"text": "..."}: what the incoming webhooks of Slack,
// Mattermost, Rocket.Chat, Google Chat and Microsoft Teams take (Discord
// takes it at the webhook's /slack address). A post that fails for a
// reason worth retrying (no answer, a 5xx, 429) is retried with a growing
// wait (Retry-After when the server gives one), up to Attempts; a 4xx
// other than 429 is not retried (the address is wrong or revoked). At
// most PerMinute posts a minute leave: alerts that arrive while the next
// post waits are folded into it, so a storm of alerts is a few messages,
// never a flood and never lost. Every attempt is a line of the request
// log (requests.log) with its status and duration, never the address,
// whose path is the hook's credential.
package alerthook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"treasury/desk/live"
)

// Defaults.
const (
	DefaultPerMinute = 6
	DefaultAttempts  = 5
	DefaultBackoff   = 2 * time.Second
	// MaxLines bounds the alerts one message lists; the rest are counted.
	MaxLines = 10
	// maxTitle bounds an alert's title in a message.
	maxTitle = 300
	// callTimeout bounds one post.
	callTimeout = 10 * time.Second
)

// Options configure a Hook.
type Options struct {
	// URL is the incoming webhook's address (a secret).
	URL string
	// MinSeverity is the least severity posted.
	MinSeverity live.Severity
	// PerMinute bounds the posts a minute (default DefaultPerMinute).
	PerMinute int
	// Attempts bounds the attempts of one post (default DefaultAttempts);
	// Backoff is the first wait between them, doubled each time.
	Attempts int
	Backoff  time.Duration
	// Profile and Environment name where the alerts come from.
	Profile, Environment string
	// HTTP sends the posts (default: a client with a 10 s timeout).
	HTTP *http.Client
	// Log receives a line per attempt (the request log); nil logs nothing.
	Log *slog.Logger
	// UserAgent is sent with every post.
	UserAgent string
	// Now and Sleep are the clock and the waits (tests replace them).
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
}

// Hook posts alerts to one webhook.
type Hook struct {
	o    Options
	host string

	mu     sync.Mutex
	queue  []line
	signal chan struct{}
	told   map[string]bool // keys of the alerts posted as open
	lastAt time.Time       // when the last post left
	// started is closed once Run has read the alerts open at its start.
	started chan struct{}
}

// line is one alert in a message.
type line struct {
	change live.AlertChange
	start  bool // open when the hook started
	alert  live.Alert
}

// New checks the options and builds a hook.
func New(o Options) (*Hook, error) {
	u, err := url.Parse(o.URL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, errors.New("alert webhook: the address must be an http:// or https:// URL")
	}
	if o.PerMinute <= 0 {
		o.PerMinute = DefaultPerMinute
	}
	if o.Attempts <= 0 {
		o.Attempts = DefaultAttempts
	}
	if o.Backoff <= 0 {
		o.Backoff = DefaultBackoff
	}
	if o.HTTP == nil {
		o.HTTP = &http.Client{Timeout: callTimeout}
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Sleep == nil {
		o.Sleep = sleep
	}
	return &Hook{o: o, host: u.Host, signal: make(chan struct{}, 1), told: map[string]bool{}, started: make(chan struct{})}, nil
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Run follows st's alerts and posts them until ctx ends. The alerts open
// when it starts are posted first, as open at start.
func (h *Hook) Run(ctx context.Context, st *live.Store) {
	sub := st.Subscribe()
	defer sub.Close()
	done := make(chan struct{})
	go func() {
		defer close(done)
		h.send(ctx)
	}()
	evs, mark := st.AlertEvents(0)
	h.take(evs, true)
	close(h.started)
	for {
		select {
		case <-ctx.Done():
			<-done
			return
		case <-sub.C():
		}
		evs, mark = st.AlertEvents(mark)
		h.take(evs, false)
	}
}

// take queues the events worth a post: a new alert (or one raised) at the
// least severity or above, not a repeat; an alert posted that closed. At
// start, the alerts still open are posted as open at start.
func (h *Hook) take(evs []live.AlertEvent, start bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if start {
		open := map[string]live.Alert{}
		for _, e := range evs {
			if e.Change == live.Closed {
				delete(open, e.Alert.Key)
			} else {
				open[e.Alert.Key] = e.Alert
			}
		}
		for _, e := range evs { // in the journal's order
			if a, ok := open[e.Alert.Key]; ok && a.Severity >= h.o.MinSeverity {
				h.queue = append(h.queue, line{change: live.Opened, start: true, alert: a})
				h.told[a.Key] = true
				delete(open, a.Key)
			}
		}
	} else {
		for _, e := range evs {
			switch {
			case e.Change == live.Closed && h.told[e.Alert.Key]:
				delete(h.told, e.Alert.Key)
				h.queue = append(h.queue, line{change: live.Closed, alert: e.Alert})
			case e.Change != live.Closed && (e.Initial || !e.Repeat) && e.Alert.Severity >= h.o.MinSeverity:
				h.told[e.Alert.Key] = true
				h.queue = append(h.queue, line{change: e.Change, start: e.Initial, alert: e.Alert})
			}
		}
	}
	if len(h.queue) > 0 {
		select {
		case h.signal <- struct{}{}:
		default:
		}
	}
}

// send posts what is queued, one message at a time, at most PerMinute a
// minute, until ctx ends.
func (h *Hook) send(ctx context.Context) {
	gap := time.Minute / time.Duration(h.o.PerMinute)
	for {
		select {
		case <-ctx.Done():
			return
		case <-h.signal:
		}
		h.mu.Lock()
		wait := time.Duration(0)
		if !h.lastAt.IsZero() {
			wait = h.lastAt.Add(gap).Sub(h.o.Now())
		}
		h.mu.Unlock()
		if wait > 0 {
			if h.o.Sleep(ctx, wait) != nil {
				return
			}
		}
		h.mu.Lock()
		lines := h.queue
		h.queue = nil
		h.lastAt = h.o.Now()
		h.mu.Unlock()
		if len(lines) == 0 {
			continue
		}
		h.post(ctx, lines)
	}
}

// Message is the body posted.
type Message struct {
	Text string `json:"text"`
}

// pending counts the alerts waiting for the next post.
func (h *Hook) pending() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.queue)
}

// text is the message of lines.
func (h *Hook) text(lines []line) string {
	var b strings.Builder
	where := "treasury " + oneLine(h.o.Profile)
	if h.o.Environment != "" {
		where += " (" + oneLine(h.o.Environment) + ")"
	}
	b.WriteString(where + ":")
	for i, l := range lines {
		if i == MaxLines {
			fmt.Fprintf(&b, "\n… and %d more (the alerts view, `a`, has them all)", len(lines)-MaxLines)
			break
		}
		a := l.alert
		var what string
		switch {
		case l.change == live.Closed:
			what = "resolved"
		case l.start:
			what = "open at start"
		case l.change == live.Raised:
			what = "now " + a.Severity.String()
		default:
			what = "new"
		}
		fmt.Fprintf(&b, "\n• %s %s %s: %s", a.Severity, oneLine(a.Code), what, cut(oneLine(a.Title), maxTitle))
		if l.change != live.Closed && a.Guidance != "" && len(lines) == 1 {
			b.WriteString("\n  what to do: " + cut(oneLine(a.Guidance), maxTitle))
		}
	}
	return b.String()
}

// post sends one message, retried.
func (h *Hook) post(ctx context.Context, lines []line) {
	body, _ := json.Marshal(Message{Text: h.text(lines)})
	wait := h.o.Backoff
	for attempt := 1; attempt <= h.o.Attempts; attempt++ {
		retry, after := h.attempt(ctx, body, attempt, len(lines))
		if !retry || attempt == h.o.Attempts {
			return
		}
		if after > 0 {
			wait = after
		}
		if h.o.Sleep(ctx, wait) != nil {
			return
		}
		wait *= 2
	}
}

// attempt posts body once and says whether to try again, and after how
// long when the server said (Retry-After).
func (h *Hook) attempt(ctx context.Context, body []byte, attempt, alerts int) (bool, time.Duration) {
	cctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(cctx, http.MethodPost, h.o.URL, bytes.NewReader(body))
	if err != nil {
		h.log(attempt, alerts, 0, 0, err)
		return false, 0
	}
	req.Header.Set("Content-Type", "application/json")
	if h.o.UserAgent != "" {
		req.Header.Set("User-Agent", h.o.UserAgent)
	}
	start := time.Now()
	resp, err := h.o.HTTP.Do(req)
	took := time.Since(start)
	if err != nil {
		// The error names the URL: say what failed without it.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		h.log(attempt, alerts, 0, took, err)
		return ctx.Err() == nil, 0
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	switch {
	case resp.StatusCode/100 == 2:
		h.log(attempt, alerts, resp.StatusCode, took, nil)
		return false, 0
	case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500:
		h.log(attempt, alerts, resp.StatusCode, took, fmt.Errorf("HTTP %d", resp.StatusCode))
		after := time.Duration(0)
		if s, err := strconv.Atoi(strings.TrimSpace(resp.Header.Get("Retry-After"))); err == nil && s > 0 {
			after = min(time.Duration(s)*time.Second, time.Minute)
		}
		return true, after
	}
	h.log(attempt, alerts, resp.StatusCode, took, fmt.Errorf("HTTP %d: refused, not retried (check the hook's address)", resp.StatusCode))
	return false, 0
}

// log writes an attempt to the request log: never the address's path,
// the hook's credential.
func (h *Hook) log(attempt, alerts, status int, took time.Duration, err error) {
	if h.o.Log == nil {
		return
	}
	attrs := []any{"iface", "alert-webhook", "method", http.MethodPost, "host", h.host, "path", "[redacted]",
		"status", status, "duration_ms", took.Milliseconds(), "attempt", attempt, "alerts", alerts}
	if err != nil {
		if attempt == h.o.Attempts {
			attrs = append(attrs, "gave_up", true)
		}
		h.o.Log.Warn("request", append(attrs, "error", err.Error())...)
		return
	}
	h.o.Log.Info("request", attrs...)
}

// oneLine keeps a text to one line of printable characters: control and
// format characters (an escape, a newline from a server's message) become
// spaces; &, < and > are escaped as Slack asks, so that a server's text
// cannot mention a channel (<!channel>) or write a link.
func oneLine(s string) string {
	s = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == '\u2028' || r == '\u2029' || (r >= '\u200e' && r <= '\u200f') || (r >= '\u202a' && r <= '\u202e') || (r >= '\u2066' && r <= '\u2069') {
			return ' '
		}
		return r
	}, s)
}

func cut(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
