package overview_test

import (
	"context"
	"encoding/csv"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"treasury/config"
	"treasury/desk/history"
	"treasury/desk/live"
	"treasury/desk/platform"
	"treasury/process/sandboxprofile"
	"treasury/ui"
	"treasury/views/overview"
	"treasury/views/viewtest"
	"treasury/wire/apierr"
	"treasury/wire/liquidity"
	"treasury/wire/payments"
)

// world is a frozen sandbox advanced ten minutes a minute at a time, so
// that the rates have history and payments have finished and failed, for
// a test that changes it. The overview shows no trades: their window (the
// costliest read) is not read.
func world(t *testing.T, o viewtest.Options) *viewtest.Env {
	t.Helper()
	o.Skip = noTrades
	e := viewtest.New(t, o)
	tenMinutes(e)
	return e
}

func tenMinutes(e *viewtest.Env) {
	for range 10 {
		e.Advance(time.Minute)
	}
}

// shared is the world of world(t, Options{}), built once and shared by the
// tests that only read it (a world costs most of a test's time).
var shared = viewtest.NewWorld(viewtest.Options{Skip: noTrades}, tenMinutes)

// noTrades skips the one topic the overview does not show.
var noTrades = []live.Topic{live.Trades}

func newView(e *viewtest.Env) *overview.View {
	return overview.New(e.Ctx, overview.Options{Base: e.P.Config.BaseCurrency, Runway: e.P.Runway})
}

// render draws the view at w x h as the shell would after a change.
func render(v *overview.View, e *viewtest.Env, w, h int) string {
	e.P.Store.Sync()
	v.Update(ui.StoreChanged{})
	return v.Render(w, h)
}

// golden runs the shell with the overview at w x h and compares its last
// frame with the test's golden file.
func golden(t *testing.T, colour bool, w, h int) string {
	open := shared.Env // the defaults: the sandbox's USD runway is critical
	if colour {
		open = shared.ColourEnv
	}
	e := open(t)
	tm := e.ProgramAt(t, w, h, newView(e))
	viewtest.WaitFor(t, tm, "Balances & runway")
	return viewtest.Golden(t, tm)
}

func TestOverviewGolden(t *testing.T) {
	frame := golden(t, false, 120, 40)
	for _, want := range []string{"BTC/USD", "Total 91,069,433.78 USD", "‼ 0.4 h 15m", "10:02", "failure rate", "Open alerts", "Interfaces", "LOW_RUNWAY"} {
		if !strings.Contains(frame, want) {
			t.Errorf("no %q in the frame", want)
		}
	}
	if strings.Contains(frame, "not shown at this size") {
		t.Error("a panel was left out at 120x40")
	}
}

func TestOverviewGoldenColour(t *testing.T) {
	frame := golden(t, true, 120, 40)
	if !strings.Contains(frame, "\x1b[") {
		t.Fatal("no colour in the colour frame")
	}
	if plain := ansi.Strip(frame); !strings.Contains(plain, "Total 91,069,433.78 USD") {
		t.Errorf("the colour frame shows other figures:\n%s", plain)
	}
}

// TestOverviewGolden80x24: the smallest terminal keeps the rates and the
// balances with their runway, and says what it left out.
func TestOverviewGolden80x24(t *testing.T) {
	frame := golden(t, false, 80, 24)
	viewtest.Fits(t, "80x24", frame, 80, 24)
	for _, want := range []string{"BTC/USD", "Runway", "not shown at this size: payments, exposure, alerts, health"} {
		if !strings.Contains(frame, want) {
			t.Errorf("no %q in the frame", want)
		}
	}
}

func TestOverviewGolden80x24Colour(t *testing.T) {
	frame := golden(t, true, 80, 24)
	viewtest.Fits(t, "80x24 colour", frame, 80, 24)
	if !strings.Contains(ansi.Strip(frame), "not shown at this size") {
		t.Error("no note of the panels left out")
	}
}

