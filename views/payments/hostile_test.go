package paymentsview

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest/v2"

	"treasury/sandbox"
	"treasury/ui"
	"treasury/views/viewtest"
	"treasury/wire/payments"
)

// TestPaymentsHostileStrings turns the sandbox's hostile-string fault on:
// names, labels and error descriptions then carry escape sequences and
// control and bidi characters. They reach the frame only as visible text.
func TestPaymentsHostileStrings(t *testing.T) {
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory()})
	if err := e.Sandbox.SetFaults(sandbox.FaultSettings{Hostile: true}); err != nil {
		t.Fatal(err)
	}
	tenMinutes(e)
	failed := newestIn(t, e, payments.Failed)
	if !strings.ContainsAny(failed.Destination.BeneficiaryIdentityNickName+failed.Errors[0].Description, "\x1b\x07\x7f\u202e\u200b\u009b\r") {
		t.Fatal("hostile fault on, but the failed payment carries no hostile string")
	}

	v := New(e.Ctx, e.P)
	send(v, ui.StoreChanged{})
	var out strings.Builder
	out.WriteString(v.Render(250, 70))
	send(v, ui.Open{View: Name, Args: []string{failed.PaymentID}})
	out.WriteString(v.Render(250, 70))
	if r, bad := viewtest.Harmful(out.String()); bad {
		t.Fatalf("rendered view holds %U", r)
	}
	if !strings.Contains(out.String(), `\x1b`) && !strings.Contains(out.String(), `\u202e`) {
		t.Fatal("no hostile fragment reached the view as visible text")
	}

	// The same through the shell, as a terminal receives it.
	tm := e.Program(t, New(e.Ctx, e.P))
	viewtest.WaitFor(t, tm, "payments per state")
	viewtest.Keys(tm, ":", "payment "+failed.InternalID(), "enter")
	viewtest.WaitAll(t, tm, "what to do", "→ FAILED")
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	frame := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).View().Content
	if r, bad := viewtest.Harmful(frame); bad {
		t.Fatalf("frame holds %U:\n%s", r, frame)
	}
	if !strings.Contains(frame, "Payment "+failed.PaymentID) || !strings.Contains(frame, `\x`) {
		t.Fatalf("frame does not show the hostile detail:\n%s", frame)
	}
}
