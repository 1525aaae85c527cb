package errorsview_test

import (
	"strings"
	"testing"

	"treasury/config"
	"treasury/views/addressbook"
	errorsview "treasury/views/errors"
	"treasury/views/viewtest"
)

// TestEnterOnAFailedPageOpensItsErrors: the address book cannot read its
// endpoints (the custody URL refuses connections); enter opens the errors
// view filtered to custody, which shows the failed call with its code, the
// times it happened and what to do, and enter again shows it whole.
func TestEnterOnAFailedPageOpensItsErrors(t *testing.T) {
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory(), Profile: func(c *config.Config) { c.Custody.BaseURL = "http://127.0.0.1:1" }})
	e.Fetch() // a second failed poll: "failures recently" counts them
	tm := e.Program(t, addressbook.New(e.Ctx, e.P, e.Actor), errorsview.New(e.Ctx))
	viewtest.WaitFor(t, tm, "Could not read custody endpoints")
	viewtest.Keys(tm, "enter")
	viewtest.WaitFor(t, tm, "Times")
	viewtest.Keys(tm, "enter")
	viewtest.WaitFor(t, tm, "failures recently")
	frame := viewtest.Golden(t, tm)
	for _, want := range []string{"custody GET http://127.0.0.1:1/v1/domains/", "connection refused",
		"profiles.sandbox.custody.base_url", "errors › custody GET"} {
		if !strings.Contains(frame, want) {
			t.Errorf("the frame lacks %q", want)
		}
	}
}
