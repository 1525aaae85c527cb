package payments

import (
	"strings"
	"testing"

	"treasury/data/apierr"
)

func TestAdvise(t *testing.T) {
	for _, tc := range []struct {
		st              State
		code, typ       string
		class           apierr.Class
		retry, todoPart string
	}{
		{Failed, "SYS_001", apierr.TypeSystem, apierr.ClassRetry, "YES", "new internalId"},
		{Declined, "USR_067", apierr.TypeUser, apierr.ClassResolve, "NOT YET", "Fund the account"},
		{Failed, "USR_020", apierr.TypeUser, apierr.ClassFixRequest, "NO", "Correct the cause"},
		{Failed, "CFG_001", apierr.TypeConfiguration, apierr.ClassOperator, "NO", "operator's support"},
		{Failed, "AUTH_051", apierr.TypeAuth, apierr.ClassForbidden, "NO", "different organization"},
		{Returned, "USR_020", apierr.TypeUser, apierr.ClassFixRequest, "NO: a returned", "beneficiary's account"},
		{Failed, "ZZZ_1", "", apierr.ClassUnknown, "UNKNOWN", "before resubmitting"},
	} {
		a := Advise(tc.st, PaymentError{Code: tc.code, Type: tc.typ})
		if a.Class != tc.class || !strings.HasPrefix(a.Retry, tc.retry) || !strings.Contains(a.Todo, tc.todoPart) || a.State != StateMeaning(tc.st) {
			t.Errorf("Advise(%s, %s) = %+v", tc.st, tc.code, a)
		}
	}
	for _, st := range []State{Quoted, AwaitingFunding, Initiated, Validating, Transferring, Completed, Failed, Declined, Returned} {
		if m := StateMeaning(st); !strings.Contains(m, string(st)) {
			t.Errorf("StateMeaning(%s) = %q", st, m)
		}
	}
	if StateMeaning("NEW_STATE") != "" {
		t.Error("StateMeaning of a state it does not know")
	}
}