// TestOverviewDropsLeastImportantFirst: as the height shrinks the health
// goes first, then the alerts, then the payments; every size fits.
func TestOverviewDropsLeastImportantFirst(t *testing.T) {
	e := shared.Env(t)
	v := newView(e)
	prev := 5
	for h := 60; h >= 12; h-- {
		for _, w := range []int{80, 100, 120, 160} {
			out := render(v, e, w, h)
			viewtest.Fits(t, "overview", out, w, h)
			shown := 0
			for _, title := range []string{"Rates", "Balances & runway", "Payments ·", "Open alerts", "Interfaces"} {
				if strings.Contains(out, title) {
					shown++
				} else {
					break // a panel shown after one left out
				}
			}
			if w == 120 && shown > prev {
				t.Fatalf("at height %d, %d panels in order, more than at %d", h, shown, h+1)
			}
			if w == 120 {
				prev = shown
			}
			if !strings.Contains(out, "Rates") {
				t.Fatalf("%dx%d: no rates:\n%s", w, h, out)
			}
		}
	}
	if prev > 2 {
		t.Fatalf("at height 12, %d panels", prev)
	}
}

// TestOverviewWindow: w shows the change and the payments of the last 24
// hours, and back.
func TestOverviewWindow(t *testing.T) {
	e := shared.Env(t)
	v := newView(e)
	if out := render(v, e, 120, 36); !strings.Contains(out, "Rates · last 1h") || !strings.Contains(out, "initiated in the last 1h") {
		t.Fatalf("not the last hour:\n%s", out)
	}
	v.Update(viewtest.Key("w"))
	if out := render(v, e, 120, 36); !strings.Contains(out, "Rates · last 24h") || !strings.Contains(out, "initiated in the last 24h") {
		t.Fatalf("not the last day:\n%s", out)
	}
	// Without a history file the week has the memory's minutes, and the
	// payments the store's day: each says so.
	v.Update(viewtest.Key("w"))
	if out := render(v, e, 120, 36); !strings.Contains(out, "Rates · last 7d") || !strings.Contains(out, "Δ 39m") ||
		!strings.Contains(out, "initiated in the last 7d window, 24h held") {
		t.Fatalf("not the last week, or not what it holds of it:\n%s", out)
	}
	v.Update(viewtest.Key("w"))
	if out := render(v, e, 120, 36); !strings.Contains(out, "Rates · last 30d") || !strings.Contains(out, "initiated in the last 30d window, 24h held") {
		t.Fatalf("not the last 30 days:\n%s", out)
	}
	v.Update(viewtest.Key("w"))
	if out := render(v, e, 120, 36); !strings.Contains(out, "Rates · last 1h") {
		t.Fatalf("w after 30 days is not the hour again:\n%s", out)
	}
	v.Update(ui.Open{View: overview.Name, Args: []string{"7d"}})
	if out := render(v, e, 120, 36); !strings.Contains(out, "Rates · last 7d") {
		t.Fatalf(":overview 7d:\n%s", out)
	}
	v.Update(ui.Open{View: overview.Name, Args: []string{"1h"}})
	if out := render(v, e, 120, 36); !strings.Contains(out, "Rates · last 1h") {
		t.Fatalf(":overview 1h:\n%s", out)
	}
}

// TestOverviewLoading: before any answer every panel says what it is
// loading, never an empty figure.
func TestOverviewLoading(t *testing.T) {
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory()}) // its platform is its own
	p, err := platform.Open(sandboxprofile.Of(e.Sandbox, config.Builtin()), platform.Options{Now: e.Sandbox.Clock().Now, Inline: true, BackfillBudget: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	ctx := e.Ctx.Apart()
	ctx.Store = p.Store
	v := overview.New(ctx, overview.Options{Runway: p.Runway})
	v.Update(ui.StoreChanged{})
	out := v.Render(120, 36)
	for _, want := range []string{"loading quotes…", "loading liquidity balances…", "loading payments balances…", "loading payments…"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q:\n%s", want, out)
		}
	}
	for _, never := range []string{"no quotes", "no balances", "no payment", "Total"} {
		if strings.Contains(out, never) {
			t.Errorf("%q before any answer:\n%s", never, out)
		}
	}
	// The balances answer, the ledger not yet: the runway is "…" and says so.
	for _, tp := range []live.Topic{live.Quotes, live.LiquidityBalances, live.PaymentBalances} {
		p.Store.FetchNow(context.Background(), tp)
	}
	v.Update(ui.StoreChanged{})
	out = v.Render(120, 36)
	if !strings.Contains(out, "loading ledger…") || !strings.Contains(out, "Total ") {
		t.Errorf("balances without the ledger:\n%s", out)
	}
}

