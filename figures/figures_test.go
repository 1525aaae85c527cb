package figures

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"treasury/figures/runway"
	"treasury/wire/apierr"
	"treasury/wire/payments"
)

// TestFundingOf: the classes of the vendor's document: PRE_FUNDING, the
// deprecated FUNDED and none said draw the prefunded account;
// CREDIT_FUNDING and the deprecated T_PLUS_ONE are credit; JIT_FUNDING and
// JIT are just in time, and so is any payment AWAITING_FUNDING or with a
// jitFundingExpiresAt whatever its payin says; any other payin is other,
// named by itself.
func TestFundingOf(t *testing.T) {
	due := now.Add(time.Hour)
	for _, tc := range []struct {
		payin string
		st    payments.State
		due   time.Time
		want  Class
		name  string
	}{
		{"PRE_FUNDING", payments.Validating, time.Time{}, Prefunded, "PREFUNDED"},
		{"FUNDED", payments.Validating, time.Time{}, Prefunded, "PREFUNDED"},
		{"", payments.Initiated, time.Time{}, Prefunded, "PREFUNDED"},
		{"CREDIT_FUNDING", payments.Transferring, time.Time{}, Credit, "CREDIT"},
		{"T_PLUS_ONE", payments.Transferring, time.Time{}, Credit, "CREDIT"},
		{"JIT_FUNDING", payments.Validating, time.Time{}, JustInTime, "JIT"},
		{"JIT", payments.AwaitingFunding, due, JustInTime, "JIT"},
		{"jit", payments.Transferring, time.Time{}, JustInTime, "JIT"},
		{"FUNDED", payments.AwaitingFunding, time.Time{}, JustInTime, "JIT"},
		{"FUNDED", payments.Transferring, due, JustInTime, "JIT"},
		{"BARTER", payments.Initiated, time.Time{}, Other, "BARTER"},
	} {
		p := &payments.Payment{PaymentState: tc.st, JITFundingExpiresAt: tc.due, Originator: payments.Originator{Payin: tc.payin}}
		if f := FundingOf(p); f.Class != tc.want || f.Name() != tc.name || f.Payin != tc.payin {
			t.Errorf("payin %q in %s (due %v): %+v %q, want %s %q", tc.payin, tc.st, tc.due, f, f.Name(), tc.want.Label(), tc.name)
		}
	}
	p := &payments.Payment{PaymentState: payments.AwaitingFunding, JITFundingExpiresAt: due}
	if !Owed(p) || PastDue(p, now) || !PastDue(p, due) {
		t.Error("owed and past due")
	}
}

// TestOneVerdict: RetryOf, the verdict judged without its texts (what the
// lists, scopes and groups use), is Verdict's word for every state and
// combination of errors, and an error's class is the one apierr.Parse
// gives its body; Reason is the error the verdict is of.
func TestOneVerdict(t *testing.T) {
	errs := []payments.PaymentError{
		{Code: "SYS_010", Type: apierr.TypeSystem}, {Code: "CFG_002", Type: apierr.TypeConfiguration},
		{Code: "USR_031", Type: apierr.TypeUser}, {Code: "USR_067", Type: apierr.TypeUser}, {Code: "AUTH_002"},
		{Code: "ZZZ_1"}, {Type: apierr.TypeSystem}, {Title: "no code"}, {},
	}
	for _, e := range errs {
		body, _ := json.Marshal(apierr.PaymentsBody{Code: e.Code, Type: e.Type, Title: e.Title, Description: e.Description})
		if got, want := entryClass(e), apierr.Parse(apierr.Payments, "GET", "/", 0, body).Class; got != want {
			t.Errorf("%+v: class %v, Parse says %v", e, got, want)
		}
	}
	states := []payments.State{payments.Failed, payments.Declined, payments.Returned, payments.Transferring, payments.Completed}
	for _, st := range states {
		for i := range errs {
			for j := range errs {
				for _, list := range [][]payments.PaymentError{nil, errs[i : i+1], {errs[i], errs[j]}} {
					p := &payments.Payment{PaymentState: st, Errors: list}
					a := VerdictOf(p)
					if RetryOf(p) != a.Word || !strings.HasPrefix(a.Retry, a.Word.Word()) {
						t.Fatalf("%s %+v: RetryOf %q, Verdict %q (%q)", st, list, RetryOf(p).Word(), a.Word.Word(), a.Retry)
					}
					if e, ok := Reason(p); ok != (len(list) > 0) || ok && e.Code != a.Code {
						t.Fatalf("%s %+v: reason %+v, verdict of %q", st, list, e, a.Code)
					}
				}
			}
		}
	}
	// The example of the issue: SYS_010 says YES, CFG_002 NO; the
	// strictest holds, and the list says both codes.
	p := &payments.Payment{PaymentState: payments.Failed, Errors: errs[:2]}
	a := VerdictOf(p)
	if a.Word != RetryNo || !strings.Contains(a.Why, "SYS_010 YES, CFG_002 NO") || Retryable(p) || ErrorCodes(p) != "SYS_010 +1" {
		t.Errorf("disagreeing errors: %+v, codes %q", a, ErrorCodes(p))
	}
	if e, _ := Reason(p); e.Code != "CFG_002" {
		t.Errorf("grouped under %q, want CFG_002 (the strictest)", e.Code)
	}
	if p := (&payments.Payment{PaymentState: payments.Failed, Errors: errs[:1]}); !Retryable(p) || ErrorCodes(p) != "SYS_010" {
		t.Error("a transient error alone: retryable")
	}
	if RetryOf(&payments.Payment{PaymentState: payments.Transferring}) != RetryNone {
		t.Error("a payment in flight has no verdict")
	}
}

