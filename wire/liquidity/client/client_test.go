package client_test

import (
	"context"
	"testing"
	"time"

	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
	"treasury/wire/apierr"
	"treasury/wire/auth"
	"treasury/wire/liquidity"
	"treasury/wire/liquidity/client"
	"treasury/wire/transport"
)

func newClient(tb testing.TB, srv *sandbox.Server, token string, opts client.Options) (*client.Client, *sandboxtest.Waits) {
	tb.Helper()
	t, w := sandboxtest.Transport(tb, srv, transport.Config{Interface: apierr.Liquidity, Auth: auth.NewStatic(auth.NewSecret(token))})
	if opts.Now == nil {
		opts.Now = srv.Clock().Now
	}
	return client.New(t, opts), w
}

func TestQuotesWindowAllPages(t *testing.T) {
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	now := srv.Clock().Now()
	win := liquidity.Last(10*time.Minute, now)
	ctx := context.Background()
	one, _ := newClient(t, srv, srv.Credentials().LiquidityToken, client.Options{PageSize: 7})
	first, err := one.QuotesPage(ctx, win, 0, 7)
	if err != nil {
		t.Fatal(err)
	}
	if !first.First || first.Last || first.TotalPages < 2 {
		t.Fatalf("page 0 envelope %+v: want several pages", first.PageInfo)
	}
	for _, conc := range []int{1, 5} {
		c, _ := newClient(t, srv, srv.Credentials().LiquidityToken, client.Options{PageSize: 50, Concurrency: conc})
		qs, err := c.AllQuotes(ctx, win)
		if err != nil {
			t.Fatal(err)
		}
		if len(qs) != first.TotalElements {
			t.Fatalf("concurrency %d: %d quotes, totalElements %d", conc, len(qs), first.TotalElements)
		}
		seen := map[string]bool{}
		for i, q := range qs {
			if seen[q.QuoteID] {
				t.Fatalf("quote %s twice", q.QuoteID)
			}
			seen[q.QuoteID] = true
			if q.CreatedAt.Before(win.Start) || q.CreatedAt.After(win.End) {
				t.Errorf("quote %s at %v outside the window", q.QuoteID, q.CreatedAt)
			}
			if i > 0 && q.CreatedAt.After(qs[i-1].CreatedAt) {
				t.Fatalf("quote %d newer than quote %d: not newest first", i, i-1)
			}
			if q.BidPrice.IsZero() || q.AskPrice.LessThan(q.BidPrice) {
				t.Errorf("quote %s prices bid %s ask %s", q.QuoteID, q.BidPrice, q.AskPrice)
			}
		}
	}
}

func TestTradesAndBalances(t *testing.T) {
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	c, _ := newClient(t, srv, srv.Credentials().LiquidityToken, client.Options{PageSize: 5})
	ctx := context.Background()
	win := liquidity.Last(6*time.Hour, srv.Clock().Now())
	trades, err := c.AllTrades(ctx, win)
	if err != nil {
		t.Fatal(err)
	}
	if len(trades) <= 5 {
		t.Fatalf("%d trades in 6 h: want more than one page", len(trades))
	}
	ids := map[string]bool{}
	for _, tr := range trades {
		if ids[tr.TradeID] || tr.TradeID == "" || tr.Qty.IsZero() {
			t.Fatalf("trade %+v duplicated or empty", tr)
		}
		ids[tr.TradeID] = true
	}
	bals, err := c.AllBalances(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(bals) == 0 {
		t.Fatal("no balances")
	}
	for _, b := range bals {
		if b.Asset == "" || !b.Available.Add(b.Reserved).Equal(b.Total) {
			t.Errorf("balance %+v: available + reserved != total", b)
		}
	}
}

func TestWrongTokenIsNotRetried(t *testing.T) {
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	c, w := newClient(t, srv, "wrong", client.Options{})
	_, err := c.AllQuotes(context.Background(), liquidity.Window{})
	if apierr.ClassOf(err) != apierr.ClassRefreshAuth {
		t.Fatalf("err %v, want a 401", err)
	}
	if w.Count() != 0 {
		t.Errorf("a static token's 401 was retried: waits %v", w.All())
	}
}

func TestBadWindowIsFixRequest(t *testing.T) {
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	c, w := newClient(t, srv, srv.Credentials().LiquidityToken, client.Options{})
	now := srv.Clock().Now()
	_, err := c.AllQuotes(context.Background(), liquidity.Window{Start: now, End: now.Add(-time.Hour)})
	if e, ok := apierr.As(err); !ok || e.HTTPStatus != 400 || e.Class != apierr.ClassFixRequest || w.Count() != 0 {
		t.Fatalf("err %v waits %v", err, w.All())
	}
}

func TestFaultBurstsAreRetried(t *testing.T) {
	for _, f := range []sandbox.FaultSettings{{ErrorRate: 0.3}, {UnavailableRate: 0.3}} {
		opts := sandboxtest.Options()
		opts.Faults = f
		srv := sandboxtest.Listen(t, opts)
		// 180 pages a read, each a chance of a fault burst (a read fails
		// when one page fails every attempt); small pages keep the reads
		// cheap under -race.
		c, w := newClient(t, srv, srv.Credentials().LiquidityToken, client.Options{PageSize: 5, Concurrency: 4})
		win := liquidity.Last(150*time.Second, srv.Clock().Now())
		ok, failed := 0, 0
		for range 10 {
			qs, err := c.AllQuotes(context.Background(), win)
			switch {
			case err == nil:
				ok++
				if len(qs) == 0 {
					t.Error("empty result without error")
				}
			default:
				failed++
				if e, isAPI := apierr.As(err); !isAPI || !e.Retryable() {
					t.Errorf("%+v: failure %v is not a retryable apierr", f, err)
				}
			}
		}
		retried := w.Count()
		if ok == 0 || retried == 0 {
			t.Errorf("%+v: %d ok, %d failed, %d retries: want successes through retries", f, ok, failed, retried)
		}
	}
}

// TestMalformedBodiesAreReadAgainOnce: a page that cannot be read is read
// again at once (no backoff wait is spent on it); a read that still fails
// is a Malformed failure of the read.
func TestMalformedBodiesAreReadAgainOnce(t *testing.T) {
	opts := sandboxtest.Options()
	opts.Faults = sandbox.FaultSettings{MalformedRate: 0.05} // the soak's rate
	srv := sandboxtest.Listen(t, opts)
	c, w := newClient(t, srv, srv.Credentials().LiquidityToken, client.Options{PageSize: 20, Concurrency: 4})
	win := liquidity.Last(2*time.Minute, srv.Clock().Now())
	ok, failed := 0, 0
	for range 10 {
		_, err := c.AllQuotes(context.Background(), win)
		if err == nil {
			ok++
			continue
		}
		failed++
		if apierr.ClassOf(err) != apierr.ClassMalformed {
			t.Errorf("failure %v is not Malformed", err)
		}
	}
	if ok < 7 || w.Count() != 0 {
		t.Errorf("%d ok, %d failed, %d waits: want reads that succeed on a second read, and no wait", ok, failed, w.Count())
	}
}
