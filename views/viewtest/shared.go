package viewtest

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
	"treasury/wire/payments"
	"treasury/wire/transport"
	"treasury/wire/wallet"
)

// World is a fetched world built once, by the first test that asks for
// it, and shared by the tests of a package that only read it: a sandbox,
// the platform on it, its topics read as New reads them, then prep. Each
// test gets a session of its own on it (Env).
//
// A test on a shared world must not change it: no Advance or Fetch (they
// panic), no sandbox clock or faults, no actions (the world's client
// refuses every write), nothing put into the store, no call that fails
// (the errors and the health line would show it to the next test). When
// such a change is seen at the end of a test, the test fails: a test that
// changes its world uses New.
//
// A session's P is its own copy of the platform (its clients and store are
// the world's): a test may swap a client in it. The world is never closed:
// it lives as long as the test binary.
type World struct {
	o    Options
	prep func(*Env)

	once sync.Once
	env  *Env // the world, without a session
	err  error
	// contract checks the world's payments exchanges against the
	// vendor's document; each test reports what it found during it.
	contract *sandboxtest.Violations
	writes   atomic.Int64 // writes refused
	print    string       // the world's state after prep
}

// NewWorld returns a world built on first use as New(o) builds one, then
// prep (nil: nothing more) changing it as a test would before it reads:
// advancing the clock, reading topics.
func NewWorld(o Options, prep func(e *Env)) *World { return &World{o: o, prep: prep} }

// shared is the default world of the package under test (Shared).
var shared = NewWorld(Options{}, nil)

// Shared returns a session on the test binary's default world: New's world
// with default options, built once (see World for what a test on it must
// not do).
func Shared(t testing.TB) *Env {
	t.Helper()
	return shared.Env(t)
}

// Env returns a session on w for t: the world's sandbox and platform with
// t's own context (its own save directory), audit log and actor. It fails
// t if the world could not be built, or if it has changed since it was
// (before t, or during t: then at t's end).
func (w *World) Env(t testing.TB) *Env {
	t.Helper()
	return w.open(t, w.o)
}

// ColourEnv is Env with the session in colour (Options.Colour): a colour
// golden of the same world as a plain one, without a world of its own.
func (w *World) ColourEnv(t testing.TB) *Env {
	t.Helper()
	o := w.o
	o.Colour = true
	return w.open(t, o)
}

// open is Env with the session's options o (w's, but for the colour).
func (w *World) open(t testing.TB, o Options) *Env {
	t.Helper()
	w.once.Do(w.build)
	if w.err != nil {
		t.Fatalf("shared world: %v", w.err)
	}
	if now := w.fingerprint(); now != w.print {
		t.Fatalf("the shared world was changed by an earlier test (a test that changes its world uses viewtest.New):\n%s",
			diffLines(w.print, now))
	}
	p := *w.env.P // the session's own: a test may swap a client in it
	e := &Env{Sandbox: w.env.Sandbox, P: &p, skip: w.env.skip, shared: w, opts: o}
	e.session(t)
	t.Cleanup(func() {
		w.contract.Report(t)
		if now := w.fingerprint(); now != w.print {
			t.Errorf("the shared world changed during this test or one running beside it (a test that changes its world uses viewtest.New):\n%s",
				diffLines(w.print, now))
		}
	})
	return e
}

// build starts the world's sandbox and platform, reads every topic as New
// does, runs prep, then arms the write guard and takes the fingerprint.
func (w *World) build() {
	var err error
	if w.contract, err = sandboxtest.NewViolations(); err != nil {
		w.err = err
		return
	}
	opts := sandboxOptions(w.o)
	if !opts.Variant {
		opts.Observe = w.contract.Observe
	}
	srv, err := sandbox.Listen("127.0.0.1:0", opts)
	if err != nil {
		w.err = fmt.Errorf("start sandbox: %w", err)
		return
	}
	g := &writeGuard{next: transport.NewHTTP().Transport, refused: &w.writes}
	p, err := openPlatform(srv, w.o, &http.Client{Transport: g})
	if err != nil {
		srv.Close()
		w.err = err
		return
	}
	e := &Env{Sandbox: srv, P: p, skip: skipSet(w.o.Skip), opts: w.o}
	e.Fetch()
	e.Fetch()
	if w.prep != nil {
		w.prep(e)
	}
	w.env = e
	e.P.Store.Sync()
	g.armed.Store(true)
	w.print = w.fingerprint()
}