// TestOverviewFailedSourceIsNamed: a refused liquidity token is named in
// the rates panel and in the balances panel, whose total then leaves the
// liquidity out and is an estimate.
func TestOverviewFailedSourceIsNamed(t *testing.T) {
	e := viewtest.New(t, viewtest.Options{Profile: func(c *config.Config) {
		c.Liquidity.Token = config.NewSecret("not-the-token")
	}})
	v := newView(e)
	out := render(v, e, 120, 36)
	rates, rest, _ := strings.Cut(out, "Balances & runway")
	if !strings.Contains(rates, "quotes: ✖") || strings.Contains(rates, "BTC/USD") {
		t.Errorf("the rates panel does not name the failure:\n%s", rates)
	}
	if !strings.Contains(rest, "liquidity balances: ✖") || !strings.Contains(rest, "Total ≈") || !strings.Contains(rest, "(estimate)") {
		t.Errorf("the balances panel does not name the failure or mark its total:\n%s", rest)
	}
	if !strings.Contains(rest, "USD ") || !strings.Contains(rest, "GBP ") {
		t.Errorf("the prefunded balances are not shown:\n%s", rest)
	}
	// The total names the inputs it is stale by, not only its mids.
	if !strings.Contains(rest, "STALE: quotes, liquidity balances") {
		t.Errorf("the total does not name its failed inputs:\n%s", rest)
	}
	for _, l := range strings.Split(rest, "\n") {
		if f := strings.Fields(l); len(f) > 2 && f[0] == "USD" && f[1] != "?" {
			t.Errorf("the USD liquidity balance is not unknown: %q", l)
		}
	}
	// Low liquidity balances raise alerts: with their read failed, the
	// alerts open are not all there is.
	if !strings.Contains(rest, "more unknown") || !strings.Contains(rest, "liquidity.balances could not be read") {
		t.Errorf("the alerts panel does not say which alerts are unknown:\n%s", rest)
	}
}

// TestOverviewBaseCurrency: totals in another base currency convert
// through the pairs quoted (EUR through USD); a currency no pair reaches
// is left out, named, and the total marked as an estimate.
func TestOverviewBaseCurrency(t *testing.T) {
	e := shared.Env(t)
	v := overview.New(e.Ctx, overview.Options{Base: "EUR", Runway: e.P.Runway})
	out := render(v, e, 120, 36)
	if !strings.Contains(out, "≈ EUR") || !strings.Contains(out, "Total ") || strings.Contains(out, "Total ≈") {
		t.Errorf("EUR totals:\n%s", out)
	}
	v = overview.New(e.Ctx, overview.Options{Base: "JPY", Runway: e.P.Runway})
	out = render(v, e, 120, 36)
	if !strings.Contains(out, "Total ≈ 0.00 JPY (estimate)") || !strings.Contains(out, "no quote for USD/JPY, XRP/JPY") {
		t.Errorf("JPY totals:\n%s", out)
	}
}

// TestOverviewIsSharedBetweenSessions: two sessions' overviews read the
// same shared values, built once per change whatever the sessions.
func TestOverviewIsSharedBetweenSessions(t *testing.T) {
	e := viewtest.New(t, viewtest.Options{Skip: noTrades})
	a, b := newView(e), newView(e)
	if ta, tb := a.Topics(), b.Topics(); strings.Join(topicNames(ta), " ") != strings.Join(topicNames(tb), " ") {
		t.Fatalf("topics %v and %v", ta, tb)
	}
	render(a, e, 120, 36)
	render(b, e, 120, 36)
	var derived live.Topic
	for _, tp := range a.Topics() {
		if strings.Contains(string(tp), "holdingsName") {
			derived = tp
		}
	}
	before := e.P.Store.Snapshot(derived).Version
	e.Advance(2 * time.Second)
	e.P.Store.Sync()
	after := e.P.Store.Snapshot(derived).Version
	if after == before {
		t.Fatal("the holdings were not rebuilt after a change: the test proves nothing")
	}
	// A read of every topic changes the quotes and both balances: three
	// inputs, at most three builds, whatever the number of sessions.
	if after-before > 3 {
		t.Fatalf("%d builds of the holdings for one read of each topic", after-before)
	}
	if ra, rb := render(a, e, 120, 36), render(b, e, 120, 36); ra != rb {
		t.Fatal("two sessions show different figures")
	}
}

