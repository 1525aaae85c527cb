package payments

import (
	"strings"
	"testing"
)

// TestVerdict: one error is Advise's; errors that agree give no why;
// errors that disagree give the strictest and name each; none gives no
// code to quote.
func TestVerdict(t *testing.T) {
	retry := PaymentError{Code: "SYS_001"}
	closed := PaymentError{Code: "USR_030"}
	if got, want := Verdict(Failed, []PaymentError{closed}), Advise(Failed, closed); got != want {
		t.Errorf("one error: %+v, want %+v", got, want)
	}
	if a := Verdict(Failed, []PaymentError{retry, retry}); a.Why != "" || !strings.HasPrefix(a.Retry, "YES") {
		t.Errorf("agreeing errors: %+v", a)
	}
	a := Verdict(Failed, []PaymentError{retry, closed})
	if !strings.HasPrefix(a.Retry, "NO") || !strings.Contains(a.Why, "SYS_001 YES, USR_030 NO") {
		t.Errorf("disagreeing errors: %+v", a)
	}
	if a := Verdict(Declined, nil); !strings.HasPrefix(a.Retry, "UNKNOWN") || strings.Contains(a.Todo, "the code") {
		t.Errorf("no error: %+v", a)
	}
	if a := Verdict(Returned, nil); !strings.HasPrefix(a.Retry, "NO") {
		t.Errorf("returned: %+v", a)
	}
	if a := Verdict(Transferring, nil); a.Retry != "" {
		t.Errorf("in flight: %+v", a)
	}
}
