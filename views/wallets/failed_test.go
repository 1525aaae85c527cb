package wallets_test

import (
	"strings"
	"testing"

	"treasury/config"
	"treasury/views/viewtest"
	"treasury/views/wallets"
)

// TestWrongSecretShowsTheFailure: with a wrong wallet secret the vaults
// page names the refusal, the guidance and the profile key where the vaults
// would be, and never says there are no vaults.
func TestWrongSecretShowsTheFailure(t *testing.T) {
	t.Parallel()
	e := viewtest.New(t, viewtest.Options{Profile: func(c *config.Config) {
		c.Wallet.ClientSecret = config.NewSecret("not-the-secret")
	}})
	tm := e.Program(t, wallets.New(e.Ctx, e.P, e.Actor))
	viewtest.WaitFor(t, tm, "Could not read")
	frame := viewtest.Frame(t, tm) // the request id differs from run to run
	for _, want := range []string{"Could not read vaults", "ERR000.020", "client id or secret", "profiles.sandbox.wallet.client_id"} {
		if !strings.Contains(frame, want) {
			t.Errorf("the frame lacks %q", want)
		}
	}
	if strings.Contains(frame, "no vaults") || strings.Contains(frame, "not-the-secret") {
		t.Error("the frame shows an empty-state sentence or the secret")
	}
}
