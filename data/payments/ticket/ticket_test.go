package ticket

import (
	"strings"
	"testing"
	"time"

	"treasury/data/money"
	"treasury/data/payments"
	"treasury/data/wire"
)

func failed() *payments.Payment {
	t0 := time.Date(2026, 11, 16, 9, 35, 13, 0, time.UTC)
	return &payments.Payment{
		PaymentID: "3f2c1d4e-0000-4000-8000-000000000001", PaymentState: payments.Failed,
		InitiatedAt: t0, LastStateUpdatedAt: t0.Add(4 * time.Minute),
		Originator: payments.Originator{InternalID: "INV-0002886", OriginatorIdentityNickName: "Treasury USD",
			OriginatorIdentityID: "b4399865", SourceCurrency: "USD", SourceAmount: money.N(money.MustParse("1234567.5"))},
		Destination: payments.Destination{DestinationCurrency: "MXN", DestinationCountry: "MX",
			DestinationAmount: money.N(money.MustParse("21234567.1")), BeneficiaryIdentityNickName: "Carlos Ruiz",
			BeneficiaryIdentityID: "7af35859"},
		Errors: wire.List[payments.PaymentError]{{Code: "USR_030", Title: "Beneficiary account closed",
			Description: "The beneficiary's account at the receiving bank is closed"}},
		PayoutExecutionDetails: wire.Some(payments.PayoutExecution{PaymentRailUsed: "SPEI",
			TrackingReferences: wire.List[payments.TrackingReference]{{ReferenceType: "CLAVE_RASTREO", DisplayName: "Clave de rastreo", Value: "MBAN01002611160012"}}}),
		Detailed: true,
	}
}

// TestSummaryHasWhatATicketNeeds: ids, state, amounts at their decimals
// and grouped, the corridor, the error with its title, what to do, the
// tracking reference by its name and type, and the timeline.
func TestSummaryHasWhatATicketNeeds(t *testing.T) {
	p := failed()
	at := p.InitiatedAt
	s := Summary{Payment: p, ReadAt: at.Add(5 * time.Minute), Source: "sandbox (TEST)",
		History: []payments.StateTransition{{UpdatedFrom: "QUOTED", UpdatedTo: "INITIATED", UpdatedAt: at},
			{UpdatedFrom: "INITIATED", UpdatedTo: "FAILED", UpdatedAt: at.Add(4 * time.Minute)}}}.Text()
	for _, want := range []string{
		"Payment       3f2c1d4e-0000-4000-8000-000000000001\n",
		"Internal id   INV-0002886\n",
		"State         FAILED since 2026-11-16 09:39:13 UTC\n",
		"Amount        1,234,567.50 USD → 21,234,567.10 MXN\n",
		"Corridor      USD → MXN (MX)\n",
		"Beneficiary   Carlos Ruiz (7af35859)\n",
		"Error         USR_030 Beneficiary account closed: The beneficiary's account at the receiving bank is closed\n",
		"Retry         NO",
		"What to do    ",
		"Rail          SPEI\n",
		"Clave de rastreo MBAN01002611160012 (CLAVE_RASTREO)\n",
		"Timeline\n  2026-11-16 09:35:13 UTC  QUOTED → INITIATED\n  2026-11-16 09:39:13 UTC  INITIATED → FAILED\n",
		"Read          2026-11-16 09:40:13 UTC from sandbox (TEST)\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("summary lacks %q:\n%s", want, s)
		}
	}
}

// TestSummaryOfAListRecord: a record read from the list only (no errors,
// no payout details) says the tracking was not read, never that there is
// none; no history read means no timeline, not an empty one.
func TestSummaryOfAListRecord(t *testing.T) {
	p := failed()
	p.Errors, p.PayoutExecutionDetails, p.Detailed = nil, wire.Opt[payments.PayoutExecution]{}, false
	p.PaymentState = payments.Transferring
	s := Summary{Payment: p}.Text()
	if !strings.Contains(s, "Tracking      not read") || strings.Contains(s, "Timeline") || strings.Contains(s, "Error") {
		t.Fatalf("summary:\n%s", s)
	}
	if !strings.Contains(s, "Meaning       TRANSFERRING:") {
		t.Fatalf("no meaning of the state:\n%s", s)
	}
}