func topicNames(ts []live.Topic) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = string(t)
	}
	return out
}

// TestOverviewEmpty: sources that answered with no records say so, each
// in its panel (an empty list only once the server said so).
func TestOverviewEmpty(t *testing.T) {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	opts := func(iface apierr.Interface) live.FeedOptions[[]liquidity.Quote, []liquidity.Quote] {
		return live.FeedOptions[[]liquidity.Quote, []liquidity.Quote]{Interface: iface, Interval: time.Hour}
	}
	st := live.New(live.Options{Inline: true, Now: func() time.Time { return now }, Feeds: []live.Feed{
		live.ListFeed(live.QuotesKey, func(q liquidity.Quote) string { return q.QuoteID },
			func(context.Context) ([]liquidity.Quote, error) { return nil, nil }, opts(apierr.Liquidity)),
		live.ListFeed(live.LiquidityBalancesKey, func(b liquidity.Balance) string { return b.Asset },
			func(context.Context) ([]liquidity.Balance, error) { return nil, nil },
			live.FeedOptions[[]liquidity.Balance, []liquidity.Balance]{Interface: apierr.Liquidity, Interval: time.Hour}),
		live.ValueFeed(live.PaymentBalancesKey, func(context.Context) (payments.Balances, error) { return payments.Balances{}, nil },
			live.FeedOptions[payments.Balances, payments.Balances]{Interface: apierr.Payments, Interval: time.Hour}),
		live.FoldFeed(live.PaymentsKey, func(context.Context) ([]payments.Payment, error) { return nil, nil },
			func(prev *live.PaymentSet, got []payments.Payment, _ time.Time) (*live.PaymentSet, live.Changes) {
				ps, ch := live.MergePayments(prev, got, time.Time{})
				return ps, ch
			}, live.FeedOptions[[]payments.Payment, *live.PaymentSet]{Interface: apierr.Payments, Interval: time.Hour}),
	}})
	defer st.Close()
	r := colorprofile.NoTTY
	ctx := &ui.Context{Shared: &ui.Shared{Store: st, Profile: "empty", Now: func() time.Time { return now }}, Session: ui.Session{Colors: r, Dark: true, Theme: ui.NewTheme(r, true, nil)}}
	v := overview.New(ctx, overview.Options{})
	for _, tp := range st.Topics() {
		st.FetchNow(context.Background(), tp)
	}
	v.Update(ui.StoreChanged{})
	out := v.Render(120, 36)
	for _, want := range []string{"no quotes in the quote window", "no balances", "no payment initiated in the last 1h", "none open"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q:\n%s", want, out)
		}
	}
	for _, never := range []string{"loading", "✖", "Total"} {
		if strings.Contains(out, never) {
			t.Errorf("%q with every source answered empty:\n%s", never, out)
		}
	}
}

