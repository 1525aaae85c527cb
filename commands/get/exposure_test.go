package get

import (
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"treasury/commands/cli/clitest"
	"treasury/commands/sandbox/profiletest"
	"treasury/data/payments"
	"treasury/data/runway"
	"treasury/sandbox/sandboxtest"
)

// TestExposureFigureByFigure: `get exposure` on a sandbox whose clock
// stands still, against the server's own records read apart (the payments
// in flight and the prefunded balances, as `get` prints them): per
// currency, what is paid out, drawn from the prefunded account (prefunded
// payins) and owed just in time (JIT_FUNDING awaiting funds) are the sums
// of those records; the available balance is the server's; the runway is
// the shorter of its two paces and reconciles with the balance.
func TestExposureFigureByFigure(t *testing.T) {
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	srv.AdvanceClock(30 * time.Minute) // live traffic: payments in flight, then the clock stands
	cfg := profiletest.Write(t, srv, clitest.FreeAddr(t), nil)
	rows := getJSON[[]exposureRow](t, "--config", cfg, "exposure")
	ps := getJSON[[]payments.Payment](t, "--config", cfg, "payments", "--state", "AWAITING_FUNDING,INITIATED,VALIDATING,TRANSFERRING")
	bal := getJSON[[]payments.Balance](t, "--config", cfg, "payment-balances")

	type sums struct {
		out, drawn, owed decimal.Decimal
		nOut, nOwed      int
	}
	want := map[string]*sums{}
	of := func(c string) *sums {
		if want[c] == nil {
			want[c] = &sums{}
		}
		return want[c]
	}
	jit := 0
	for _, p := range ps {
		o, d := p.Originator, p.Destination
		of(d.DestinationCurrency).out = of(d.DestinationCurrency).out.Add(d.DestinationAmount.Decimal())
		of(d.DestinationCurrency).nOut++
		switch {
		case o.Payin == "JIT_FUNDING" && p.PaymentState == payments.AwaitingFunding:
			of(o.SourceCurrency).owed = of(o.SourceCurrency).owed.Add(o.SourceAmount.Decimal())
			of(o.SourceCurrency).nOwed++
			jit++
		case o.Payin == "JIT_FUNDING":
		default:
			of(o.SourceCurrency).drawn = of(o.SourceCurrency).drawn.Add(o.SourceAmount.Decimal())
		}
	}
	if jit == 0 {
		t.Fatal("no just-in-time payment awaiting its funds in the sandbox's world: nothing to check")
	}
	available := map[string]decimal.Decimal{}
	for _, b := range bal {
		available[b.Currency] = available[b.Currency].Add(b.AvailableBalance.Decimal())
	}
	if len(rows) == 0 {
		t.Fatal("no rows")
	}
	runways := 0
	for _, r := range rows {
		w := of(r.Currency)
		if !r.PaysOut.Equal(w.out) || r.PaysOutCount != w.nOut || !r.Drawn.Equal(w.drawn) || !r.Owed.Equal(w.owed) || r.OwedCount != w.nOwed {
			t.Errorf("%s: out %s (%d) drawn %s owed %s (%d); the records say out %s (%d) drawn %s owed %s (%d)", r.Currency,
				r.PaysOut, r.PaysOutCount, r.Drawn, r.Owed, r.OwedCount, w.out, w.nOut, w.drawn, w.owed, w.nOwed)
		}
		a, prefunded := available[r.Currency]
		if prefunded != (r.Available != nil) || prefunded && !r.Available.Equal(a) {
			t.Errorf("%s: available %v, the server says %s", r.Currency, r.Available, a)
		}
		if r.FirstDue != nil && r.FirstDue.After(srv.Clock().Now().Add(time.Hour)) && r.DueWithinCount > 0 {
			t.Errorf("%s: %d due within the hour, the first due at %v (now %v)", r.Currency, r.DueWithinCount, r.FirstDue, srv.Clock().Now())
		}
		if r.RunwayHours == nil {
			continue
		}
		runways++
		// The runway is the shorter pace's, and the balance over that pace.
		pace, hours := r.WeightedOutflow, r.WeightedHours
		if r.RunwayBy == "15m" {
			pace, hours = r.Burn, r.BurnHours
		}
		if hours == nil || !r.RunwayHours.Equal(*hours) || !a.DivRound(*pace, 1).Equal(*r.RunwayHours) {
			t.Errorf("%s: runway %s h by %s, pace %s, available %s", r.Currency, r.RunwayHours, r.RunwayBy, pace, a)
		}
		if r.WeightedHours != nil && r.BurnHours != nil && r.RunwayHours.GreaterThan(decimal.Min(*r.WeightedHours, *r.BurnHours)) {
			t.Errorf("%s: runway %s h is not the shorter of %s and %s", r.Currency, r.RunwayHours, r.WeightedHours, r.BurnHours)
		}
	}
	if runways == 0 {
		t.Error("no currency has a runway: nothing checked")
	}
	// The burn, figure by figure: the net outflow of the ledger's last 15
	// minutes (the available balance before minus after each movement;
	// money in from other than payments is funding, left out), times 4.
	now := srv.Clock().Now()
	ledger := getJSON[[]payments.LedgerTransaction](t, "--config", cfg, "ledger", "--since", "1h")
	burn := map[string]decimal.Decimal{}
	for _, tx := range ledger {
		if !tx.CreatedDttm.After(now.Add(-runway.BurnSpan)) || tx.CreatedDttm.After(now) {
			continue
		}
		out := tx.AvailableBalanceBefore.Decimal().Sub(tx.AvailableBalanceAfter.Decimal())
		if out.IsNegative() && tx.TxnSource != payments.SrcPayment {
			continue
		}
		burn[tx.Currency] = burn[tx.Currency].Add(out)
	}
	checked := 0
	for _, r := range rows {
		if r.Burn == nil {
			continue
		}
		if want := burn[r.Currency].Mul(decimal.NewFromInt(4)).Round(2); !r.Burn.Equal(want) {
			t.Errorf("%s: burn %s/h, the ledger's last 15 minutes say %s/h", r.Currency, r.Burn, want)
		}
		checked++
	}
	if checked == 0 {
		t.Error("no currency has a burn: nothing checked")
	}
	code, out, _ := getRun(t, "--config", cfg, "exposure", "-o", "table")
	if code != 0 || !strings.Contains(out, "OWED JIT (N)") || !strings.Contains(out, "DRAWN (N)") {
		t.Fatalf("the table: exit %d\n%s", code, out)
	}
}
