package runway

import (
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"treasury/wire/money"
	"treasury/wire/payments"
)

func tx(cur, op, src string, at time.Time, before, after string) payments.LedgerTransaction {
	return payments.LedgerTransaction{Currency: cur, Operation: op, TxnSource: src, CreatedDttm: at,
		AvailableBalanceBefore: money.N(money.MustParse(before)), AvailableBalanceAfter: money.N(money.MustParse(after))}
}

func bal(cur, available string) payments.Balance {
	return payments.Balance{Currency: cur, FundingType: "PREFUNDED", AvailableBalance: money.N(money.MustParse(available))}
}

func limits(w, c string) Limits {
	return Limits{Warning: money.MustParse(w), Critical: money.MustParse(c)}
}

var at = time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)

func ago(h float64) time.Time { return at.Add(-time.Duration(h * float64(time.Hour))) }

// TestWeightedPace: the pace weighs each movement by e^(-age/6h) over the
// 24 hours the ledger covers, divided by 6 (1 - e^-4) = 5.890106166668
// (the weight of a steady hour), and leaves funding out. The expected
// figures were worked out apart from the code (Python's decimal module,
// the same roundings).
func TestWeightedPace(t *testing.T) {
	ledger := []payments.LedgerTransaction{
		tx("USD", payments.OpReserve, payments.SrcPayment, at, "1100", "1000"),                       // 100 out, weight 1
		tx("USD", payments.OpReserve, payments.SrcPayment, ago(6), "2000", "1900"),                   // 100 out, weight e^-1
		tx("USD", payments.OpRelease, payments.SrcPayment, ago(12), "1850", "1900"),                  // 50 back, weight e^-2
		tx("USD", payments.OpDebit, payments.SrcPayment, ago(2), "1900", "1900"),                     // reserved funds leave: nothing
		tx("USD", payments.OpCredit, payments.SrcBank, ago(1), "1000", "501000"),                     // a top-up: funding, left out
		tx("USD", payments.OpReserve, payments.SrcPayment, at.Add(time.Minute), "1000", "0"),         // after the read
		tx("JPY", payments.OpReserve, payments.SrcPayment, ago(0.5), "300", "0"),                     // no balance: not shown
		tx("EUR", payments.OpCredit, payments.SrcPayment, ago(0.5), "5", "10"),                       // a return: net inflow
		tx("GBP", payments.OpReserve, payments.SrcPayment, ago(0.25), "3", "0"),                      // nothing left
		tx("MXN", payments.OpCredit, "MANUAL", ago(0.1), "0", "7"),                                   // only funding
		tx("USD", payments.OpCredit, payments.SrcPayment, ago(30), "1", "100000"),                    // before the ledger's window: weighed (its data)
		tx("USD", payments.OpReserve, payments.SrcPayment, ago(30).Add(-time.Hour), "100000", "100"), // and its pair
	}
	s := Compute(payments.Balances{Balances: []payments.Balance{bal("USD", "900"), bal("USD", "100"), bal("EUR", "10"), bal("GBP", "0"), bal("MXN", "7")}},
		ledger[:10], Options{At: at, From: ago(24), Limits: func(cur string) Limits {
			if cur == "GBP" {
				return limits("48", "12")
			}
			return limits("24", "6")
		}})
	if s.Window != DefaultWindow || !s.From.Equal(ago(24)) || len(s.Currencies) != 4 {
		t.Fatalf("sheet %+v", s)
	}
	usd, _ := s.Find("USD")
	// now:  (100 + 100 e^-1 - 50 e^-2) / 5.890106166668 = 22.07
	// then: (100 e^-5/6 - 50 e^-11/6) / 6 (1 - e^-23/6) = 6.04
	for what, got := range map[string]string{"available": usd.Available.String(), "outflow": usd.Outflow.String(),
		"earlier": usd.Earlier.String(), "change": usd.Change.String(), "hours": usd.Hours.String()} {
		want := map[string]string{"available": "1000", "outflow": "22.07", "earlier": "6.04", "change": "265.4", "hours": "45.3"}[what]
		if got != want {
			t.Errorf("USD %s %s, want %s", what, got, want)
		}
	}
	// 1000 / 22.07 = 45.310376 h: 163,117.3536 s after the read.
	if want := at.Add(163117353600 * time.Microsecond); !usd.Empty.Equal(want) {
		t.Errorf("USD empty at %s, want %s", usd.Empty, want)
	}
	// The last 15 minutes: the 100 out at the read, 400 an hour at that
	// pace: 2.5 h, shorter than the weighted 45.3 h, and critical.
	if usd.Moves != 4 || usd.Funding != 1 || usd.Trend != Rising || usd.NoOutflow || usd.Level != Critical ||
		usd.Burn.String() != "400" || !usd.BurnKnown || usd.BurnHours.String() != "2.5" || !usd.BurnEmpty.Equal(at.Add(150*time.Minute)) {
		t.Errorf("USD %+v", usd)
	}
	if h, empty, burst, ok := usd.Runway(); !ok || !burst || h.String() != "2.5" || !empty.Equal(usd.BurnEmpty) || usd.Pace().String() != "400" {
		t.Errorf("USD runway %v %v %v %v", h, empty, burst, ok)
	}
	eur, _ := s.Find("EUR")
	if !eur.NoOutflow || eur.Level != None || !eur.Outflow.IsNegative() || !eur.Empty.IsZero() {
		t.Errorf("EUR %+v", eur)
	}
	gbp, _ := s.Find("GBP")
	if gbp.NoOutflow || !gbp.Hours.IsZero() || gbp.Level != Critical || !gbp.Empty.Equal(at) {
		t.Errorf("GBP %+v", gbp)
	}
	mxn, _ := s.Find("MXN")
	if !mxn.NoOutflow || mxn.Moves != 0 || mxn.Funding != 1 || mxn.Trend != Steady {
		t.Errorf("MXN %+v", mxn)
	}
	if _, ok := s.Find("JPY"); ok {
		t.Error("a currency without a balance has a runway")
	}
	if got := s.Short(); len(got) != 2 || got[0].Currency != "GBP" || got[1].Currency != "USD" {
		t.Errorf("short %+v", got)
	}
}

