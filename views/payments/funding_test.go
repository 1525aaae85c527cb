package paymentsview

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"treasury/ui"
	"treasury/views/viewkit"
	"treasury/wire/apierr"
	"treasury/wire/payments"
)

// TestDetailSaysTheTimeLeftToFund: a just-in-time payment's funds due two
// hours ahead read "(in 0s)": the time left went through ui.Age, which
// clamps what is ahead. It is said on the payments interface's clock.
func TestDetailSaysTheTimeLeftToFund(t *testing.T) {
	e := shared.Env(t)
	ps := held(t, e)
	now := e.P.Store.PlatformNow(apierr.Payments)
	var p *payments.Payment
	for i := ps.Len() - 1; i >= 0 && p == nil; i-- {
		if q := ps.At(i); q.PaymentState == payments.AwaitingFunding && q.JITFundingExpiresAt.Sub(now) > time.Minute {
			p = q
		}
	}
	if p == nil {
		t.Fatal("no payment awaiting just-in-time funding due in more than a minute held")
	}
	v := New(e.Ctx, e.P)
	send(v, ui.Open{View: Name, Args: []string{p.PaymentID}})
	body := ansi.Strip(v.Render(120, 200))
	want := "funds due by " + viewkit.Time(p.JITFundingExpiresAt) + " UTC (" + ui.Until(now, p.JITFundingExpiresAt) + ")"
	if !strings.Contains(body, want) || strings.Contains(body, "(in 0s)") {
		t.Errorf("the funding does not say %q:\n%s", want, body)
	}
}
