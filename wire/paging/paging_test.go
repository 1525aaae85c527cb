package paging_test

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"treasury/wire/paging"
)

func TestClamp(t *testing.T) {
	for _, c := range []struct{ in, want int }{{0, 20}, {-3, 20}, {5, 5}, {100, 100}, {101, 100}} {
		if got := paging.Clamp(c.in, 20, 100); got != c.want {
			t.Errorf("Clamp(%d) = %d, want %d", c.in, got, c.want)
		}
	}
}

// numbered serves n records, size per page, tracking pages in flight.
type numbered struct {
	n, size  int
	inFlight atomic.Int32
	maxSeen  atomic.Int32
	calls    atomic.Int32
	failAt   int // page that fails, -1 for none
}

func (s *numbered) fetch(ctx context.Context, page int) (paging.NumberPage[int], error) {
	s.calls.Add(1)
	cur := s.inFlight.Add(1)
	defer s.inFlight.Add(-1)
	for {
		m := s.maxSeen.Load()
		if cur <= m || s.maxSeen.CompareAndSwap(m, cur) {
			break
		}
	}
	// Later pages answer sooner, to check the order of the yield.
	runtime.Gosched()
	if page == s.failAt {
		return paging.NumberPage[int]{}, fmt.Errorf("page %d failed", page)
	}
	if err := ctx.Err(); err != nil {
		return paging.NumberPage[int]{}, err
	}
	pages := (s.n + s.size - 1) / s.size
	var items []int
	for i := page * s.size; i < min((page+1)*s.size, s.n); i++ {
		items = append(items, i)
	}
	return paging.NumberPage[int]{Items: items, Last: page >= pages-1, TotalPages: pages}, nil
}

func TestByPageNumberOrderAndBound(t *testing.T) {
	for _, conc := range []int{1, 3, 8} {
		s := &numbered{n: 1003, size: 10, failAt: -1}
		got, err := paging.Collect(paging.ByPageNumber(context.Background(), conc, s.fetch))
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 1003 {
			t.Fatalf("conc %d: %d records", conc, len(got))
		}
		for i, v := range got {
			if v != i {
				t.Fatalf("conc %d: record %d is %d: out of order", conc, i, v)
			}
		}
		if m := int(s.maxSeen.Load()); m > conc {
			t.Errorf("conc %d: %d pages in flight", conc, m)
		}
		if c := s.calls.Load(); c != 101 {
			t.Errorf("conc %d: %d fetches, want 101", conc, c)
		}
	}
}

func TestByPageNumberSinglePageAndError(t *testing.T) {
	s := &numbered{n: 5, size: 10, failAt: -1}
	got, err := paging.Collect(paging.ByPageNumber(context.Background(), 4, s.fetch))
	if err != nil || len(got) != 5 || s.calls.Load() != 1 {
		t.Fatalf("%v %v calls %d", got, err, s.calls.Load())
	}
	s = &numbered{n: 100, size: 10, failAt: 4}
	got, err = paging.Collect(paging.ByPageNumber(context.Background(), 4, s.fetch))
	if err == nil || len(got) != 40 {
		t.Fatalf("want the 40 records before page 4 and its error, got %d, %v", len(got), err)
	}
}

func TestByPageNumberEarlyStopCancels(t *testing.T) {
	before := runtime.NumGoroutine()
	s := &numbered{n: 10_000, size: 10, failAt: -1}
	n := 0
	for _, err := range paging.ByPageNumber(context.Background(), 8, s.fetch) {
		if err != nil {
			t.Fatal(err)
		}
		if n++; n == 25 {
			break
		}
	}
	if c := s.calls.Load(); c > 12 {
		t.Errorf("%d pages fetched for 25 records: the bound did not hold", c)
	}
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		runtime.Gosched()
	}
	if g := runtime.NumGoroutine(); g > before {
		t.Errorf("goroutines %d > %d before: a fetcher leaked", g, before)
	}
}

func TestByPageNumberGrowingList(t *testing.T) {
	// Page 0 says 3 pages, but page 2 says more follow (the list grew).
	fetch := func(_ context.Context, page int) (paging.NumberPage[int], error) {
		if page > 4 {
			return paging.NumberPage[int]{}, errors.New("read past the end")
		}
		return paging.NumberPage[int]{Items: []int{page}, Last: page == 4, TotalPages: 3}, nil
	}
	got, err := paging.Collect(paging.ByPageNumber(context.Background(), 2, fetch))
	if err != nil || fmt.Sprint(got) != "[0 1 2 3 4]" {
		t.Fatalf("%v %v", got, err)
	}
}