// TestFormats: amounts on screen grouped and in data plain, both at their
// currency's decimals; times to the second; an amount read as the screen
// writes it, never with more decimals than its currency has.
func TestFormats(t *testing.T) {
	if Money(d("300000"), "USD") != "300,000.00" || MoneyData(d("537.8"), "USD") != "537.80" || MoneyData(d("0"), "JPY") != "0" {
		t.Error("money")
	}
	if s := Stamp(time.Date(2026, 5, 1, 12, 0, 0, 123456789, time.FixedZone("x", 3600))); s != "2026-05-01T11:00:00Z" {
		t.Errorf("stamp %q", s)
	}
	if StampText("2026-05-01T11:00:00.25Z") != "2026-05-01T11:00:00Z" || StampText("yesterday") != "yesterday" {
		t.Error("stamp of text")
	}
	for in, want := range map[string]string{"300,000": "300000", "300000": "300000", "1,234.50": "1234.5", " 12 ": "12", "0.5": "0.5"} {
		if got, err := ParseAmount(in, "USD"); err != nil || !got.Equal(d(want)) {
			t.Errorf("ParseAmount(%q) = %v, %v; want %s", in, got, err, want)
		}
	}
	for _, in := range []string{"250000.005", "30,00", "3,0000", ",300", "1.2.3", "12a", "", "1,234.", "1e5"} {
		if _, err := ParseAmount(in, "USD"); err == nil {
			t.Errorf("ParseAmount(%q) took it", in)
		}
	}
	if _, err := ParseAmount("1.5", "JPY"); err == nil {
		t.Error("JPY has no decimals")
	}
	if _, err := ParseAmount("0.123456789", "ZZZ"); err != nil {
		t.Error("a currency of no stated decimals takes any")
	}
	if WindowWord(time.Hour) != "1h" || WindowWord(7*24*time.Hour) != "7d" || WindowWord(24*time.Hour) != "24h" {
		t.Error("window words")
	}
}

// TestRunwayOf: a runway reads at the pace that drives it (the 15
// minutes' when shorter), "> 30 d" past 30 days alike everywhere, "no
// outflow" without one.
func TestRunwayOf(t *testing.T) {
	burst := RunwayOf(runway.Currency{Currency: "USD", Outflow: d("10"), Hours: d("40"), BurnKnown: true, Burn: d("100"), BurnHours: d("0.3"),
		BurnEmpty: now.Add(18 * time.Minute)})
	if !burst.Runs || burst.By != ByBurn || !burst.Pace.Equal(d("100")) || burst.Text() != "0.3 h" || !burst.Empty.Equal(now.Add(18*time.Minute)) {
		t.Errorf("burst %+v", burst)
	}
	if h, ok := burst.HoursOf(d("50")); !ok || !h.Equal(d("0.5")) {
		t.Errorf("hours of 50 at the burn: %v", h)
	}
	long := RunwayOf(runway.Currency{Currency: "EUR", Outflow: d("1"), Hours: d("4475.5")})
	if !long.Long || long.Text() != "> 30 d" || Hours(d("4475.5")) != "> 30 d" || Hours(d("2")) != "2.0 h" {
		t.Errorf("long %+v %q", long, long.Text())
	}
	if none := RunwayOf(runway.Currency{Currency: "GBP", NoOutflow: true}); none.Runs || none.Text() != "no outflow" {
		t.Errorf("none %+v", none)
	}
}
