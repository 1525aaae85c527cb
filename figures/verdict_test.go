package figures

import (
	"strings"
	"testing"

	"treasury/wire/payments"
)

// TestVerdict: one error is Advise's; errors that agree give no why;
// errors that disagree give the strictest and name each; none gives no
// code to quote.
func TestVerdict(t *testing.T) {
	retry := payments.PaymentError{Code: "SYS_001"}
	closed := payments.PaymentError{Code: "USR_030"}
	if got, want := Verdict(payments.Failed, []payments.PaymentError{closed}), Advise(payments.Failed, closed); got != want {
		t.Errorf("one error: %+v, want %+v", got, want)
	}
	if a := Verdict(payments.Failed, []payments.PaymentError{retry, retry}); a.Why != "" || !strings.HasPrefix(a.Retry, "YES") {
		t.Errorf("agreeing errors: %+v", a)
	}
	a := Verdict(payments.Failed, []payments.PaymentError{retry, closed})
	if !strings.HasPrefix(a.Retry, "NO") || !strings.Contains(a.Why, "SYS_001 YES, USR_030 NO") {
		t.Errorf("disagreeing errors: %+v", a)
	}
	if a := Verdict(payments.Declined, nil); !strings.HasPrefix(a.Retry, "UNKNOWN") || strings.Contains(a.Todo, "the code") {
		t.Errorf("no error: %+v", a)
	}
	if a := Verdict(payments.Returned, nil); !strings.HasPrefix(a.Retry, "NO") {
		t.Errorf("returned: %+v", a)
	}
	if a := Verdict(payments.Transferring, nil); a.Retry != "" {
		t.Errorf("in flight: %+v", a)
	}
}
