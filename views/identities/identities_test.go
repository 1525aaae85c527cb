package identities_test

import (
	"strings"
	"testing"

	"treasury/views/identities"
	"treasury/views/viewtest"
)

func TestIdentitiesAndInstruments(t *testing.T) {
	e := shared.Env(t)
	tm := e.Program(t, identities.New(e.Ctx, e.P))
	viewtest.WaitFor(t, tm, "Arjun Dubois")
	viewtest.Keys(tm, "down", "down", "down", "enter")
	viewtest.WaitFor(t, tm, "IN_NEFT")
	frame := viewtest.Golden(t, tm)
	if strings.Contains(frame, "no financial instruments") {
		t.Fatal("the chosen identity has no instruments: pick another for the golden")
	}
}

func TestBackFromInstruments(t *testing.T) {
	e := shared.Env(t)
	v := identities.New(e.Ctx, e.P)
	tm := e.Program(t, v)
	viewtest.WaitFor(t, tm, "Nickname")
	viewtest.Keys(tm, "enter")
	viewtest.WaitFor(t, tm, "Instrument id")
	viewtest.Keys(tm, "esc")
	viewtest.WaitFor(t, tm, "Identity id")
	tm.Quit()
	if len(v.Crumbs()) != 0 {
		t.Fatalf("crumbs after esc: %v", v.Crumbs())
	}
}
