package addressbook_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"treasury/desk/live"
	"treasury/sandbox"
	"treasury/ui"
	"treasury/views/addressbook"
	"treasury/views/viewtest"
	"treasury/wire/custody"
)

func newView(e *viewtest.Env) *addressbook.View { return addressbook.New(e.Ctx, e.P, e.Actor) }

func endpoints(t *testing.T, e *viewtest.Env) []custody.Endpoint {
	t.Helper()
	eps, _ := live.Get(e.P.Store, live.EndpointsKey).Data, true
	if len(eps) == 0 {
		t.Fatal("no endpoints in the sandbox")
	}
	return eps
}

// endpointWhere returns the first endpoint that ok accepts.
func endpointWhere(t *testing.T, e *viewtest.Env, ok func(custody.Endpoint) bool) custody.Endpoint {
	t.Helper()
	for _, ep := range endpoints(t, e) {
		if ok(ep) {
			return ep
		}
	}
	t.Fatal("no such endpoint in the sandbox")
	return custody.Endpoint{}
}

func TestEndpointsGolden(t *testing.T) {
	e := shared.Env(t)
	first := endpoints(t, e)[0]
	tm := e.Program(t, newView(e))
	viewtest.WaitFor(t, tm, first.Alias)
	viewtest.Keys(tm, "down")
	frame := viewtest.Golden(t, tm)
	for _, want := range []string{"Address book", "Alias", "Ledger", "Lock", "Listing", "ABI", "Trust"} {
		if !strings.Contains(frame, want) {
			t.Errorf("frame lacks %q", want)
		}
	}
}

func TestEndpointDetailGolden(t *testing.T) {
	e := shared.Env(t)
	ep := endpointWhere(t, e, custody.Endpoint.HasABI)
	tm := e.Program(t, newView(e))
	viewtest.WaitFor(t, tm, endpoints(t, e)[0].Alias)
	viewtest.Keys(tm, ":", "endpoint "+ep.Alias, "enter")
	viewtest.WaitFor(t, tm, "function transfer")
	frame := viewtest.Golden(t, tm)
	for _, want := range []string{ep.ID, ep.Address, "Revision", "Smart-contract interface", "balanceOf(address owner)"} {
		if !strings.Contains(frame, want) {
			t.Errorf("detail lacks %q", want)
		}
	}
}

func TestCounterpartiesGolden(t *testing.T) {
	e := shared.Env(t)
	cps, _ := live.Get(e.P.Store, live.CounterpartiesKey).Data, true
	if len(cps) == 0 {
		t.Fatal("no counterparties in the sandbox")
	}
	tm := e.Program(t, newView(e))
	viewtest.WaitFor(t, tm, endpoints(t, e)[0].Alias)
	viewtest.Keys(tm, "w")
	viewtest.WaitFor(t, tm, "Counterparty id")
	frame := viewtest.Golden(t, tm)
	if !strings.Contains(frame, "counterparties") {
		t.Error("no counterparties crumb")
	}
}

// TestCounterpartyAddresses drills from a counterparty to its addresses
// (loaded by a call) and back.
func TestCounterpartyAddresses(t *testing.T) {
	e := shared.Env(t)
	cps, _ := live.Get(e.P.Store, live.CounterpartiesKey).Data, true
	if len(cps) == 0 {
		t.Fatal("no counterparties in the sandbox")
	}
	v := newView(e)
	tm := e.Program(t, v)
	viewtest.WaitFor(t, tm, endpoints(t, e)[0].Alias)
	viewtest.Keys(tm, ":", "counterparties", "enter")
	viewtest.WaitFor(t, tm, "Counterparty id")
	viewtest.Keys(tm, "enter")
	addrs, err := e.P.Wallet.Addresses(context.Background(), cps[0].ID)
	if err != nil || len(addrs) == 0 {
		t.Fatalf("addresses of %s: %v %v", cps[0].Name, addrs, err)
	}
	viewtest.WaitAll(t, tm, "Blockchains", addrs[0].Address[:24]) // the column may cut its end
	viewtest.Keys(tm, "esc")
	viewtest.WaitFor(t, tm, "Counterparty id")
	viewtest.Keys(tm, "esc")
	viewtest.WaitFor(t, tm, "Trust")
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	tm.FinalModel(t)
	if got := strings.Join(v.Crumbs(), "/"); got != "endpoints" {
		t.Errorf("crumbs after esc, esc = %q", got)
	}
}

