package market

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"treasury/sandbox/internal/simkit"
)

func newTestSim() *Sim {
	env := &simkit.Env{Seed: 1, Clock: simkit.NewFrozenClock(time.Date(2026, 11, 16, 9, 30, 0, 0, time.UTC)), Faults: simkit.NewFaults(simkit.FaultSettings{})}
	return New(env, "tok")
}

// TestTicksAreTimeOrdered checks the tick arithmetic the pages rely on:
// tick times strictly increase and firstTick/lastTick invert tickTime.
func TestTicksAreTimeOrdered(t *testing.T) {
	s := newTestSim()
	g0 := s.lastTick(time.Date(2026, 11, 16, 9, 0, 0, 0, time.UTC).UnixMilli())
	for g := g0; g < g0+50; g++ {
		ms := s.tickTime(g)
		if s.tickTime(g+1) <= ms {
			t.Fatalf("tick %d at %d, tick %d at %d: not increasing", g, ms, g+1, s.tickTime(g+1))
		}
		if s.lastTick(ms) != g || s.firstTick(ms) != g || s.lastTick(ms-1) != g-1 || s.firstTick(ms+1) != g+1 {
			t.Fatalf("tick %d at %d: lastTick %d firstTick %d", g, ms, s.lastTick(ms), s.firstTick(ms))
		}
	}
	j0, j1 := s.tradeBlocks(s.tickTime(g0), s.tickTime(g0+4000))
	n := 0
	for g := g0 - tradeBlock; g <= g0+4000; g++ {
		if s.traded(g) && s.tickTime(g)+tradeDelayMs >= s.tickTime(g0) && s.tickTime(g)+tradeDelayMs <= s.tickTime(g0+4000) {
			n++
		}
	}
	if int64(n) != j1-j0+1 {
		t.Fatalf("tradeBlocks counts %d trades, scanning finds %d", j1-j0+1, n)
	}
}

// BenchmarkQuotesPage1000 serves one page of 1000 quotes through the
// in-process handler.
func BenchmarkQuotesPage1000(b *testing.B) {
	h := newTestSim().Handler()
	req := httptest.NewRequest(http.MethodGet, "/api/v0/quotes?pageSize=1000&pageNumber=3", nil)
	req.Header.Set("Authorization", "Bearer tok")
	b.ReportAllocs()
	for b.Loop() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("HTTP %d", rec.Code)
		}
	}
}
