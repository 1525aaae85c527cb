package get

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"treasury/commands/cli/clitest"
	"treasury/commands/sandbox/profiletest"
	"treasury/figures"
	"treasury/figures/runway"
	"treasury/sandbox/sandboxtest"
	"treasury/wire/payments"
)

// TestExposureFigureByFigure: `get exposure` on a sandbox whose clock
// stands still, against the server's own records read apart (the payments
// in flight and the prefunded balances, as `get` prints them): per
// currency, what is paid out, drawn from the prefunded account (prefunded
// payins), owed just in time (awaiting funds) and invoiced are the sums
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
		out, drawn, owed, credit decimal.Decimal
		nOut, nOwed, nCredit     int
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
		// The vendor's document's classes, read from the record here.
		switch o.Payin {
		case "JIT_FUNDING":
			if p.PaymentState == payments.AwaitingFunding {
				of(o.SourceCurrency).owed = of(o.SourceCurrency).owed.Add(o.SourceAmount.Decimal())
				of(o.SourceCurrency).nOwed++
				jit++
			}
		case "CREDIT_FUNDING", "T_PLUS_ONE":
			of(o.SourceCurrency).credit = of(o.SourceCurrency).credit.Add(o.SourceAmount.Decimal())
			of(o.SourceCurrency).nCredit++
		case "PRE_FUNDING", "FUNDED", "":
			of(o.SourceCurrency).drawn = of(o.SourceCurrency).drawn.Add(o.SourceAmount.Decimal())
		default:
			t.Errorf("payment %s: payin %q is not one the vendor's document names", p.PaymentID, o.Payin)
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
		if !r.PaysOut.Equal(w.out) || r.PaysOutCount != w.nOut || !r.Prefunded.Equal(w.drawn) || !r.Owed.Equal(w.owed) || r.OwedCount != w.nOwed ||
			!r.Credit.Equal(w.credit) || r.CreditCount != w.nCredit {
			t.Errorf("%s: out %s (%d) prefunded %s owed %s (%d) credit %s (%d); the records say out %s (%d) drawn %s owed %s (%d) credit %s (%d)",
				r.Currency, r.PaysOut, r.PaysOutCount, r.Prefunded, r.Owed, r.OwedCount, r.Credit, r.CreditCount,
				w.out, w.nOut, w.drawn, w.owed, w.nOwed, w.credit, w.nCredit)
		}
		a, prefunded := available[r.Currency]
		if prefunded != (r.Available != nil) || prefunded && !r.Available.Equal(a) {
			t.Errorf("%s: available %v, the server says %s", r.Currency, r.Available, a)
		}
		if r.FirstDue != nil && r.FirstDue.After(srv.Clock().Now().Add(time.Hour)) && r.DueWithinHourCount > 0 {
			t.Errorf("%s: %d due within the hour, the first due at %v (now %v)", r.Currency, r.DueWithinHourCount, r.FirstDue, srv.Clock().Now())
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
		if hours == nil || !r.RunwayHours.Equal(hours.Decimal) || !a.DivRound(pace.Decimal, 1).Equal(r.RunwayHours.Decimal) {
			t.Errorf("%s: runway %s h by %s, pace %s, available %s", r.Currency, r.RunwayHours, r.RunwayBy, pace, a)
		}
		if r.WeightedHours != nil && r.BurnHours != nil && r.RunwayHours.GreaterThan(decimal.Min(r.WeightedHours.Decimal, r.BurnHours.Decimal)) {
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
	if code != 0 || !strings.Contains(out, "JIT OWED (N)") || !strings.Contains(out, "PREFUNDED (N)") || !strings.Contains(out, "CREDIT (N)") {
		t.Fatalf("the table: exit %d\n%s", code, out)
	}
}

// TestExposureOfTheDocumentsServer: against a payments server built from
// the vendor's document (sandboxtest.ServeDocument: payin JIT and FUNDED,
// ten of fourteen payments awaiting funds past their
// jitFundingExpiresAt), `get exposure -o json` owes per currency exactly
// the sum and count of the payments awaiting funds, says how many are past
// due, and the table and the CSV show the same figures.
func TestExposureOfTheDocumentsServer(t *testing.T) {
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	doc := sandboxtest.ServeDocument(t, srv)
	cfg := profiletest.Write(t, srv, clitest.FreeAddr(t), func(yaml, _ string) string { return strings.ReplaceAll(yaml, srv.URL, doc.URL) })
	rows := getJSON[[]exposureRow](t, "--config", cfg, "exposure")
	byCur := map[string]exposureRow{}
	pastDue := 0
	for _, r := range rows {
		byCur[r.Currency] = r
		pastDue += r.PastDueCount
	}
	if len(doc.Owed) != 4 {
		t.Fatalf("the fixture owes in %d currencies", len(doc.Owed))
	}
	for cur, o := range doc.Owed {
		r, ok := byCur[cur]
		if !ok || !r.Owed.Equal(o.Amount) || r.OwedCount != o.Count {
			t.Errorf("%s: get exposure owes %s (%d), the payments awaiting funds %s (%d)", cur, r.Owed.Decimal, r.OwedCount, o.Amount, o.Count)
		}
	}
	if pastDue != doc.PastDue || doc.PastDue != 10 {
		t.Errorf("%d past due, the fixture has %d", pastDue, doc.PastDue)
	}
	if u := byCur["USD"]; !u.FundedJIT.Equal(decimal.RequireFromString("777")) || u.FundedJITCount != 1 || !u.Prefunded.Equal(decimal.RequireFromString("1500")) {
		t.Errorf("USD: funded just in time %s (%d), prefunded %s", u.FundedJIT.Decimal, u.FundedJITCount, u.Prefunded.Decimal)
	}
	// The table: a column per class, the same figures as the screen
	// writes them.
	code, out, stderr := getRun(t, "--config", cfg, "exposure", "-o", "table")
	if code != 0 {
		t.Fatalf("table: exit %d: %s", code, stderr)
	}
	cells := tableCells(t, out)
	want := map[string]string{"USD": "224,564.95 (4)", "EUR": "204,636.60 (5)", "GBP": "37,231.69 (4)", "RLUSD": "7,601.687487 (1)"}
	for cur, w := range want {
		if got := cells[cur]["JIT OWED (N)"]; got != w {
			t.Errorf("%s: the table owes %q, want %q\n%s", cur, got, w, out)
		}
	}
	if got := cells["USD"]["PAST DUE (N)"]; got != "220,000.00 (3)" {
		t.Errorf("USD past due %q\n%s", got, out)
	}
	// The CSV: the JSON's figures, at the currency's decimals.
	rowsCSV := getCSV(t, "--config", cfg, "exposure")
	col := slices.Index(rowsCSV[0], "owed_just_in_time")
	for _, r := range rowsCSV[1:] {
		if o, ok := doc.Owed[r[0]]; ok && r[col] != figures.MoneyData(o.Amount, r[0]) {
			t.Errorf("%s: the CSV owes %q, want %s", r[0], r[col], o.Amount)
		}
	}
}

// tableCells reads an aligned table: per row (by its first cell) each
// cell by its column's title, cut at the columns' starts.
func tableCells(t *testing.T, out string) map[string]map[string]string {
	t.Helper()
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	head := lines[0]
	var starts []int
	var titles []string
	for i := 0; i < len(head); {
		j := strings.Index(head[i:], "  ")
		title := head[i:]
		if j >= 0 {
			title = head[i : i+j]
		}
		starts, titles = append(starts, i), append(titles, title)
		if j < 0 {
			break
		}
		i += j
		for i < len(head) && head[i] == ' ' {
			i++
		}
	}
	cells := map[string]map[string]string{}
	for _, l := range lines[1:] {
		row := map[string]string{}
		r := []rune(l)
		for k, st := range starts {
			end := len(r)
			if k+1 < len(starts) {
				end = starts[k+1]
			}
			row[titles[k]] = strings.TrimSpace(substr(r, st, end))
		}
		cells[row[titles[0]]] = row
	}
	return cells
}

// substr is runes [from, to) of r, cut to its length.
func substr(r []rune, from, to int) string {
	from, to = min(from, len(r)), min(to, len(r))
	return string(r[from:to])
}
