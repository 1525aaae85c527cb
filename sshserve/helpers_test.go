package sshserve

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	gossh "golang.org/x/crypto/ssh"
)

// waitLimit bounds every wait for something to happen in these tests.
const waitLimit = 10 * time.Second

// testKey is a client key pair.
type testKey struct {
	signer gossh.Signer
	line   string // its authorized_keys line, without options
}

func newTestKey(tb testing.TB, comment string) testKey {
	tb.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		tb.Fatal(err)
	}
	signer, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		tb.Fatal(err)
	}
	line := strings.TrimSpace(string(gossh.MarshalAuthorizedKey(signer.PublicKey()))) + " " + comment
	return testKey{signer: signer, line: line}
}

func (k testKey) fingerprint() string { return gossh.FingerprintSHA256(k.signer.PublicKey()) }

// event is something a test model or its cleanup reports.
type event struct {
	user string
	kind string // "start", "size", "cleanup"
	s    Session
	size tea.WindowSizeMsg
}

// events collects what the test models report; next takes them in order
// per user and kind.
type events struct {
	mu      sync.Mutex
	list    []event
	changed chan struct{}
}

func newEvents() *events { return &events{changed: make(chan struct{}, 1)} }

func (ev *events) send(e event) {
	ev.mu.Lock()
	ev.list = append(ev.list, e)
	ev.mu.Unlock()
	select {
	case ev.changed <- struct{}{}:
	default:
	}
}

// take removes and returns the first event of kind for user.
func (ev *events) take(user, kind string) (event, bool) {
	ev.mu.Lock()
	defer ev.mu.Unlock()
	for i, e := range ev.list {
		if e.user == user && e.kind == kind {
			ev.list = append(ev.list[:i], ev.list[i+1:]...)
			return e, true
		}
	}
	return event{}, false
}

// next waits for the next event of kind for user.
func (ev *events) next(tb testing.TB, user, kind string) event {
	tb.Helper()
	t := time.NewTimer(waitLimit)
	defer t.Stop()
	for {
		if e, ok := ev.take(user, kind); ok {
			return e
		}
		select {
		case <-ev.changed:
		case <-t.C:
			tb.Fatalf("no %s event for %s within %s", kind, user, waitLimit)
		}
	}
}

// testModel shows who it serves and the size it was told.
type testModel struct {
	s    Session
	ev   *events
	size tea.WindowSizeMsg
}

func (m *testModel) Init() tea.Cmd { return nil }

func (m *testModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.size = msg
		if m.ev == nil {
			break
		}
		m.ev.send(event{user: m.s.User, kind: "size", size: msg})
	case tea.KeyPressMsg:
		if msg.String() == "q" {
			return m, tea.Quit
		}
	}
	return m, nil
}

func (m *testModel) View() tea.View {
	v := tea.NewView(m.frame())
	v.AltScreen = true // as the dashboard's
	return v
}

func (m *testModel) frame() string {
	return fmt.Sprintf("hello %s role=%s size=%dx%d", m.s.User, m.s.Role, m.size.Width, m.size.Height)
}

func testNewModel(ev *events) func(context.Context, Session) (tea.Model, func(), error) {
	return func(_ context.Context, s Session) (tea.Model, func(), error) {
		ev.send(event{user: s.User, kind: "start", s: s})
		return &testModel{s: s, ev: ev}, func() { ev.send(event{user: s.User, kind: "cleanup", s: s}) }, nil
	}
}

// logRecords captures the server's log.
type logRecords struct {
	mu   sync.Mutex
	recs []slog.Record
	ch   chan slog.Record
}

func (l *logRecords) Enabled(context.Context, slog.Level) bool { return true }
func (l *logRecords) Handle(_ context.Context, r slog.Record) error {
	l.mu.Lock()
	l.recs = append(l.recs, r.Clone())
	l.mu.Unlock()
	select {
	case l.ch <- r.Clone():
	default:
	}
	return nil
}
func (l *logRecords) WithAttrs([]slog.Attr) slog.Handler { return l }
func (l *logRecords) WithGroup(string) slog.Handler      { return l }