// mustOwn panics when e is a session on a shared world: reading again or
// moving the clock would change the world of the tests beside it.
func (e *Env) mustOwn(what string) {
	if e.shared != nil {
		panic("viewtest: " + what + " on a shared world: a test that changes its world uses viewtest.New")
	}
}

// fingerprint is what a test on the world could change that another
// would see: the sandbox clock and faults, the writes refused, the
// profile's environment and alert thresholds, each topic's snapshot, the failures, the health and the alerts.
func (w *World) fingerprint() string {
	e := w.env
	s := e.P.Store
	var b strings.Builder
	fmt.Fprintf(&b, "clock %s\nfaults %+v\nwrites refused %d\n", e.Sandbox.Clock().Now(), e.Sandbox.Faults(), w.writes.Load())
	c := e.P.Config
	fmt.Fprintf(&b, "config %s %s read-only %v alerts %v\n", c.Profile, c.Environment, c.ReadOnly, c.Alerts)
	topics := s.Topics()
	slices.Sort(topics)
	for _, tp := range topics {
		sn := s.Snapshot(tp)
		fmt.Fprintf(&b, "topic %s seq %d version %d fetched %s err %v failures %d\n", tp, sn.Seq, sn.Version, sn.FetchedAt, sn.Err, sn.Failures)
	}
	fmt.Fprintf(&b, "failures %d\n", len(s.Failures()))
	for _, h := range s.Health() {
		fmt.Fprintf(&b, "health %s ok %s tried %s failing %d/%d %v\n", h.Interface, h.LastSuccess, h.LastAttempt,
			h.ConsecutiveFailures, h.Failing, h.LastError)
	}
	for _, a := range s.Alerts() {
		fmt.Fprintf(&b, "alert %s %d %s\n", a.Key, a.Count, a.Last)
	}
	return b.String()
}

// diffLines lists the lines of was and now that differ.
func diffLines(was, now string) string {
	a, b := strings.Split(was, "\n"), strings.Split(now, "\n")
	in := func(l []string, s string) bool {
		for _, x := range l {
			if x == s {
				return true
			}
		}
		return false
	}
	var out []string
	for _, l := range a {
		if !in(b, l) {
			out = append(out, "  was: "+l)
		}
	}
	for _, l := range b {
		if !in(a, l) {
			out = append(out, "  now: "+l)
		}
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}

// errWrite is the answer to a write on a shared world.
var errWrite = errors.New("viewtest: a write on a shared world (a test that changes its world uses viewtest.New)")

// writeGuard sends a shared world's requests once armed, refusing and
// counting those that would change the sandbox: every method but GET and
// HEAD, except the POSTs that only read (tokens, the payments filter).
type writeGuard struct {
	next    http.RoundTripper
	armed   atomic.Bool
	refused *atomic.Int64
}

func (g *writeGuard) RoundTrip(r *http.Request) (*http.Response, error) {
	if g.armed.Load() && writes(r) {
		g.refused.Add(1)
		if r.Body != nil {
			r.Body.Close()
		}
		return nil, errWrite
	}
	return g.next.RoundTrip(r)
}

func writes(r *http.Request) bool {
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		return false
	case http.MethodPost:
		for _, p := range []string{payments.PathToken, payments.PathFilterV3, wallet.PathToken} {
			if strings.HasSuffix(r.URL.Path, p) {
				return false
			}
		}
	}
	return true
}
