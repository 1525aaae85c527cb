package figures

import (
	"strings"
	"testing"

	"treasury/wire/apierr"
	"treasury/wire/payments"
)

func TestAdvise(t *testing.T) {
	for _, tc := range []struct {
		st              payments.State
		code, typ       string
		class           apierr.Class
		retry, todoPart string
	}{
		{payments.Failed, "SYS_001", apierr.TypeSystem, apierr.ClassRetry, "YES", "new internalId"},
		{payments.Declined, "USR_067", apierr.TypeUser, apierr.ClassResolve, "NOT YET", "Fund the account"},
		{payments.Failed, "USR_020", apierr.TypeUser, apierr.ClassFixRequest, "NO", "Correct the cause"},
		{payments.Failed, "CFG_001", apierr.TypeConfiguration, apierr.ClassOperator, "NO", "operator's support"},
		{payments.Failed, "AUTH_051", apierr.TypeAuth, apierr.ClassForbidden, "NO", "different organization"},
		{payments.Returned, "USR_020", apierr.TypeUser, apierr.ClassFixRequest, "NO: a returned", "beneficiary's account"},
		{payments.Failed, "ZZZ_1", "", apierr.ClassUnknown, "UNKNOWN", "before resubmitting"},
	} {
		a := Advise(tc.st, payments.PaymentError{Code: tc.code, Type: tc.typ})
		if a.Class != tc.class || !strings.HasPrefix(a.Retry, tc.retry) || !strings.Contains(a.Todo, tc.todoPart) || a.State != payments.StateMeaning(tc.st) {
			t.Errorf("Advise(%s, %s) = %+v", tc.st, tc.code, a)
		}
	}
}
