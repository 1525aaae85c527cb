package identities_test

import (
	"strings"
	"testing"

	"treasury/config"
	"treasury/sandbox"
	"treasury/views/identities"
	"treasury/views/viewtest"
)

// TestWrongSecretShowsTheFailure: with a wrong payments secret the body
// names the refusal and the profile key where the identities would be.
func TestWrongSecretShowsTheFailure(t *testing.T) {
	t.Parallel()
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory(), Profile: func(c *config.Config) {
		c.Payments.ClientSecret = config.NewSecret("not-the-secret")
	}})
	tm := e.Program(t, identities.New(e.Ctx, e.P))
	viewtest.WaitFor(t, tm, "Could not read identities")
	frame := viewtest.Frame(t, tm)
	for _, want := range []string{"Could not read identities", "what to do:", "profiles.sandbox.payments"} {
		if !strings.Contains(frame, want) {
			t.Errorf("the frame lacks %q:\n%s", want, frame)
		}
	}
	if strings.Contains(frame, "no identities") || strings.Contains(frame, "not-the-secret") {
		t.Errorf("an empty-state sentence or the secret:\n%s", frame)
	}
}

// TestInstrumentsFailing: an identity's instruments whose read fails show
// the failure, not "no financial instruments".
func TestInstrumentsFailing(t *testing.T) {
	t.Parallel()
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory()})
	tm := e.Program(t, identities.New(e.Ctx, e.P))
	viewtest.WaitFor(t, tm, "Identity id")
	if err := e.Sandbox.SetFaults(sandbox.FaultSettings{ErrorRate: 1}); err != nil {
		t.Fatal(err)
	}
	viewtest.Keys(tm, "enter")
	viewtest.WaitFor(t, tm, "Could not read the financial instruments of")
	frame := viewtest.Frame(t, tm)
	if !strings.Contains(frame, "SYS_") || strings.Contains(frame, "no financial instruments") {
		t.Errorf("the failure is not named where the instruments would be:\n%s", frame)
	}
}
