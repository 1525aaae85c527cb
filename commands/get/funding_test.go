package get

import (
	"encoding/csv"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"treasury/commands/cli/clitest"
	"treasury/commands/sandbox/profiletest"
	"treasury/figures"
	"treasury/sandbox/sandboxtest"
	"treasury/wire/payments"
)

// TestGetFunding: `get funding --hours 8` on a sandbox whose clock stands
// still plans each prefunded currency: its top-up, added to the available
// balance, lasts the 8 hours at the pace that drives the runway (the
// exposure's, read apart); the owed just in time due before a top-up
// lands are the server's own payments awaiting funds of the currency due
// within the lead; the CSV's columns are the dashboard's (figures.Plan
// Data), its amounts at the currency's decimals; a bad --hours is a usage
// error, and --hours applies to funding only.
func TestGetFunding(t *testing.T) {
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	srv.AdvanceClock(30 * time.Minute)
	cfg := profiletest.Write(t, srv, clitest.FreeAddr(t), nil)
	rows := getJSON[[]fundingRow](t, "--config", cfg, "funding", "--hours", "8")
	ex := getJSON[[]exposureRow](t, "--config", cfg, "exposure")
	owed := getJSON[[]payments.Payment](t, "--config", cfg, "payments", "--state", "AWAITING_FUNDING")
	now := srv.Clock().Now()
	if len(rows) == 0 {
		t.Fatal("no currency planned")
	}
	for _, r := range rows {
		i := slices.IndexFunc(ex, func(e exposureRow) bool { return e.Currency == r.Currency })
		if i < 0 || ex[i].Available == nil || !ex[i].Available.Equal(r.Available.Decimal) || r.Hours.String() != "8" {
			t.Fatalf("%s: plan %+v, exposure %+v", r.Currency, r, ex[i])
		}
		if r.PacePerHour == nil {
			continue
		}
		if ex[i].RunwayBy != r.PaceBy {
			t.Errorf("%s paced by %s, the runway by %s", r.Currency, r.PaceBy, ex[i].RunwayBy)
		}
		lasts := r.Available.Add(r.TopUp.Decimal).DivRound(r.PacePerHour.Decimal, 6).Round(1)
		if r.Covered {
			if r.Available.DivRound(r.PacePerHour.Decimal, 6).LessThan(decimal.NewFromInt(8)) {
				t.Errorf("%s covered at %s/h with %s", r.Currency, r.PacePerHour, r.Available)
			}
		} else if !lasts.Equal(decimal.NewFromInt(8)) {
			t.Errorf("%s: %s + top-up %s lasts %s h at %s/h, want 8", r.Currency, r.Available, r.TopUp, lasts, r.PacePerHour)
		}
		var late figures.Sum
		for _, p := range owed {
			if p.Originator.SourceCurrency == r.Currency && !p.JITFundingExpiresAt.IsZero() && !p.JITFundingExpiresAt.After(now.Add(time.Hour)) {
				late.Add(p.Originator.SourceAmount.Decimal())
			}
		}
		if !late.Amount.Equal(r.OwedBeforeArrival.Decimal) || late.Count != r.OwedBeforeN {
			t.Errorf("%s owed before a top-up lands: %s (%d), the server's %s (%d)", r.Currency, r.OwedBeforeArrival, r.OwedBeforeN, late.Amount, late.Count)
		}
	}
	code, out, stderr := getRun(t, "--config", cfg, "funding", "--hours", "8", "-o", "csv")
	if code != 0 {
		t.Fatalf("csv: exit %d: %s", code, stderr)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, c := range (figures.Plan{}).Data() {
		want = append(want, c.Name)
	}
	if !slices.Equal(recs[0], want) {
		t.Errorf("CSV header %v, want the dashboard's %v", recs[0], want)
	}
	twoPlaces := regexp.MustCompile(`^-?[0-9]+\.[0-9]{2}$`)
	for _, rec := range recs[1:] {
		for _, i := range []int{1, 2, 5, 12} { // available, reserved, after in flight, top-up
			if !twoPlaces.MatchString(rec[i]) {
				t.Errorf("%s %s %q: not at the currency's two decimals", rec[0], recs[0][i], rec[i])
			}
		}
	}
	if code, out, stderr := getRun(t, "--config", cfg, "funding", "-o", "table"); code != 0 || !strings.Contains(out, "TOP-UP") || !strings.Contains(out, "OWED BEFORE (N)") {
		t.Errorf("table: exit %d: %s%s", code, out, stderr)
	}
	for _, bad := range [][]string{{"funding", "--hours", "-1"}, {"funding", "--hours", "soon"}, {"exposure", "--hours", "8"}} {
		if code, _, stderr := getRun(t, append([]string{"--config", cfg}, bad...)...); code != 2 || !strings.Contains(stderr, "--hours") {
			t.Errorf("get %v: exit %d: %s", bad, code, stderr)
		}
	}
}
