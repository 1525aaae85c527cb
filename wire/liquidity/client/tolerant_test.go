package client_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"treasury/wire"
	"treasury/wire/apierr"
	"treasury/wire/auth"
	"treasury/wire/liquidity"
	"treasury/wire/liquidity/client"
	"treasury/wire/transport"
)

// fakeQuotes serves n quotes, newest first, refusing pages above cap with
// a 400 that names pageSize, and recording every query.
type fakeQuotes struct {
	n, cap int
	bad    map[int]string // quote index -> raw JSON replacing it
	mu     sync.Mutex
	asked  []string
}

func (f *fakeQuotes) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.asked = append(f.asked, r.URL.RawQuery)
	f.mu.Unlock()
	size, _ := strconv.Atoi(r.URL.Query().Get("pageSize"))
	page, _ := strconv.Atoi(r.URL.Query().Get("pageNumber"))
	if size > f.cap {
		w.WriteHeader(400)
		w.Write([]byte(`{"type":"about:blank","title":"Bad Request","status":400,"detail":"pageSize must not exceed ` + strconv.Itoa(f.cap) + `"}`))
		return
	}
	var items []string
	for i := page * size; i < min((page+1)*size, f.n); i++ {
		if raw, ok := f.bad[i]; ok {
			items = append(items, raw)
			continue
		}
		at := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC).Add(-time.Duration(i) * time.Second).Format(time.RFC3339)
		items = append(items, `{"quoteId":"q`+strconv.Itoa(i)+`","baseAsset":"USD","quoteAsset":"MXN","bidPrice":17.1,"askPrice":"17.2",`+
			`"createdAt":"`+at+`","futureField":{"nested":[1,2]}}`)
	}
	pages := (f.n + size - 1) / size
	w.Write([]byte(`{"quotes":[` + strings.Join(items, ",") + `],"first":` + strconv.FormatBool(page == 0) + `,"last":` +
		strconv.FormatBool(page >= pages-1) + `,"totalElements":` + strconv.Itoa(f.n) + `,"totalPages":` + strconv.Itoa(pages) + `,"extra":true}`))
}

func fakeClient(t *testing.T, h http.Handler) *client.Client {
	t.Helper()
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	tr, err := transport.New(transport.Config{Interface: apierr.Liquidity, BaseURL: ts.URL, Auth: auth.NewStatic(auth.NewSecret("t")),
		Sleep: func(context.Context, time.Duration) error { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	return client.New(tr, client.Options{Concurrency: 3})
}

// TestPageCapIsLearnt: a server that caps pages at 30 (the maximum is not
// shown) gets pages of 100, 50 then 25 once; every later read asks 25 at
// once, and all 120 quotes are read.
func TestPageCapIsLearnt(t *testing.T) {
	f := &fakeQuotes{n: 120, cap: 30}
	c := fakeClient(t, f)
	for round := range 2 {
		f.asked = nil
		qs, err := c.AllQuotes(context.Background(), liquidity.Window{})
		if err != nil || len(qs) != 120 {
			t.Fatalf("round %d: %d quotes, %v", round, len(qs), err)
		}
		refused := 0
		for _, q := range f.asked {
			if strings.Contains(q, "pageSize=100") || strings.Contains(q, "pageSize=50") {
				refused++
			}
		}
		if want := map[int]int{0: 2, 1: 0}[round]; refused != want {
			t.Fatalf("round %d: %d requests above the cap, want %d: %v", round, refused, want, f.asked)
		}
	}
	if got := c.PageSizes()["quotes"]; got != 25 {
		t.Fatalf("remembered size %d, want 25", got)
	}
}

// TestBadRecordFailsAlone: a quote whose price is not a number and one that
// is not an object are skipped and noted; the others are read, unknown
// fields ignored, each with its JSON as received when kept (KeepRaw, as
// `get` keeps it; the dashboard reads it again when asked).
func TestBadRecordFailsAlone(t *testing.T) {
	f := &fakeQuotes{n: 10, cap: 100, bad: map[int]string{3: `{"quoteId":"q3","bidPrice":"seventeen"}`, 7: `"q7"`}}
	c := fakeClient(t, f)
	c.KeepRaw()
	ctx, skips := wire.WithSkips(context.Background())
	qs, err := c.AllQuotes(ctx, liquidity.Window{})
	if err != nil || len(qs) != 8 {
		t.Fatalf("%d quotes, %v: want the 8 readable ones", len(qs), err)
	}
	if skips.Count() != 2 {
		t.Fatalf("%d skipped, want 2: %v", skips.Count(), skips.List())
	}
	first := skips.List()[0]
	if first.ID != "q3" || !strings.Contains(first.Reason, "bidPrice") {
		t.Fatalf("skip %+v: want q3 naming bidPrice", first)
	}
	if !qs[0].BidPrice.Equal(qs[0].BidPrice) || qs[0].BidPrice.String() != "17.1" || !strings.Contains(string(qs[0].RawJSON()), "futureField") {
		t.Fatalf("quote 0: bid %s raw %s", qs[0].BidPrice, qs[0].RawJSON())
	}
}
