// Package addressbook is the address-book view: the custody endpoints of
// the domain (alias, address, ledger, lock state, listing, ABI, trust score)
// with their detail, and the wallet interface's counterparties with their
// addresses. From an endpoint an operator locks or unlocks it: a confirmed,
// signed intent that the view follows until it is executed, rejected or
// expired.
package addressbook

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"treasury/config/route"
	"treasury/desk/actions"
	"treasury/desk/live"
	"treasury/desk/platform"
	"treasury/ui"
	"treasury/views/viewkit"
	"treasury/wire/custody"
	"treasury/wire/wallet"
)

// section is the root the view shows.
type section int

const (
	endpointsSection section = iota
	counterpartiesSection
)

// View is the address-book view.
type View struct {
	viewkit.Stack
	ctx  *ui.Context
	p    *platform.Platform
	act  *actions.Actor
	keys keys

	section   section
	endpoints *viewkit.TablePage[custody.Endpoint]
	cps       *viewkit.TablePage[wallet.Counterparty]
	detail    *viewkit.DetailPage[custody.Endpoint]

	// follows are the intents being followed, by endpoint id; last is the
	// outcome of the last intent of an endpoint, for its detail.
	follows map[string]*follow
	// asking is the read before a dialog, one at a time.
	asking viewkit.Asking
	last   map[string]custody.Intent
}

type keys struct{ Section, Lock, Unlock key.Binding }

// New builds the address-book view.
func New(ctx *ui.Context, p *platform.Platform, act *actions.Actor) *View {
	v := &View{ctx: ctx, p: p, act: act, follows: map[string]*follow{}, last: map[string]custody.Intent{},
		keys: keys{
			Section: ctx.Key("counterparties"), Lock: ctx.Key("lock"), Unlock: ctx.Key("unlock"),
		}}
	v.endpoints = v.newEndpointsPage()
	v.cps = v.newCounterpartiesPage()
	v.Stack.Reset(v.endpoints)
	return v
}

// Name is the palette name.
func (v *View) Name() route.Route { return route.AddressBook }

// Title is the tab label.
func (v *View) Title() string { return "Address book" }

// Init does nothing: the store pushes endpoints and counterparties.
func (v *View) Init() tea.Cmd { return nil }

// showSection resets the stack to a section's root.
func (v *View) showSection(s section) tea.Cmd {
	v.section = s
	v.detail = nil
	if s == counterpartiesSection {
		return v.Stack.Reset(v.cps)
	}
	return v.Stack.Reset(v.endpoints)
}

// Topics are the page's topics; endpoints too while an intent is followed.
func (v *View) Topics() []live.Topic {
	ts := v.Stack.Topics()
	if len(v.follows) > 0 && !slices.Contains(ts, live.Endpoints) {
		ts = append(append([]live.Topic(nil), ts...), live.Endpoints)
	}
	return ts
}

// Update handles the section key, palette opens and intent following, and
// delegates the rest to the page shown.
func (v *View) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case viewkit.ReadDone:
		return v.asking.Answer(msg)
	case tea.KeyPressMsg:
		if key.Matches(msg, v.keys.Section) && v.Stack.Depth() == 1 {
			if v.section == endpointsSection {
				return v.showSection(counterpartiesSection)
			}
			return v.showSection(endpointsSection)
		}
	case ui.Open:
		return v.open(msg.Args)
	case pollMsg:
		return v.poll(msg.intentID)
	case ui.Tick:
		return tea.Batch(v.watchdog(), v.Stack.Update(msg))
	case submitted:
		return v.submittedAnswer(msg)
	case viewkit.BatchDone[custody.Endpoint]:
		return v.batchDone(msg)
	case intentRead:
		return v.intentAnswer(msg)
	case refetched:
		return v.ended(msg.intentID, msg.err)
	}
	return v.Stack.Update(msg)
}

// Render draws the line of the intents followed, then the page.
func (v *View) Render(w, h int) string {
	line := v.followLine(w)
	if line == "" || h < 4 {
		return v.Stack.Render(w, h)
	}
	return line + "\n" + v.Stack.Render(w, h-1)
}

// Keys are the page's bindings and the section switch at a root.
func (v *View) Keys() []key.Binding {
	if v.Stack.Depth() == 1 {
		help := "wallet counterparties"
		if v.section == counterpartiesSection {
			help = "custody endpoints"
		}
		s := v.keys.Section
		s.SetHelp(s.Help().Key, help)
		return v.Stack.KeysWith(s)
	}
	return v.Stack.Keys()
}

// Back pops a page; from the detail the endpoints keep their selection.
// At the counterparties, unfiltered, it returns to the endpoints.
func (v *View) Back() bool {
	if v.Stack.Depth() == 1 && v.section == counterpartiesSection && v.cps.Filter() == "" {
		v.showSection(endpointsSection)
		return true
	}
	ok := v.Stack.Back()
	if ok && v.Stack.Depth() == 1 {
		v.detail = nil
	}
	return ok
}

// open runs a palette command: "endpoints [text]", "endpoint <alias>",
// "counterparties [text]"; no arguments keep what is shown.
func (v *View) open(args []string) tea.Cmd {
	if len(args) == 0 {
		return v.Stack.Update(ui.StoreChanged{})
	}
	rest := strings.Join(args[1:], " ")
	switch args[0] {
	case "counterparties":
		cmd := v.showSection(counterpartiesSection)
		return tea.Batch(cmd, v.cps.SetFilter(rest))
	case "endpoint":
		return v.openEndpoint(rest)
	default:
		cmd := v.showSection(endpointsSection)
		return tea.Batch(cmd, v.endpoints.SetFilter(rest))
	}
}

// Commands offer ":endpoints [text]", ":endpoint <alias>" and
// ":counterparties [text]".
func (v *View) Commands() []ui.Command {
	run := func(sub string) func([]string) tea.Cmd {
		return func(args []string) tea.Cmd { return ui.OpenCmd(v.Name(), append([]string{sub}, args...)...) }
	}
	return []ui.Command{
		{Name: "endpoints", Args: "[text]", Help: "custody endpoints, filtered", View: v.Name(), Run: run("endpoints")},
		{Name: "endpoint", Args: "<alias or id>", Help: "a custody endpoint's detail", View: v.Name(),
			Complete: v.completeAlias, Run: run("endpoint")},
		{Name: "counterparties", Args: "[text]", Help: "wallet counterparties and their addresses", View: v.Name(),
			Run: run("counterparties")},
	}
}