func TestTokenStyles(t *testing.T) {
	pages := map[string]paging.TokenPage[string]{
		"":   {Items: []string{"a", "b"}, Next: "t1"},
		"t1": {Items: []string{"c"}, Next: "t2"},
		"t2": {Items: []string{"d"}},
	}
	fetch := func(_ context.Context, tok string) (paging.TokenPage[string], error) { return pages[tok], nil }
	for _, seq := range []func() ([]string, error){
		func() ([]string, error) { return paging.Collect(paging.ByQueryToken(context.Background(), fetch)) },
		func() ([]string, error) { return paging.Collect(paging.ByBodyToken(context.Background(), fetch)) },
	} {
		got, err := seq()
		if err != nil || fmt.Sprint(got) != "[a b c d]" {
			t.Fatalf("%v %v", got, err)
		}
	}
	// A server that loops.
	pages["t2"] = paging.TokenPage[string]{Items: []string{"d"}, Next: "t1"}
	got, err := paging.Collect(paging.ByQueryToken(context.Background(), fetch))
	if !errors.Is(err, paging.ErrRepeatedToken) || len(got) != 4 {
		t.Fatalf("got %v, %v: want ErrRepeatedToken after 4 records", got, err)
	}
	// A server that repeats the token it was given.
	same := func(_ context.Context, tok string) (paging.TokenPage[string], error) {
		return paging.TokenPage[string]{Items: []string{"x"}, Next: "same"}, nil
	}
	if _, err := paging.Collect(paging.ByBodyToken(context.Background(), same)); !errors.Is(err, paging.ErrRepeatedToken) {
		t.Fatalf("err %v", err)
	}
}

func ledger(total, size int, offsets *[]int) func(context.Context, int) (paging.OffsetPage[string], error) {
	return func(_ context.Context, off int) (paging.OffsetPage[string], error) {
		*offsets = append(*offsets, off) // only read after Collect returns
		var items []string
		for i := off; i < min(off+size, total); i++ {
			items = append(items, strconv.Itoa(i))
		}
		return paging.OffsetPage[string]{Items: items, Offset: off, PageElements: len(items), Total: total}, nil
	}
}

func TestByOffset(t *testing.T) {
	for _, total := range []int{0, 7, 50, 51, 1234} {
		var offs []int
		fetch := ledger(total, 50, &offs)
		// serialize the recording: concurrency 1 here, concurrency > 1 below.
		got, err := paging.Collect(paging.ByOffset(context.Background(), 1, 50, fetch))
		if err != nil || len(got) != total {
			t.Fatalf("total %d: %d records, %v", total, len(got), err)
		}
		for i, v := range got {
			if v != strconv.Itoa(i) {
				t.Fatalf("total %d: record %d is %s", total, i, v)
			}
		}
		if want := max(1, (total+49)/50); len(offs) != want {
			t.Errorf("total %d: %d fetches, want %d", total, len(offs), want)
		}
	}
	var calls atomic.Int32
	conc := func(_ context.Context, off int) (paging.OffsetPage[int], error) {
		calls.Add(1)
		items := make([]int, 0, 25)
		for i := off; i < min(off+25, 1000); i++ {
			items = append(items, i)
		}
		return paging.OffsetPage[int]{Items: items, Offset: off, PageElements: len(items), Total: 1000}, nil
	}
	got, err := paging.Collect(paging.ByOffset(context.Background(), 6, 25, conc))
	if err != nil || len(got) != 1000 || got[999] != 999 || calls.Load() != 40 {
		t.Fatalf("%d records, %v, %d calls", len(got), err, calls.Load())
	}
	for i, v := range got {
		if v != i {
			t.Fatalf("record %d is %d", i, v)
		}
	}
	// A page that is empty before the total is reached is an error, not a loop.
	short := func(_ context.Context, off int) (paging.OffsetPage[int], error) {
		if off > 0 {
			return paging.OffsetPage[int]{Offset: off, Total: 100}, nil
		}
		return paging.OffsetPage[int]{Items: []int{1}, PageElements: 1, Total: 100}, nil
	}
	if _, err := paging.Collect(paging.ByOffset(context.Background(), 2, 1, short)); err == nil {
		t.Fatal("want an error for an empty page")
	}
}
