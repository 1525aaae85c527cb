package ticket

import (
	"strings"
	"testing"
	"time"

	"treasury/wire"
	"treasury/wire/money"
	"treasury/wire/payments"
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

// TestSummaryIsComplete: taxes, every error with its time, the rate with
// its currencies, and one verdict with why when the errors disagree.
func TestSummaryIsComplete(t *testing.T) {
	p := failed()
	p.AdjustedExchangeRate = wire.Some(payments.AdjustedRate{AdjustedRate: money.N(money.MustParse("17.2345"))})
	p.Taxes = wire.List[payments.TaxSummary]{{TotalTaxes: money.N(money.MustParse("12.5")), TaxCurrency: "USD"}}
	p.Errors = append(p.Errors, payments.PaymentError{Code: "SYS_001", Title: "Timeout", Timestamp: "2026-11-16T09:39:10Z"})
	p.Errors[0].Timestamp = "2026-11-16T09:39:12Z"
	s := Summary{Payment: p}.Text()
	for _, want := range []string{
		"Rate used     1 USD = 17.2345 MXN\n",
		"Tax           12.50 USD\n",
		"(at 2026-11-16 09:39:12 UTC)\n",
		"Error         SYS_001 Timeout (at 2026-11-16 09:39:10 UTC)\n",
		"Why           the errors disagree (USR_030 NO, SYS_001 YES): the strictest holds.\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("summary lacks %q:\n%s", want, s)
		}
	}
	if strings.Count(s, "Retry ") != 1 || !strings.Contains(s, "Retry         NO") {
		t.Errorf("want one verdict, NO:\n%s", s)
	}
}

// TestSummaryOfAFailureNotReadById: a DECLINED record from a list says
// its error was not read and never tells the reader to quote a code.
func TestSummaryOfAFailureNotReadById(t *testing.T) {
	p := failed()
	p.Errors, p.Detailed, p.PaymentState = nil, false, payments.Declined
	s := Summary{Payment: p, Unread: []string{"its errors and payout details: 503 Service Unavailable"}}.Text()
	for _, want := range []string{"Error         not read", "Retry         UNKNOWN: the record holds no error code.", "Not read      its errors and payout details: 503"} {
		if !strings.Contains(s, want) {
			t.Errorf("summary lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "with the code") {
		t.Errorf("asks for a code it does not hold:\n%s", s)
	}
}
