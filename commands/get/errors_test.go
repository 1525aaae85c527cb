package get

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"treasury/wire/payments"
	"treasury/wire/reporting"
	"treasury/wire/wallet"
)

func TestGetFailures(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want []string // on stderr
	}{
		{[]string{"payment", "00000000-0000-4000-8000-000000000000"}, 1, []string{"USR_002", "code: USR_002 (not found)", "server says: No payment with id", "what to do: The record does not exist"}},
		{[]string{"wallet", "00000000-0000-4000-8000-000000000000", "-o", "json"}, 1, []string{"code: ERR", "what to do:"}},
		{[]string{"endpoint", "00000000-0000-4000-8000-000000000000", "-o", "csv"}, 1, []string{"code: HTTP 404"}},
		{[]string{"nope"}, 2, []string{`unknown resource "nope"`, "resources:", "freeze-history TX", "payments [--state S]"}},
		{nil, 2, []string{"which resource?", "resources:"}},
		{[]string{"payment"}, 2, []string{"missing ID"}},
		{[]string{"vaults", "extra"}, 2, []string{`unexpected argument "extra"`}},
		{[]string{"vaults", "--state", "X"}, 2, []string{"--state does not apply to vaults"}},
		{[]string{"transactions", "--state", "A,B"}, 2, []string{"one --state only"}},
		{[]string{"vaults", "-o", "yaml"}, 2, []string{`unknown output format "yaml"`}},
		{[]string{"vaults", "--bogus"}, 2, []string{"flag provided but not defined"}},
		{[]string{"payments", "--state", "BOGUS"}, 2, []string{`unknown --state "BOGUS" for payments; valid values: QUOTED,`, "RETURNED"}},
		{[]string{"payments", "--state", "failed,bogus"}, 2, []string{`unknown --state "BOGUS"`}},
		{[]string{"txs", "--state", "DONE"}, 2, []string{`unknown --state "DONE" for transactions; valid values: REQUESTED,`, "CONFIRMED"}},
		{[]string{"reports", "--type", "weekly"}, 2, []string{`unknown --type "WEEKLY" for reports; valid values: PAYMENT_OPS, RECON`}},
		{[]string{"vaults", "--type", "RECON"}, 2, []string{"--type does not apply to vaults"}},
		{[]string{"ledger", "--since", "7x"}, 2, []string{`"7x" is not a length of time`, "treasury get --help lists"}},
	} {
		code, out, stderr := getRun(t, tc.args...)
		if code != tc.code || out != "" {
			t.Errorf("get %v: exit %d, stdout %q; want %d and nothing", tc.args, code, out, tc.code)
		}
		badFlag := strings.HasPrefix(tc.want[0], "flag provided") || strings.Contains(tc.want[0], "length of time")
		if n := strings.Count(stderr, "\n"); badFlag && n > 3 {
			t.Errorf("get %v: a bad flag takes %d lines:\n%s", tc.args, n, stderr)
		}
		for _, w := range tc.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("get %v: stderr lacks %q:\n%s", tc.args, w, stderr)
			}
		}
	}
}

// TestGetFilters checks that flags may follow or precede the resource and
// that --state and --wallet select, after reading every page (some 30 of
// the shared profile's 20 payments).
func TestGetFilters(t *testing.T) {
	t.Parallel()
	all := getJSON[[]payments.Payment](t, "payments")
	if len(all) < 590 { // the ~599 own of the 600 history payments, and the live ones
		t.Fatalf("%d payments in pages of %d: not every page read", len(all), sharedPageSize)
	}
	bad := getJSON[[]payments.Payment](t, "-o", "json", "payments", "--state", "failed,DECLINED", "--state", "RETURNED")
	if len(bad) == 0 {
		t.Fatal("no failed, declined or returned payments")
	}
	for _, p := range bad {
		if !p.PaymentState.Terminal() {
			t.Fatalf("payment %s in state %s", p.PaymentID, p.PaymentState)
		}
	}
	ws := getJSON[[]wallet.Wallet](t, "wallets")
	txs := getJSON[[]wallet.Transaction](t, "txs", "--wallet", ws[0].ID, "--state", "CONFIRMED")
	if len(txs) == 0 {
		t.Fatal("no confirmed transactions in the first wallet")
	}
	for _, tx := range txs {
		if tx.WalletID != ws[0].ID || tx.Status != wallet.TxConfirmed {
			t.Fatalf("transaction %s of wallet %s in %s", tx.ID, tx.WalletID, tx.Status)
		}
	}
}

