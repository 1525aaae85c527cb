package alerthook

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"treasury/desk/live"
)

// server is an incoming webhook on loopback that counts deliveries and
// answers with the statuses given, in order (then 200).
type server struct {
	*httptest.Server
	mu       sync.Mutex
	statuses []int
	bodies   []string
	types    []string
	got      chan struct{}
}

func newServer(t *testing.T, statuses ...int) *server {
	s := &server{statuses: statuses, got: make(chan struct{}, 100)}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.bodies = append(s.bodies, string(b))
		s.types = append(s.types, r.Header.Get("Content-Type"))
		status := http.StatusOK
		if len(s.statuses) > 0 {
			status, s.statuses = s.statuses[0], s.statuses[1:]
		}
		s.mu.Unlock()
		if status == http.StatusTooManyRequests {
			w.Header().Set("Retry-After", "7")
		}
		w.WriteHeader(status)
		s.got <- struct{}{}
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *server) deliveries() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.bodies...)
}

// wait waits for n more deliveries.
func (s *server) wait(t *testing.T, n int) {
	t.Helper()
	for range n {
		select {
		case <-s.got:
		case <-time.After(10 * time.Second):
			t.Fatalf("a delivery did not come (%d so far)", len(s.deliveries()))
		}
	}
}

// clock is the hook's clock: its waits move it on, and each is reported
// on waits; a test that holds gate keeps a wait from ending.
type clock struct {
	mu    sync.Mutex
	now   time.Time
	waits chan time.Duration
	gate  chan struct{} // nil: waits end at once
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Sleep(ctx context.Context, d time.Duration) error {
	c.waits <- d
	if c.gate != nil {
		select {
		case <-c.gate:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
	return nil
}

// book is a store whose open alerts the test sets.
type book struct {
	st   *live.Store
	mu   sync.Mutex
	open []live.Alert
}

func newBook(t *testing.T, open ...live.Alert) *book {
	b := &book{open: open}
	b.st = live.New(live.Options{Inline: true, Feeds: []live.Feed{live.ValueFeed(live.KeyOf[int]("x"),
		func(context.Context) (int, error) { return 1, nil },
		live.FeedOptions[int, int]{Interval: time.Hour, Alerts: func(int, time.Time) []live.Alert {
			b.mu.Lock()
			defer b.mu.Unlock()
			return append([]live.Alert(nil), b.open...)
		}})}})
	t.Cleanup(b.st.Close)
	b.st.FetchNow(context.Background(), "x")
	return b
}

func (b *book) set(open ...live.Alert) {
	b.mu.Lock()
	b.open = open
	b.mu.Unlock()
	b.st.Rejudge()
}

func high(key, title string) live.Alert {
	return live.Alert{Key: key, Severity: live.High, Code: "LOW_RUNWAY", Title: title, Guidance: "Fund the account."}
}

// logBuffer is a request log the test reads while the hook writes.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// start runs a hook on b's store; gate, when set, holds its waits.
func start(t *testing.T, b *book, o Options, gate chan struct{}) (*Hook, *clock, *logBuffer) {
	t.Helper()
	c := &clock{now: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC), waits: make(chan time.Duration, 100), gate: gate}
	log := &logBuffer{}
	o.Now, o.Sleep, o.Log = c.Now, c.Sleep, slog.New(slog.NewJSONHandler(log, nil))
	if o.Profile == "" {
		o.Profile, o.Environment = "desk", "prod"
	}
	h, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { h.Run(ctx, b.st); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	<-h.started
	return h, c, log
}

// TestRetried: a post that fails for a reason worth retrying (503, no
// answer, 429) is retried with a doubling wait, Retry-After when given,
// until it is taken; a 4xx is not retried. Every attempt is a line of
// the request log, which never holds the hook's address.
func TestRetried(t *testing.T) {
	srv := newServer(t, 503, 500, 429, 200, 404)
	b := newBook(t)
	_, c, log := start(t, b, Options{URL: srv.URL + "/services/T0/B0/secret-token", MinSeverity: live.High}, nil)
	b.set(high("low-runway:USD", "USD prefunded lasts 0.7 h"))
	srv.wait(t, 4)
	var waits []time.Duration
	for range 3 {
		waits = append(waits, <-c.waits)
	}
	if want := []time.Duration{2 * time.Second, 4 * time.Second, 7 * time.Second}; !equal(waits, want) {
		t.Errorf("waits %v, want %v", waits, want)
	}
	got := srv.deliveries()
	if len(got) != 4 || got[0] != got[3] {
		t.Fatalf("deliveries %q: want the same message four times", got)
	}
	var m Message
	if err := json.Unmarshal([]byte(got[0]), &m); err != nil || !strings.Contains(m.Text, "HIGH LOW_RUNWAY new: USD prefunded lasts 0.7 h") ||
		!strings.Contains(m.Text, "treasury desk (prod):") || !strings.Contains(m.Text, "what to do: Fund the account.") {
		t.Errorf("message %q (%v)", got[0], err)
	}
	if srv.types[0] != "application/json" { // the handler has answered: nothing writes types now
		t.Errorf("Content-Type %q", srv.types[0])
	}

	// A 404: the address is wrong; one attempt, logged.
	b.set(high("low-runway:USD", "USD prefunded lasts 0.7 h"), high("low-runway:EUR", "EUR prefunded lasts 2 h"))
	srv.wait(t, 1)
	time.Sleep(50 * time.Millisecond)
	if n := len(srv.deliveries()); n != 5 {
		t.Errorf("%d deliveries, want 5: a 404 is not retried", n)
	}
	lines := strings.Split(strings.TrimSpace(log.String()), "\n")
	if len(lines) != 5 {
		t.Fatalf("log lines %d:\n%s", len(lines), log.String())
	}
	for i, want := range []string{`"status":503`, `"status":500`, `"status":429`, `"status":200`, `"status":404`} {
		if !strings.Contains(lines[i], want) || !strings.Contains(lines[i], `"iface":"alert-webhook"`) || !strings.Contains(lines[i], `"path":"[redacted]"`) {
			t.Errorf("log line %d %s: want %s", i, lines[i], want)
		}
	}
	if strings.Contains(log.String(), "secret-token") {
		t.Error("the hook's address is in the log")
	}
}

// TestRateLimited: at most PerMinute posts a minute leave; the alerts
// raised while the next post waits are folded into it, none lost.
func TestRateLimited(t *testing.T) {
	srv := newServer(t)
	b := newBook(t)
	gate := make(chan struct{})
	h, c, _ := start(t, b, Options{URL: srv.URL + "/hook", MinSeverity: live.High, PerMinute: 2}, gate)
	var open []live.Alert
	raise := func(key string) {
		open = append(open, high(key, key+" is short"))
		b.set(open...)
	}
	raise("a")
	srv.wait(t, 1)
	raise("b")
	if w := <-c.waits; w != 30*time.Second {
		t.Fatalf("waited %s before the second post, want 30s (2 a minute)", w)
	}
	raise("c")
	raise("d")
	for deadline := time.Now().Add(5 * time.Second); h.pending() < 3 && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	close(gate)
	srv.wait(t, 1)
	time.Sleep(50 * time.Millisecond)
	got := srv.deliveries()
	if len(got) != 2 {
		t.Fatalf("%d deliveries, want 2: %q", len(got), got)
	}
	for _, k := range []string{"b is short", "c is short", "d is short"} {
		if !strings.Contains(got[1], k) {
			t.Errorf("the second message has no %q: %s", k, got[1])
		}
	}
}

// TestWhatIsPosted: the alerts open at start are posted as such; a new
// one under the least severity is not; an alert posted that closes is
// posted as resolved; one that comes back at once is a repeat, not news.
func TestWhatIsPosted(t *testing.T) {
	srv := newServer(t)
	b := newBook(t, high("stale:quotes", "quotes: no good answer"), live.Alert{Key: "declines", Severity: live.Medium, Code: "USR_062..USR_067", Title: "declines"})
	start(t, b, Options{URL: srv.URL + "/hook", MinSeverity: live.High, PerMinute: 60}, nil)
	srv.wait(t, 1)
	b.set(live.Alert{Key: "declines", Severity: live.Medium, Code: "USR_062..USR_067", Title: "more declines"})
	srv.wait(t, 1)
	b.set(high("stale:quotes", "quotes: no good answer")) // back at once: a repeat
	b.set(high("stale:quotes", "quotes: no good answer"), live.Alert{Key: "new-medium", Severity: live.Medium, Title: "medium"})
	time.Sleep(100 * time.Millisecond)
	got := srv.deliveries()
	if len(got) != 2 || !strings.Contains(got[0], "HIGH LOW_RUNWAY open at start: quotes: no good answer") ||
		strings.Contains(got[0], "declines") || !strings.Contains(got[1], "resolved: quotes: no good answer") {
		t.Errorf("deliveries %q", got)
	}
}

// TestMessageIsText: titles from servers cannot break the message: line
// ends are spaces, Slack's mentions and links are escaped.
func TestMessageIsText(t *testing.T) {
	h, err := New(Options{URL: "https://hooks.example/x", Profile: "desk"})
	if err != nil {
		t.Fatal(err)
	}
	got := h.text([]line{{alert: live.Alert{Severity: live.High, Code: "SYS_001", Title: "boom\n<!channel> & <http://x|y>\x1b[31m"}}})
	if want := "treasury desk:\n• HIGH SYS_001 new: boom &lt;!channel&gt; &amp; &lt;http://x|y&gt; [31m"; got != want {
		t.Errorf("text %q, want %q", got, want)
	}
	if _, err := New(Options{URL: "hooks.example/x"}); err == nil {
		t.Error("an address without a scheme was taken")
	}
}

func equal(a, b []time.Duration) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
