package runway

import (
	"testing"
	"time"

	"treasury/data/money"
	"treasury/data/payments"
)

func tx(cur, op string, at time.Time, before, after string) payments.LedgerTransaction {
	return payments.LedgerTransaction{Currency: cur, Operation: op, CreatedDttm: at,
		AvailableBalanceBefore: money.N(money.MustParse(before)), AvailableBalanceAfter: money.N(money.MustParse(after))}
}

func TestCompute(t *testing.T) {
	at := time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)
	bal := payments.Balances{Balances: []payments.Balance{
		{Currency: "USD", FundingType: "PREFUNDED", AvailableBalance: money.N(money.MustParse("900.00"))},
		{Currency: "USD", FundingType: "CREDIT", AvailableBalance: money.N(money.MustParse("50.00"))},
		{Currency: "EUR", AvailableBalance: money.N(money.MustParse("10.00"))},
		{Currency: "GBP", AvailableBalance: money.N(money.MustParse("0"))},
		{Currency: "MXN", AvailableBalance: money.N(money.MustParse("0"))},
	}}
	ledger := []payments.LedgerTransaction{
		tx("USD", payments.OpReserve, at.Add(-10*time.Minute), "1000.00", "900.00"),  // 100 out
		tx("USD", payments.OpCredit, at.Add(-5*time.Minute), "900.00", "950.00"),     // 50 in
		tx("USD", payments.OpDebit, at.Add(-4*time.Minute), "950.00", "950.00"),      // reserved funds leave: no change
		tx("USD", payments.OpReserve, at.Add(-61*time.Minute), "5000.00", "1000.00"), // before the hour
		tx("USD", payments.OpReserve, at.Add(time.Minute), "950.00", "0.00"),         // after the read
		tx("EUR", payments.OpRelease, at.Add(-time.Minute), "5.00", "10.00"),         // net inflow
		tx("GBP", payments.OpReserve, at.Add(-time.Minute), "3.00", "0"),             // nothing left
		tx("JPY", payments.OpReserve, at.Add(-time.Minute), "300", "0"),              // no balance: not shown
	}
	s := Compute(bal, ledger, at, money.MustParse("24"))
	if len(s.Currencies) != 4 {
		t.Fatalf("currencies %+v", s.Currencies)
	}
	usd, _ := s.Find("USD")
	if usd.Available.String() != "950" || usd.Outflow.String() != "50" || usd.Moves != 3 || usd.Hours.String() != "19" || !usd.Under || usd.NoOutflow {
		t.Errorf("USD %+v", usd)
	}
	eur, _ := s.Find("EUR")
	if !eur.NoOutflow || eur.Under || eur.Outflow.String() != "-5" {
		t.Errorf("EUR %+v", eur)
	}
	gbp, _ := s.Find("GBP")
	if gbp.NoOutflow || !gbp.Hours.IsZero() || !gbp.Under {
		t.Errorf("GBP %+v", gbp)
	}
	mxn, _ := s.Find("MXN")
	if !mxn.NoOutflow || mxn.Moves != 0 {
		t.Errorf("MXN %+v", mxn)
	}
	if _, ok := s.Find("JPY"); ok {
		t.Error("a currency without a balance has a runway")
	}
	if got := s.Under(); len(got) != 2 || got[0].Currency != "USD" || got[1].Currency != "GBP" {
		t.Errorf("under %+v", got)
	}
	if none := Compute(bal, ledger, at, money.MustParse("0")); len(none.Under()) != 0 {
		t.Errorf("no threshold, yet under: %+v", none.Under())
	}
	third := Compute(payments.Balances{Balances: []payments.Balance{{Currency: "USD", AvailableBalance: money.N(money.MustParse("100"))}}},
		[]payments.LedgerTransaction{tx("USD", payments.OpReserve, at.Add(-time.Minute), "130", "100")}, at, money.MustParse("0"))
	if h := third.Currencies[0].Hours.String(); h != "3.3" {
		t.Errorf("100 at 30 an hour lasts %s h, want 3.3", h)
	}
}