// TestNavigation opens an endpoint, goes back, and filters.
func TestNavigation(t *testing.T) {
	e := shared.Env(t)
	eps := endpoints(t, e)
	v := newView(e)
	tm := e.Program(t, v)
	viewtest.WaitFor(t, tm, eps[0].Alias)
	viewtest.Keys(tm, "enter")
	viewtest.WaitAll(t, tm, "Smart-contract interface", eps[0].ID)
	viewtest.Keys(tm, "esc")
	viewtest.WaitFor(t, tm, "Trust")
	viewtest.Keys(tm, "/", "zz-no-such-endpoint", "enter")
	viewtest.WaitFor(t, tm, fmt.Sprintf("0/%d rows, filter: zz-no-such-endpoint", len(eps)))
	// Quoted: the alias's words as one phrase (unquoted, each word is a
	// term of its own, anywhere in the row).
	viewtest.Keys(tm, "esc", "/", `"`+eps[1].Alias+`"`, "enter")
	viewtest.WaitFor(t, tm, fmt.Sprintf("1/%d rows, filter: \"%s\"", len(eps), eps[1].Alias))
	viewtest.Keys(tm, "?")
	// The one of lock and unlock the selected endpoint's state allows.
	viewtest.WaitAll(t, tm, "lock endpoint", "wallet counterparties")
	viewtest.Keys(tm, "esc")
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	tm.FinalModel(t)
	if ui.FilterOf(v) != `"`+eps[1].Alias+`"` {
		t.Errorf("filter = %q", ui.FilterOf(v))
	}
	if id, _, ok := ui.SelectedOf(v); !ok || id != eps[1].ID {
		t.Errorf("selected %q, want %q", id, eps[1].ID)
	}
	if got := strings.Join(v.Crumbs(), "/"); got != "endpoints" {
		t.Errorf("crumbs = %q", got)
	}
}

func TestPaletteCompletesAliases(t *testing.T) {
	e := shared.Env(t)
	v := newView(e)
	var cmd ui.Command
	for _, c := range v.Commands() {
		if c.Name == "endpoint" {
			cmd = c
		}
	}
	if cmd.Complete == nil {
		t.Fatal("no :endpoint completion")
	}
	ep := endpointWhere(t, e, custody.Endpoint.HasABI)
	word := strings.Fields(ep.Alias)[0]
	got := cmd.Complete(strings.ToLower(word))
	found := false
	for _, a := range got {
		found = found || a == ep.Alias
		if !strings.Contains(strings.ToLower(a), strings.ToLower(word)) {
			t.Errorf("completion %q does not contain %q", a, word)
		}
	}
	if !found {
		t.Errorf("completion of %q lacks %q: %v", word, ep.Alias, got)
	}
}

// TestFitsIn80Columns renders every page at 80x20.
func TestFitsIn80Columns(t *testing.T) {
	e := shared.Env(t)
	v := newView(e)
	check := func(what string) {
		t.Helper()
		viewtest.Fits(t, what, v.Render(80, 20), 80, 20)
	}
	v.Update(ui.StoreChanged{})
	check("endpoints")
	ep := endpointWhere(t, e, custody.Endpoint.HasABI)
	v.Update(ui.Open{View: v.Name(), Args: []string{"endpoint", ep.ID}})
	if !strings.Contains(v.Render(80, 20), "Alias") {
		t.Fatal("detail not shown")
	}
	check("detail")
	v.Update(ui.Open{View: v.Name(), Args: []string{"counterparties"}})
	check("counterparties")
}

// TestHostileStrings: aliases, descriptions and counterparty names with
// escapes and controls reach the screen only as harmless text.
func TestHostileStrings(t *testing.T) {
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory()})
	if err := e.Sandbox.SetFaults(sandbox.FaultSettings{Hostile: true}); err != nil {
		t.Fatal(err)
	}
	e.Fetch()
	eps := endpoints(t, e)
	if !strings.ContainsAny(eps[0].Alias+eps[1].Alias+eps[2].Alias, "\x1b\x07\r\u202e\u009b") {
		t.Fatalf("the sandbox sent no hostile aliases: %q", eps[0].Alias)
	}
	v := newView(e)
	check := func(what string) {
		t.Helper()
		out := v.Render(120, 36)
		if r, bad := viewtest.Harmful(out); bad {
			t.Errorf("%s: rendered %U", what, r)
		}
	}
	v.Update(ui.StoreChanged{})
	check("endpoints")
	for _, ep := range eps[:12] {
		v.Update(ui.Open{View: v.Name(), Args: []string{"endpoint", ep.ID}})
		check("detail of " + ep.ID)
	}
	for _, c := range v.Commands() {
		if c.Complete != nil {
			for _, a := range c.Complete("") {
				if r, bad := viewtest.Harmful(a); bad {
					t.Errorf("completion %q holds %U", a, r)
				}
			}
		}
	}
	v.Update(ui.Open{View: v.Name(), Args: []string{"counterparties"}})
	check("counterparties")
}

// TestSortByTheColumnsLetter: s letters the columns in the header; the
// next key is the table's, whatever the shell or the view would do with
// it (q does not quit, t is not an action): a column's letter sorts by
// it, shown by its arrow.
func TestSortByTheColumnsLetter(t *testing.T) {
	e := shared.Env(t)
	tm := e.Program(t, newView(e))
	viewtest.WaitFor(t, tm, endpoints(t, e)[0].Alias)
	viewtest.Keys(tm, "s")
	viewtest.WaitFor(t, tm, "a Alias")
	viewtest.Keys(tm, "q") // no column's letter: the sort stays, nothing quits
	viewtest.WaitFor(t, tm, "Alias")
	viewtest.Keys(tm, "s")
	viewtest.WaitFor(t, tm, "g Tr") // a narrow column: its title cut, its letter shown
	viewtest.Keys(tm, "g")
	viewtest.WaitFor(t, tm, "Tr… ▲") // ascending; the selection kept in view
	frame := viewtest.Golden(t, tm)
	if strings.Contains(frame, "a Alias") {
		t.Error("the letters stay after the pick")
	}
}