// TestBurnCatchesABurst: a balance drawn from 131,682.83 to 17,934.95 in
// six minutes, after a quiet day, is empty within minutes at that pace,
// while the weighted pace still reads hours: the burn's runway is the
// shorter, sets the level, and is the one said; a ledger read that does
// not cover the last 15 minutes has no burn; a runway past 30 days is
// long.
func TestBurnCatchesABurst(t *testing.T) {
	var ledger []payments.LedgerTransaction
	balance := decimal.RequireFromString("140000")
	step := decimal.RequireFromString("1000")
	for h := 24.0; h > 1; h -= 3 { // a quiet day: 1,000 every 3 hours
		after := balance.Sub(step)
		ledger = append(ledger, tx("USD", payments.OpReserve, payments.SrcPayment, ago(h), balance.String(), after.String()))
		balance = after
	}
	ledger = append(ledger, tx("USD", payments.OpReserve, payments.SrcPayment, ago(0.1), "131682.83", "17934.95"))
	s := Compute(payments.Balances{Balances: []payments.Balance{bal("USD", "17934.95")}}, ledger,
		Options{At: at, From: ago(24), Limits: func(string) Limits { return limits("24", "6") }})
	usd, _ := s.Find("USD")
	// 113,747.88 in the last 15 minutes: 454,991.52 an hour; 17,934.95 of
	// it lasts 0.039417 h: 0.0 h to a tenth, 2 min 21.9 s.
	if usd.Burn.String() != "454991.52" || usd.BurnHours.String() != "0" || !usd.Hours.GreaterThan(usd.BurnHours) || usd.Level != Critical {
		t.Errorf("USD %+v", usd)
	}
	if _, empty, burst, _ := usd.Runway(); !burst || empty.Sub(at).Round(time.Second) != 142*time.Second {
		t.Errorf("USD runs out %v after the read (burst %v)", empty.Sub(at), burst)
	}
	// A read of the last ten minutes only: no burn to judge.
	s = Compute(payments.Balances{Balances: []payments.Balance{bal("USD", "17934.95")}}, ledger, Options{At: at, From: ago(1.0 / 6)})
	if usd, _ := s.Find("USD"); usd.BurnKnown || usd.Burn.IsPositive() {
		t.Errorf("a burn from ten minutes of ledger: %+v", usd)
	}
	// 1,000 a day on a million lasts 1,000 days: long.
	s = Compute(payments.Balances{Balances: []payments.Balance{bal("USD", "1000000")}},
		[]payments.LedgerTransaction{tx("USD", payments.OpReserve, payments.SrcPayment, ago(12), "1001000", "1000000")}, Options{At: at, From: ago(24)})
	if usd, _ := s.Find("USD"); !usd.LongRunway() {
		t.Errorf("a runway of %v h is not long", usd.Hours)
	}
}

