package get

import (
	"encoding/csv"
	"slices"
	"strings"
	"testing"

	"treasury/wire/money"
	"treasury/wire/payments"
)

// TestGetCSVAmountsHaveTheirCurrencysDecimals: every amount of `get
// payments -o csv` paired with a currency is written with at least that
// currency's decimals (MXN 11456.10, never 11456.1), ungrouped, and fees
// are a total and a currency, not JSON.
func TestGetCSVAmountsHaveTheirCurrencysDecimals(t *testing.T) {
	t.Parallel()
	rows := getCSV(t, "payments", "--since", "24h")
	head := rows[0]
	pairs := [][2]string{{"originator.source_amount", "originator.source_currency"}, {"destination.destination_amount", "destination.destination_currency"}, {"fee_total", "fee_currency"}, {"tax_total", "tax_currency"}}
	checked := 0
	for _, pr := range pairs {
		a, c := slices.Index(head, pr[0]), slices.Index(head, pr[1])
		if a < 0 || c < 0 {
			t.Fatalf("no columns %v in %v", pr, head)
		}
		for _, r := range rows[1:] {
			amount, cur := r[a], r[c]
			if amount == "" {
				continue
			}
			places, ok := money.Places(cur)
			if !ok {
				continue
			}
			_, frac, _ := strings.Cut(amount, ".")
			if int32(len(frac)) < places || strings.Contains(amount, ",") {
				t.Errorf("%s %q %s: want %d decimals, ungrouped", pr[0], amount, cur, places)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no amount with a known currency was checked")
	}
}

// TestGetLedgerNewestFirst: the ledger is a list like any other.
func TestGetLedgerNewestFirst(t *testing.T) {
	t.Parallel()
	ts := getJSON[[]payments.LedgerTransaction](t, "ledger")
	if len(ts) < 2 {
		t.Fatalf("%d ledger transactions", len(ts))
	}
	for i := 1; i < len(ts); i++ {
		if ts[i].CreatedDttm.After(ts[i-1].CreatedDttm) {
			t.Fatalf("ledger not newest first at %d: %v after %v", i, ts[i].CreatedDttm, ts[i-1].CreatedDttm)
		}
	}
}

// TestGetHelpIsOutput: --help is what was asked for, on stdout (to page
// or grep), with a zero exit; a bad flag is an error on stderr.
func TestGetHelpIsOutput(t *testing.T) {
	t.Parallel()
	code, out, stderr := getRun(t, "--help")
	if code != 0 || !strings.Contains(out, "-o") || stderr != "" {
		t.Errorf("--help: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	code, out, stderr = getRun(t, "--no-such-flag")
	if code == 0 || out != "" || !strings.Contains(stderr, "no-such-flag") {
		t.Errorf("bad flag: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
}

// getCSV runs `treasury get args... -o csv` and returns its rows, the
// header first; it fails t on an error or when no record came.
func getCSV(t *testing.T, args ...string) [][]string {
	t.Helper()
	code, out, stderr := getRun(t, append(args, "-o", "csv")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(rows) < 2 {
		t.Fatalf("csv: %v, %d rows", err, len(rows))
	}
	return rows
}