// TestOverviewCSVOneMeaningPerColumn: the rates', the holdings' and the
// exposure's figures have columns of their own, the exposure's named as
// `treasury get exposure -o csv` names them.
func TestOverviewCSVOneMeaningPerColumn(t *testing.T) {
	e := shared.Env(t)
	v := newView(e)
	v.Update(ui.StoreChanged{})
	e.P.Store.Sync()
	var b strings.Builder
	if err := ui.CSVOf(v)(&b); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(strings.NewReader(b.String())).ReadAll()
	if err != nil || len(recs) < 2 {
		t.Fatalf("%v:\n%s", err, b.String())
	}
	h := strings.Join(recs[0], ",")
	if h != "kind,pair,bid,ask,mid,spread,spread_bps,quoted_at,currency,liquidity_available,prefunded_available,value,value_currency,no_rate_for,"+
		"reserved,pays_out,pays_out_count,prefunded,prefunded_count,prefunded_hours,owed_just_in_time,owed_just_in_time_count,past_due,past_due_count,"+
		"first_due,due_within_hour,due_within_hour_count,funded_just_in_time,funded_just_in_time_count,credit,credit_count,other,runway,runway_hours,runway_by,empty_at" {
		t.Fatalf("header %s", h)
	}
	kinds := map[string]int{}
	for _, r := range recs[1:] {
		kinds[r[0]]++
		if r[0] == "holding" && (r[2] != "" || r[8] == "" || r[15] != "") || r[0] == "rate" && (r[8] != "" || r[2] == "" || r[15] != "") ||
			r[0] == "exposure" && (r[2] != "" || r[9] != "" || r[8] == "" || r[15] == "") {
			t.Errorf("a %s line in another kind's columns: %v", r[0], r)
		}
	}
	if kinds["rate"] == 0 || kinds["holding"] == 0 || kinds["exposure"] == 0 {
		t.Errorf("lines of each kind: %v", kinds)
	}
}

// TestOverviewWeekGolden: w twice opens the week. Its rates come from the
// history file, which holds each pair's mid at a tenth below the latest
// from 3 days to 3 hours ago: each pair's change over the week is
// +10.00% over the 3 days held, which the columns say; the payments,
// which are not in the file, say how much of the week the store holds.
func TestOverviewWeekGolden(t *testing.T) {
	e := world(t, viewtest.Options{})
	now := e.Sandbox.Clock().Now().Truncate(time.Minute)
	latest := map[string]float64{}
	for _, q := range live.Get(e.P.Store, live.QuotesKey).Data {
		if _, ok := latest[q.Pair()]; !ok {
			latest[q.Pair()], _ = q.Mid().Float64()
		}
	}
	var b history.Batch
	for m := now.Add(-3 * 24 * time.Hour); m.Before(now.Add(-3 * time.Hour)); m = m.Add(10 * time.Minute) {
		for pair, mid := range latest {
			b.Rates = append(b.Rates, history.Rate{Pair: pair, Minute: m, Mid: mid / 1.1, Quotes: 1})
		}
	}
	e.Archive(t, b)
	tm := e.ProgramAt(t, 120, 40, newView(e))
	viewtest.WaitFor(t, tm, "Balances & runway")
	viewtest.Keys(tm, "w") // one key at a time: two flashes may arrive in either order
	viewtest.WaitAll(t, tm, "Rates · last 24h (w)", "overview of the last 24h")
	viewtest.Keys(tm, "w")
	viewtest.WaitAll(t, tm, "Rates · last 7d (w)", "overview of the last 7d")
	frame := viewtest.Golden(t, tm)
	for _, want := range []string{"Δ 3d", "3d history", "+10.00%", "Payments · initiated in the last 7d window, "} {
		if !strings.Contains(frame, want) {
			t.Errorf("no %q in the frame", want)
		}
	}
	if n := strings.Count(frame, "+10.00%"); n != len(latest) {
		t.Errorf("%d pairs at +10.00%%, want all %d", n, len(latest))
	}
}

// TestFailureRateIsTheAlerts: the overview's failure rate over the hour
// is the FAILURE_RATE alert's figure: the same payments (finished in the
// hour, whenever initiated), the same count, the same rounding.
func TestFailureRateIsTheAlerts(t *testing.T) {
	e := shared.Env(t)
	frame := render(newView(e), e, 120, 40)
	m := regexp.MustCompile(`failure rate ([0-9.]+)% \((\d+) of the (\d+) finished in the 1h\)`).FindStringSubmatch(frame)
	if m == nil {
		t.Fatalf("no failure rate over the hour in:\n%s", frame)
	}
	var alert string
	for _, a := range e.P.Store.Alerts() {
		if a.Code == "FAILURE_RATE" {
			alert = a.Title
		}
	}
	want := m[1] + "% of payments failed or were declined in the last hour (" + m[2] + " of " + m[3] + " finished;"
	if !strings.HasPrefix(alert, want) {
		t.Fatalf("the alert says %q; the overview %q", alert, m[0])
	}
}