// TestSteadyPace: a steady outflow reads back as itself, whatever the
// window; a burst is forgotten gradually rather than at once; and a
// shorter window follows a change of pace sooner.
func TestSteadyPace(t *testing.T) {
	var ledger []payments.LedgerTransaction
	for m := 1; m <= 24*60; m++ { // 1.00 a minute for a day: 60.00 an hour
		ledger = append(ledger, tx("USD", payments.OpReserve, payments.SrcPayment, at.Add(-time.Duration(m)*time.Minute).Add(30*time.Second), "2", "1"))
	}
	balances := payments.Balances{Balances: []payments.Balance{bal("USD", "600")}}
	for _, w := range []time.Duration{time.Hour, 6 * time.Hour, 12 * time.Hour} {
		c := Compute(balances, ledger, Options{At: at, From: ago(24), Window: w}).Currencies[0]
		if c.Outflow.String() != "60" || c.Hours.String() != "10" || c.Trend != Steady {
			t.Errorf("window %s: %s an hour, %s h, trend %d; want 60, 10, steady", w, c.Outflow, c.Hours, c.Trend)
		}
	}
	// A burst of 1,200 an hour and a half ago, on the steady flow:
	// 60 + 1200 e^-0.25 / 5.890106166668 = 218.67; an hour earlier the
	// burst was half an hour old: 248.08, so the pace falls by 11.9 %.
	burst := append([]payments.LedgerTransaction{tx("USD", payments.OpReserve, payments.SrcPayment, ago(1.5), "1201", "1")}, ledger...)
	c := Compute(balances, burst, Options{At: at, From: ago(24)}).Currencies[0]
	if c.Outflow.String() != "218.67" || c.Earlier.String() != "248.08" || c.Change.String() != "-11.9" || c.Trend != Falling || c.Hours.String() != "2.7" {
		t.Errorf("after a burst: %s an hour (%s before, %s%%), %s h; want 218.67, 248.08, -11.9, falling, 2.7", c.Outflow, c.Earlier, c.Change, c.Hours)
	}
	// With a one-hour window the burst weighs more while new and is
	// forgotten sooner: 787.84 an hour after it, 327.76 now.
	c = Compute(balances, burst, Options{At: at, From: ago(24), Window: time.Hour}).Currencies[0]
	if c.Outflow.String() != "327.76" || c.Earlier.String() != "787.84" {
		t.Errorf("one-hour window after the burst: %s an hour (%s before), want 327.76 (787.84)", c.Outflow, c.Earlier)
	}
}

// TestLevels: the level grows as the runway shortens; a limit of zero is
// no level.
func TestLevels(t *testing.T) {
	l := limits("24", "6")
	for hours, want := range map[string]Level{"30": None, "24": None, "23.9": Warning, "6": Warning, "5.9": Critical, "0": Critical} {
		if got := l.Level(money.MustParse(hours)); got != want {
			t.Errorf("%s h: %s, want %s", hours, got, want)
		}
	}
	if got := limits("0", "0").Level(decimal.Zero); got != None {
		t.Errorf("no limits: %s", got)
	}
	if got := limits("0", "6").Level(money.MustParse("10")); got != None {
		t.Errorf("critical alone above it: %s", got)
	}
}

// TestNoTime: a ledger read that covers no time weighs nothing: no pace,
// no trend, rather than a division by zero.
func TestNoTime(t *testing.T) {
	s := Compute(payments.Balances{Balances: []payments.Balance{bal("USD", "10")}},
		[]payments.LedgerTransaction{tx("USD", payments.OpReserve, payments.SrcPayment, at, "11", "10")}, Options{At: at})
	if c := s.Currencies[0]; !c.NoOutflow || c.Trend != Unknown {
		t.Errorf("no time covered: %+v", c)
	}
}

// BenchmarkCompute: the runway is built again at every read of the ledger
// or the balances (every 15 s), on the store's goroutine: a day of a busy
// account's ledger (three currencies, 60,000 movements) weighed twice
// (now and an hour ago).
func BenchmarkCompute(b *testing.B) {
	var ledger []payments.LedgerTransaction
	for i := range 60_000 {
		cur := []string{"USD", "EUR", "GBP"}[i%3]
		ledger = append(ledger, tx(cur, payments.OpReserve, payments.SrcPayment, at.Add(-time.Duration(i)*1440*time.Millisecond), "1000.25", "990.10"))
	}
	bal := payments.Balances{Balances: []payments.Balance{bal("USD", "1000000"), bal("EUR", "500000"), bal("GBP", "250000")}}
	b.ReportAllocs()
	for b.Loop() {
		Compute(bal, ledger, Options{At: at, From: ago(24), Limits: func(string) Limits { return limits("24", "6") }})
	}
}
