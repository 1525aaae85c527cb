package keep

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

type chart struct {
	pair string
	w    int
}

type line struct {
	text string
	w    int
}

// TestMakeOncePerVersion: sessions asking at once for one value at one
// version get one making; a new version is made again and replaces the
// old; another key is another value.
func TestMakeOncePerVersion(t *testing.T) {
	r := New(100)
	var made atomic.Int32
	build := func(s string) func() string {
		return func() string { made.Add(1); time.Sleep(time.Millisecond); return s }
	}
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if got := Make(r, chart{"USD/MXN", 80}, 1, build("v1")); got != "v1" {
				t.Errorf("got %q", got)
			}
		}()
	}
	wg.Wait()
	if n := made.Load(); n != 1 {
		t.Fatalf("20 sessions made it %d times", n)
	}
	if got := Make(r, chart{"USD/MXN", 80}, 2, build("v2")); got != "v2" || made.Load() != 2 {
		t.Errorf("a new version: %q after %d makings", got, made.Load())
	}
	Make(r, chart{"USD/MXN", 120}, 2, build("wide"))
	if made.Load() != 3 || r.Len() != 2 {
		t.Errorf("%d makings, %d kept; want 3 and 2 (the old version replaced)", made.Load(), r.Len())
	}
}

// TestKeysOfTwoTypesNeverMeet: equal fields under two key types are two
// values.
func TestKeysOfTwoTypesNeverMeet(t *testing.T) {
	r := New(100)
	Put(r, chart{"a", 1}, "chart")
	Put(r, line{"a", 1}, "line")
	if v, _ := Get[chart, string](r, chart{"a", 1}); v != "chart" {
		t.Errorf("chart key reads %q", v)
	}
	if v, _ := Get[line, string](r, line{"a", 1}); v != "line" {
		t.Errorf("line key reads %q", v)
	}
	if Count[chart](r) != 1 || Count[line](r) != 1 {
		t.Errorf("counts %d, %d", Count[chart](r), Count[line](r))
	}
}

// TestAKeyTypeHoldsOneValueType: asking a key type for a value of another
// type is an error at its first use, not a wrong answer.
func TestAKeyTypeHoldsOneValueType(t *testing.T) {
	r := New(100)
	Put(r, line{"a", 1}, "fitted")
	Get[line, int](r, line{"b", 1}) // nothing kept: nothing to say
	defer func() {
		p := recover()
		if p == nil || !strings.Contains(fmt.Sprint(p), "holds string") {
			t.Fatalf("recovered %v, want the key type's value type named", p)
		}
	}()
	Get[line, int](r, line{"a", 1})
}

// TestSweepEndsWhatNobodyAskedFor: a value asked for within idle stays;
// one not asked for since is dropped, and made again by the next asker.
func TestSweepEndsWhatNobodyAskedFor(t *testing.T) {
	r := New(100)
	t0 := time.Unix(0, 0)
	Put(r, line{"left", 80}, "x")
	Put(r, line{"asked", 80}, "y")
	if n := r.Sweep(t0, 90*time.Second); n != 0 {
		t.Fatalf("swept %d right after", n)
	}
	Get[line, string](r, line{"asked", 80})
	if n := r.Sweep(t0.Add(60*time.Second), 90*time.Second); n != 0 {
		t.Fatalf("swept %d a minute later", n)
	}
	if n := r.Sweep(t0.Add(91*time.Second), 90*time.Second); n != 1 {
		t.Fatalf("swept %d, want the one nobody asked for in 90 s", n)
	}
	if _, ok := Get[line, string](r, line{"left", 80}); ok {
		t.Fatal("a value nobody asked for survived the sweep")
	}
	if _, ok := Get[line, string](r, line{"asked", 80}); !ok {
		t.Fatal("a value asked for was swept")
	}
}

// TestBoundKeepsTheRecentlyAsked: past the bound the least recently asked
// go; one asked for all along stays.
func TestBoundKeepsTheRecentlyAsked(t *testing.T) {
	const max = 100
	r := New(max)
	Put(r, line{"asked", 1}, "kept")
	for i := range 10 * max {
		Put(r, line{fmt.Sprint(i), 1}, "x")
		if i%(max/4) == 0 {
			if _, ok := Get[line, string](r, line{"asked", 1}); !ok {
				t.Fatalf("after %d more: the value asked for all along is gone", i)
			}
		}
		if r.Len() > max+1 {
			t.Fatalf("%d values kept, bound %d", r.Len(), max)
		}
	}
}

// TestNilRegistryMakesEveryTime: a view without a registry makes its
// own.
func TestNilRegistryMakesEveryTime(t *testing.T) {
	var r *Registry
	n := 0
	for range 2 {
		Make(r, chart{"x", 1}, 1, func() int { n++; return n })
	}
	Put(r, chart{"x", 1}, 1)
	if _, ok := Get[chart, int](r, chart{"x", 1}); ok || n != 2 || r.Len() != 0 || r.Sweep(time.Now(), 0) != 0 {
		t.Fatal("a nil registry kept something")
	}
}

func BenchmarkGetHit(b *testing.B) {
	r := New(4096)
	for i := range 1000 {
		Put(r, line{fmt.Sprint(i), 80}, "x")
	}
	k := line{"500", 80}
	for b.Loop() {
		Get[line, string](r, k)
	}
}

// TestTheRegistryOutlivesAWrongAsk: after the panic of a wrong ask, the
// registry still answers (its lock was released).
func TestTheRegistryOutlivesAWrongAsk(t *testing.T) {
	r := New(100)
	Put(r, line{"a", 1}, "fitted")
	for _, wrong := range []func(){
		func() { Put(r, line{"b", 1}, 2) },
		func() { Make(r, line{"b", 1}, 1, func() int { return 2 }) },
		func() { Get[line, int](r, line{"a", 1}) },
	} {
		func() {
			defer func() { recover() }()
			wrong()
		}()
	}
	if v, ok := Get[line, string](r, line{"a", 1}); !ok || v != "fitted" {
		t.Fatalf("after a wrong ask: %q, %v", v, ok)
	}
}
