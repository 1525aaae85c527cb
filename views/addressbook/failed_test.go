package addressbook_test

import (
	"strings"
	"testing"

	"treasury/config"
	"treasury/sandbox"
	"treasury/views/viewtest"
)

// TestUnknownDomainAndUnreachableURL: the endpoints page names the failure
// in its body (the 404 of an unknown domain; a refused connection with the
// profile key to fix) and never claims the domain has no endpoints.
func TestUnknownDomainAndUnreachableURL(t *testing.T) {
	for name, c := range map[string]struct {
		change func(*config.Config)
		want   []string
	}{
		"unknown domain": {func(c *config.Config) { c.Custody.DomainID = "00000000-0000-4000-8000-00000000dead" },
			[]string{"Could not read custody endpoints", "404"}},
		"unreachable": {func(c *config.Config) { c.Custody.BaseURL = "http://127.0.0.1:1" },
			[]string{"Could not read custody endpoints", "connection refused", "profiles.sandbox.custody.base_url"}},
	} {
		t.Run(name, func(t *testing.T) {
			e := viewtest.New(t, viewtest.Options{Profile: c.change, Skip: viewtest.NoLiquidityHistory()})
			e.Fetch() // a second failed poll: the page counts them
			tm := e.Program(t, newView(e))
			viewtest.WaitFor(t, tm, "Could not read")
			frame := viewtest.Golden(t, tm)
			for _, want := range c.want {
				if !strings.Contains(frame, want) {
					t.Errorf("the frame lacks %q", want)
				}
			}
			if strings.Contains(frame, "has no custody endpoints") {
				t.Error("an empty-state sentence after a failed read")
			}
		})
	}
}

// TestCounterpartiesAndLookupFailing: with a wrong wallet secret the
// counterparties section names the refusal, and with custody unreachable
// ":endpoint" says the endpoints could not be read, never that no
// endpoint has the alias.
func TestCounterpartiesAndLookupFailing(t *testing.T) {
	t.Parallel()
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory(), Profile: func(c *config.Config) {
		c.Wallet.ClientSecret = config.NewSecret("not-the-secret")
		c.Custody.BaseURL = "http://127.0.0.1:1"
	}})
	tm := e.Program(t, newView(e))
	viewtest.WaitFor(t, tm, "Could not read custody endpoints")
	viewtest.Keys(tm, ":", "endpoint treasury", "enter")
	viewtest.WaitFor(t, tm, "cannot be looked up")
	viewtest.Keys(tm, "w")
	viewtest.WaitFor(t, tm, "Could not read wallet counterparties")
	frame := viewtest.Frame(t, tm)
	for _, want := range []string{"Could not read wallet counterparties", "ERR000.020", "profiles.sandbox.wallet.client_id"} {
		if !strings.Contains(frame, want) {
			t.Errorf("the frame lacks %q:\n%s", want, frame)
		}
	}
	for _, bad := range []string{"no wallet counterparties", "no endpoint with alias", "not-the-secret"} {
		if strings.Contains(frame, bad) {
			t.Errorf("the frame shows %q:\n%s", bad, frame)
		}
	}
}

// TestAddressesFailing: a counterparty's addresses whose read fails show
// the failure where they would be, not "no addresses".
func TestAddressesFailing(t *testing.T) {
	t.Parallel()
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory()})
	tm := e.Program(t, newView(e))
	viewtest.Keys(tm, "w")
	viewtest.WaitFor(t, tm, "Counterparty id")
	if err := e.Sandbox.SetFaults(sandbox.FaultSettings{UnavailableRate: 1}); err != nil {
		t.Fatal(err)
	}
	viewtest.Keys(tm, "enter")
	viewtest.WaitFor(t, tm, "Could not read the addresses of")
	frame := viewtest.Frame(t, tm)
	if !strings.Contains(frame, "UNAVAILABLE") || strings.Contains(frame, "no addresses for") {
		t.Errorf("the failure is not named where the addresses would be:\n%s", frame)
	}
}