// json is what sessions.log holds for the records with message msg: each
// written by slog's JSON handler, as cmd_serve writes it, then decoded.
func (l *logRecords) json(tb testing.TB, msg string) []map[string]any {
	tb.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []map[string]any
	for _, r := range l.recs {
		if r.Message != msg {
			continue
		}
		var b bytes.Buffer
		if err := slog.NewJSONHandler(&b, nil).Handle(context.Background(), r); err != nil {
			tb.Fatal(err)
		}
		m := map[string]any{}
		if err := json.Unmarshal(b.Bytes(), &m); err != nil {
			tb.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

// logSeconds checks that rec holds the duration key as seconds (a JSON number
// within [min, max]) and returns it.
func logSeconds(tb testing.TB, rec map[string]any, key string, min, max float64) float64 {
	tb.Helper()
	d, ok := rec[key].(float64)
	if !ok || d < min || d > max {
		tb.Errorf("%s = %v (%T) in %v, want seconds in [%g, %g]", key, rec[key], rec[key], rec, min, max)
	}
	return d
}

// next waits for the next record with message msg.
func (l *logRecords) next(tb testing.TB, msg string) map[string]string {
	tb.Helper()
	t := time.NewTimer(waitLimit)
	defer t.Stop()
	for {
		select {
		case r := <-l.ch:
			if r.Message == msg {
				attrs := map[string]string{}
				r.Attrs(func(a slog.Attr) bool { attrs[a.Key] = a.Value.String(); return true })
				return attrs
			}
		case <-t.C:
			tb.Fatalf("no log %q within %s", msg, waitLimit)
		}
	}
}

// all returns every record with message msg so far, each as its
// attributes plus "level"; unlike next it misses none, however many.
func (l *logRecords) all(msg string) []map[string]string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []map[string]string
	for _, r := range l.recs {
		if r.Message != msg {
			continue
		}
		attrs := map[string]string{"level": r.Level.String()}
		r.Attrs(func(a slog.Attr) bool { attrs[a.Key] = a.Value.String(); return true })
		out = append(out, attrs)
	}
	return out
}

// counted is how many events of message msg the log accounts for: its
// lines (but the summaries, which have since_s) and, on each, the events
// it says were not logged.
func (l *logRecords) counted(tb testing.TB, msg string) (lines, events int) {
	tb.Helper()
	for _, r := range l.all(msg) {
		lines++
		if r["since_s"] == "" {
			events++
		}
		if n := r["not_logged_since_last"]; n != "" {
			v, err := strconv.Atoi(n)
			if err != nil {
				tb.Fatalf("not_logged_since_last %q", n)
			}
			events += v
		}
	}
	return lines, events
}

// testServer runs a Server on loopback.
type testServer struct {
	*Server
	addr    string
	hostKey gossh.PublicKey
	keyFile string
	logs    *logRecords
	ev      *events
	cancel  context.CancelFunc
	done    chan error
}

// startServer serves the authorized keys lines with o as the base options
// (NewModel defaults to testModel).
func startServer(tb testing.TB, lines []string, o Options) *testServer {
	tb.Helper()
	dir := tb.TempDir()
	o.HostKeyFile = filepath.Join(dir, "host_ed25519")
	if lines != nil { // nil: certificates alone
		o.AuthorizedKeysFile = filepath.Join(dir, "authorized_keys")
		writeFile(tb, o.AuthorizedKeysFile, strings.Join(lines, "\n")+"\n")
	}
	ts := &testServer{keyFile: o.AuthorizedKeysFile, logs: &logRecords{ch: make(chan slog.Record, 256)}, ev: newEvents()}
	if o.Log == nil {
		o.Log = slog.New(ts.logs)
	}
	if o.NewModel == nil {
		o.NewModel = testNewModel(ts.ev)
	}
	srv, err := New(o)
	if err != nil {
		tb.Fatal(err)
	}
	ts.Server = srv
	ts.hostKey = hostPublicKey(tb, o.HostKeyFile)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	ts.addr = ln.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	ts.cancel, ts.done = cancel, make(chan error, 1)
	go func() { ts.done <- srv.Serve(ctx, ln) }()
	tb.Cleanup(func() { ts.stop(tb) })
	return ts
}

// stop cancels Serve and waits for it to return.
func (ts *testServer) stop(tb testing.TB) error {
	tb.Helper()
	ts.cancel()
	select {
	case err, ok := <-ts.done:
		if ok {
			close(ts.done)
		}
		return err
	case <-time.After(2 * shutdownGrace):
		tb.Fatal("Serve did not return after its context ended")
	}
	return nil
}

func hostPublicKey(tb testing.TB, path string) gossh.PublicKey {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	signer, err := gossh.ParsePrivateKey(data)
	if err != nil {
		tb.Fatal(err)
	}
	return signer.PublicKey()
}

func writeFile(tb testing.TB, path, content string) {
	tb.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		tb.Fatal(err)
	}
}
