package get

import (
	"strings"
	"testing"

	"treasury/figures"
	"treasury/wire/money"
	"treasury/wire/payments"
)

// TestSummarySaysTheFundsCameBack: `get payment ID -o summary` of a FAILED
// payment whose reserved funds were released and of a RETURNED one whose
// debited funds were credited back says the funds came back, with the
// amount and the time of the ledger's own line (found here in `get
// ledger`: a RELEASE or CREDIT from PAYMENTS of the payment's amount when
// it entered its state, the document's ledger naming no payment on it),
// and lists the payment's lines with the available balance each moved.
func TestSummarySaysTheFundsCameBack(t *testing.T) {
	ledger := getJSON[[]payments.LedgerTransaction](t, "ledger", "--since", "90d")
	for _, st := range []string{"FAILED", "RETURNED"} {
		var p *payments.Payment
		ps := getJSON[[]payments.Payment](t, "payments", "--state", st)
		for i := range ps {
			if figures.FundingOf(&ps[i]).Class == figures.Prefunded {
				p = &ps[i]
				break
			}
		}
		if p == nil {
			t.Fatalf("no prefunded %s payment in the sandbox", st)
		}
		var back *payments.LedgerTransaction
		for i, tx := range ledger {
			if (tx.Operation == payments.OpRelease || tx.Operation == payments.OpCredit) && tx.TxnSource == payments.SrcPayment &&
				tx.Reference() == "" && tx.Currency == p.Originator.SourceCurrency && tx.Amount.Decimal().Equal(p.Originator.SourceAmount.Decimal()) &&
				tx.CreatedDttm.Equal(p.LastStateUpdatedAt) {
				back = &ledger[i]
			}
		}
		if back == nil {
			t.Fatalf("%s %s: no line of the ledger gives its %s %s back", st, p.PaymentID, p.Originator.SourceAmount, p.Originator.SourceCurrency)
		}
		code, out, stderr := getRun(t, "payment", p.PaymentID, "-o", "summary")
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		cur := back.Currency
		amount := money.Format(back.Amount.Decimal(), cur) + " " + cur
		stamp := back.CreatedDttm.UTC().Format("2006-01-02 15:04:05") + " UTC"
		moved := "available " + money.Format(back.AvailableBalanceBefore.Decimal(), cur) + " → " + money.Format(back.AvailableBalanceAfter.Decimal(), cur)
		for _, want := range []string{"Funds         funds came back: " + amount + " at " + stamp, "Ledger\n", "RESERVE",
			stamp + "  " + back.Operation, amount + "  " + moved + "  (no txnReference: tied by amount and time)"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s summary lacks %q:\n%s", st, want, out)
			}
		}
	}
}
