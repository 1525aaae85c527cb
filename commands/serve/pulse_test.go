package serve

import (
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"treasury/desk/live"
	"treasury/desk/metrics"
	"treasury/desk/platform"
	"treasury/process"
	"treasury/wire/apierr"
)

// stuckStore is a store whose lock stick() leaves held (a goroutine
// inside it waits on the store's clock) until unstick().
type stuckStore struct {
	*live.Store
	stuck   atomic.Bool
	release chan struct{}
	once    sync.Once
}

func newStuckStore(t *testing.T) *stuckStore {
	s := &stuckStore{release: make(chan struct{})}
	s.Store = live.New(live.Options{Now: func() time.Time {
		if s.stuck.Load() {
			<-s.release
		}
		return time.Now()
	}})
	t.Cleanup(s.unstick)
	return s
}

// stick takes the store's lock and keeps it: Observe reads the clock
// under the lock.
func (s *stuckStore) stick() {
	s.stuck.Store(true)
	go s.Observe(apierr.Liquidity, "GET /api/v0/quotes", time.Millisecond, nil)
}

func (s *stuckStore) unstick() {
	s.once.Do(func() {
		s.stuck.Store(false)
		close(s.release)
	})
}

// TestProbesOfAStuckStoreLeaveNothingBehind: while the store is stuck on
// its lock, /healthz, /readyz and /metrics answer 503 at once, saying
// so, and a hundred probes of each at once leave no goroutine behind (a
// probe used to start one that waited on the lock for as long as it was
// stuck); once the store answers again, /healthz is 200.
func TestProbesOfAStuckStoreLeaveNothingBehind(t *testing.T) {
	store := newStuckStore(t)
	rt := &process.Runtime{Platform: &platform.Platform{Store: store.Store}, Metrics: metrics.New(metrics.Build{})}
	if err := rt.Metrics.Watch(func() metrics.State { store.Seq(); return metrics.State{} }); err != nil {
		t.Fatal(err)
	}
	m := newMonitor(t.Context(), rt)
	m.patience = 100 * time.Millisecond
	m.listening.Store(true)
	h := m.handler()
	get := func(path string) (int, string) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		return rec.Code, rec.Body.String()
	}
	if code, body := get("/healthz"); code != http.StatusOK {
		t.Fatalf("healthz of a store that answers: %d %q", code, body)
	}

	store.stick()
	for deadline := time.Now().Add(10 * time.Second); !m.pulse.stuck(m.patience); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the pulse never found the store stuck")
		}
	}
	before := runtime.NumGoroutine()
	var wg sync.WaitGroup
	var wrong atomic.Value
	for range 100 {
		for _, path := range []string{"/healthz", "/readyz", "/metrics"} {
			wg.Go(func() {
				if code, body := get(path); code != http.StatusServiceUnavailable || !strings.Contains(body, "the store has not answered for ") {
					wrong.Store(path + ": " + body)
				}
			})
		}
	}
	wg.Wait()
	if w := wrong.Load(); w != nil {
		t.Errorf("a probe of a stuck store answered %v", w)
	}
	// What the probes started has ended (a goroutine of the runtime's may
	// come and go: a little slack, far under one per probe).
	var after int
	for deadline := time.Now().Add(2 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if after = runtime.NumGoroutine(); after <= before+5 || time.Now().After(deadline) {
			break
		}
	}
	if after > before+5 {
		t.Errorf("300 probes of a stuck store left %d goroutines behind", after-before)
	}

	store.unstick()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		code, _ := get("/healthz")
		if code == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("healthz never answered 200 once the store answered")
		}
	}
}