// TestGetReportRaw writes a report's content as downloaded: it parses into
// the rows that `get report` prints.
func TestGetReportRaw(t *testing.T) {
	t.Parallel()
	var id string
	for _, r := range getJSON[[]reporting.Report](t, "reports") {
		if r.Status == "READY" && r.Type == reporting.TypePaymentOps && r.Format == "CSV" {
			id = r.ID
			break
		}
	}
	code, raw, stderr := getRun(t, "report", "--raw", id)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	parsed, err := reporting.ParsePaymentOpsCSV([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	rows := getJSON[[]reporting.PaymentOpsRow](t, "report", id)
	if len(rows) == 0 || len(parsed) != len(rows) || parsed[0].NetworkPaymentID != rows[0].NetworkPaymentID {
		t.Fatalf("raw content has %d rows, get report %d", len(parsed), len(rows))
	}
}

// TestGetOutputSanitized feeds records holding terminal controls to every
// format: tables and CSV show them escaped; JSON keeps the values exactly
// (they decode back) but writes the dangerous characters as \u escapes.
func TestGetOutputSanitized(t *testing.T) {
	evil := "Acme\x1b]0;pwned\x07 \u202egnp.exe\r\nnext\u009b31m del\x7f 😀"
	recs := []wallet.Counterparty{{ID: "c1", Name: evil, Description: "ok"}}
	for _, format := range []string{"table", "csv", "json"} {
		var out bytes.Buffer
		if err := writeRecords(&out, format, recs, time.Now()); err != nil {
			t.Fatal(err)
		}
		s := out.String()
		for _, bad := range []string{"\x1b", "\x07", "\r", "\u202e", "\u009b", "\x7f"} {
			if strings.Contains(s, bad) {
				t.Errorf("%s output holds %q:\n%q", format, bad, s)
			}
		}
		if !strings.Contains(s, "😀") {
			t.Errorf("%s output lost a printable character: %q", format, s)
		}
		if format == "json" {
			var back []wallet.Counterparty
			if err := json.Unmarshal(out.Bytes(), &back); err != nil || !reflect.DeepEqual(back, recs) {
				t.Errorf("JSON %q decodes to %+v (%v)", s, back, err)
			}
		}
	}
	var out bytes.Buffer
	if err := writeRecords(&out, "json", []wallet.Vault(nil), time.Now()); err != nil || out.String() != "[]\n" {
		t.Errorf("empty list as JSON: %q %v", out.String(), err)
	}
}

// TestGetUnknownReferences: an internalId no payment has, and an identity
// the directory does not list, are errors (exit 1) that say so, not "not
// a payment id" or an empty table.
func TestGetUnknownReferences(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"payment", "INV-9999999"}, `no payment with internalId "INV-9999999"`},
		{[]string{"history", "INV-9999999"}, `no payment with internalId "INV-9999999"`},
		{[]string{"instruments", "00000000-0000-4000-8000-000000000000"}, `no identity with id "00000000-0000-4000-8000-000000000000"`},
		{[]string{"instruments", "not-an-id"}, `no identity with id "not-an-id"`},
	} {
		code, out, stderr := getRun(t, tc.args...)
		if code != 1 || out != "" || !strings.Contains(stderr, tc.want) {
			t.Errorf("get %v: exit %d, stdout %q, stderr %q; want 1 and %q", tc.args, code, out, stderr, tc.want)
		}
	}
}

// TestGetPaymentSummary: `get payment ID -o summary` prints the ticket of
// a failed payment: ids, the error's code and title, what to do, the
// timeline; -o summary of anything but a payment is a usage error.
func TestGetPaymentSummary(t *testing.T) {
	failed := getJSON[[]payments.Payment](t, "payments", "--state", "FAILED")
	if len(failed) == 0 {
		t.Fatal("no failed payment in the sandbox")
	}
	p := failed[0]
	code, out, stderr := getRun(t, "payment", p.PaymentID, "-o", "summary")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"Payment       " + p.PaymentID, "State         FAILED", "Error         " + p.Errors[0].Code,
		"What to do    ", "Timeline\n", "→ FAILED", "Read          "} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
	if code, _, stderr := getRun(t, "vaults", "-o", "summary"); code != 2 || !strings.Contains(stderr, "get payment ID -o summary") {
		t.Errorf("vaults -o summary: exit %d: %s", code, stderr)
	}
}

// TestGetBuiltinProfile: with no configuration at all, `get` reads the
// embedded sandbox of the built-in profile, as `go run .` shows it.
func TestGetBuiltinProfile(t *testing.T) {
	t.Parallel()
	code, out, stderr := getRunBuiltin(t, "vaults", "-o", "json")
	var vs []wallet.Vault
	if err := json.Unmarshal([]byte(out), &vs); code != 0 || err != nil || len(vs) == 0 {
		t.Fatalf("exit %d, %d vaults (%v): %s", code, len(vs), err, stderr)
	}
}
