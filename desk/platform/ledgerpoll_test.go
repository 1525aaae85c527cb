package platform_test

import (
	"context"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"treasury/config"
	"treasury/desk/live"
	"treasury/desk/platform"
	"treasury/process/sandboxprofile"
	"treasury/sandbox/sandboxtest"
	"treasury/wire/payments"
)

// ledgerSpy counts the ledger requests a platform sends, notes where each
// currency's first read of a poll starts, and refuses (400) the reads of
// the currency fail names.
type ledgerSpy struct {
	mu    sync.Mutex
	n     int
	start map[string]time.Time // each currency's earliest start-dttm since take
	fail  string
}

func (s *ledgerSpy) RoundTrip(r *http.Request) (*http.Response, error) {
	if !strings.HasSuffix(r.URL.Path, payments.PathLedger) {
		return http.DefaultTransport.RoundTrip(r)
	}
	q := r.URL.Query()
	cur := q.Get("currency")
	from, err := time.Parse(time.RFC3339Nano, q.Get("start-dttm"))
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.n++
	if was, ok := s.start[cur]; !ok || from.Before(was) {
		s.start[cur] = from
	}
	fail := s.fail == cur
	s.mu.Unlock()
	if fail {
		body := `{"code":"USR_001","type":"USER_VALIDATION_ERROR","status":400,"title":"Bad Request","description":"refused by the test","timestamp":"2026-11-16T09:30:00Z"}`
		return &http.Response{StatusCode: http.StatusBadRequest, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(body)), Request: r}, nil
	}
	return http.DefaultTransport.RoundTrip(r)
}

// take returns the ledger requests and each currency's start since the
// last take, and forgets them.
func (s *ledgerSpy) take() (int, map[string]time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, start := s.n, s.start
	s.n, s.start = 0, map[string]time.Time{}
	return n, start
}

// newestOf is the newest movement held of each currency.
func newestOf(s *live.Store) map[string]time.Time {
	out := map[string]time.Time{}
	for _, t := range live.Get(s, live.LedgerKey).Data {
		if t.CreatedDttm.After(out[t.Currency]) {
			out[t.Currency] = t.CreatedDttm
		}
	}
	return out
}

// TestLedgerPollReadsWhatChanged: each poll of the ledger reads what is
// new since the last, each currency from its newest movement held less 5
// s, not the whole 24-hour window again: over four hours of the
// platform's history, a poll every 20 minutes, the ledger requests of a poll stay
// what 20 minutes of movements cost, where reading the window again grows
// with every hour of history (some 25 pages more each hour of the
// sandbox's traffic). A currency whose read failed keeps its movements
// and is read from where it was at the next poll; what is held in the end
// is what a fresh read of the window holds.
func TestLedgerPollReadsWhatChanged(t *testing.T) {
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	spy := &ledgerSpy{start: map[string]time.Time{}}
	p, err := platform.Open(sandboxprofile.Of(srv, config.Builtin()), platform.Options{Now: srv.Clock().Now,
		HTTP: &http.Client{Transport: spy}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	ctx := context.Background()
	poll := func() (int, map[string]time.Time) {
		if s := p.Store.FetchNow(ctx, live.Ledger); s.Err != nil || s.Partial != nil {
			t.Fatalf("ledger poll: err %v, partial %v", s.Err, s.Partial)
		}
		return spy.take()
	}
	poll() // the first reads the window whole
	// Four hours of history, a poll every 20 minutes.
	var per []int
	for range 12 {
		srv.AdvanceClock(20 * time.Minute)
		n, _ := poll()
		per = append(per, n)
	}
	t.Logf("ledger requests per poll, 20 minutes apart: %v", per)
	sum := func(s []int) (n int) {
		for _, x := range s {
			n += x
		}
		return n
	}
	// The traffic of one stretch of the day differs from another's by a
	// little; the window read again grows fourfold from the first four
	// polls to the last four.
	if first, last := sum(per[:4]), sum(per[8:]); 2*last > 3*first+12 {
		t.Fatalf("ledger requests per poll grew with the platform's history: %v (the last four polls %d, the first four %d)", per, last, first)
	}

	// A poll that cannot read one currency keeps what is held of it.
	before := newestOf(p.Store)
	var cur string
	for c := range before {
		cur = max(cur, c)
	}
	refuse := func(c string) {
		spy.mu.Lock()
		spy.fail = c
		spy.mu.Unlock()
	}
	refuse(cur)
	srv.AdvanceClock(20 * time.Minute)
	if s := p.Store.FetchNow(ctx, live.Ledger); s.Err != nil || s.Partial == nil || !strings.Contains(s.Partial.Error(), cur) {
		t.Fatalf("a poll that could not read %s: err %v, partial %v", cur, s.Err, s.Partial)
	}
	spy.take()
	refuse("")
	held := newestOf(p.Store)
	if !held[cur].Equal(before[cur]) {
		t.Fatalf("%s's newest movement held %s after a failed read, was %s", cur, held[cur], before[cur])
	}
	// The next reads each currency from its newest held, less the overlap:
	// the one that failed from where it was.
	srv.AdvanceClock(20 * time.Minute)
	_, start := poll()
	if len(start) != len(held) {
		t.Errorf("read %d currencies, %d held", len(start), len(held))
	}
	for c, newest := range held {
		if want := newest.Add(-5 * time.Second); !start[c].Equal(want) {
			t.Errorf("%s read from %s, want its newest movement held less 5 s, %s", c, start[c], want)
		}
	}

	fresh, err := platform.Open(sandboxprofile.Of(srv, config.Builtin()), platform.Options{Now: srv.Clock().Now})
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	ids := func(s *live.Store) []string {
		var out []string
		for _, x := range live.Get(s, live.LedgerKey).Data {
			out = append(out, platform.LedgerID(x))
		}
		return out
	}
	fresh.Store.FetchNow(ctx, live.Ledger)
	want, got := ids(fresh.Store), ids(p.Store)
	if !slices.IsSortedFunc(live.Get(p.Store, live.LedgerKey).Data, func(a, b payments.LedgerTransaction) int {
		return b.CreatedDttm.Compare(a.CreatedDttm)
	}) {
		t.Error("the movements held are not newest first")
	}
	slices.Sort(want)
	slices.Sort(got)
	if len(want) == 0 || !slices.Equal(got, want) {
		t.Fatalf("held %d movements, a fresh read %d: want the same", len(got), len(want))
	}
}
