package alerts_test

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"treasury/config/route"
	"treasury/desk/live"
	"treasury/ui"
	"treasury/views/alerts"
	"treasury/views/viewtest"
)

// target stands in for the payments view: it records what it was asked
// to open.
type target struct{ opened chan []string }

func (v *target) Name() route.Route             { return route.Payments }
func (v *target) Title() string                 { return "Payments" }
func (v *target) Topics() []live.Topic          { return nil }
func (v *target) Init() tea.Cmd                 { return nil }
func (v *target) Render(w, h int) string        { return "payments stub" }
func (v *target) Keys() []key.Binding           { return nil }
func (v *target) Crumbs() []string              { return nil }
func (v *target) Back() bool                    { return false }
func (v *target) Selected() (string, any, bool) { return "", nil, false }
func (v *target) SetFilter(string) tea.Cmd      { return nil }
func (v *target) Filter() string                { return "" }
func (v *target) CSV() func(io.Writer) error    { return func(io.Writer) error { return nil } }
func (v *target) Commands() []ui.Command        { return nil }
func (v *target) Update(msg tea.Msg) tea.Cmd {
	if o, ok := msg.(ui.Open); ok {
		v.opened <- o.Args
	}
	return nil
}

// TestAlertToFailedPaymentInTwoKeys: from anywhere, `a` opens the alerts
// (the header's count), the failures alert is first among the payment
// alerts, and enter opens its payment.
func TestAlertToFailedPaymentInTwoKeys(t *testing.T) {
	e := twoHours.Env(t)
	var ref string
	for _, a := range e.P.Store.Alerts() {
		if a.Code == "FAILED" {
			ref = a.Ref
		}
	}
	if ref == "" {
		t.Fatalf("no failures alert after 2 hours of traffic: %+v", e.P.Store.Alerts())
	}
	stub := &target{opened: make(chan []string, 1)}
	tm := e.Program(t, stub, alerts.New(e.Ctx, nil))
	viewtest.WaitFor(t, tm, "payments stub")
	viewtest.Keys(tm, "a")
	viewtest.WaitFor(t, tm, "payments failed")
	// Select the failures alert (sorted by severity: it is low, last).
	for range len(e.P.Store.Alerts()) - 1 {
		viewtest.Keys(tm, "down")
	}
	viewtest.WaitFor(t, tm, "enter opens "+ref)
	viewtest.Keys(tm, "enter")
	select {
	case got := <-stub.opened:
		if len(got) != 1 || got[0] != ref {
			t.Fatalf("opened %v, want %s", got, ref)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("enter did not open the payment")
	}
	tm.Quit()
}

// twoHours is a world two hours on (live traffic: some payments fail),
// built once and shared by the tests that only read it. The alerts view
// shows no quotes or trades: their windows are not read.
var twoHours = viewtest.NewWorld(viewtest.Options{Skip: viewtest.NoLiquidityHistory()}, func(e *viewtest.Env) {
	e.Advance(2 * time.Hour)
})

func TestAlertsGolden(t *testing.T) {
	e := twoHours.Env(t)
	tm := e.Program(t, alerts.New(e.Ctx, nil))
	viewtest.WaitFor(t, tm, "what to do")
	frame := viewtest.Golden(t, tm)
	if !strings.Contains(frame, "FAILED") {
		t.Fatal("failures alert not shown")
	}
}

// TestAlertsAgreeWithTheHeaderFromTheFirstFrame: the view's first frame,
// before any store change reaches it, lists the alerts the header counts.
func TestAlertsAgreeWithTheHeaderFromTheFirstFrame(t *testing.T) {
	e := twoHours.Env(t)
	open := e.P.Store.Alerts()
	if len(open) == 0 {
		t.Fatal("no open alert: the test proves nothing")
	}
	v := alerts.New(e.Ctx, nil)
	out := v.Render(120, 40)
	if strings.Contains(out, "loading") || !strings.Contains(out, fmt.Sprintf("%d rows", len(open))) && !strings.Contains(out, fmt.Sprintf("%d row", len(open))) {
		t.Fatalf("the first frame with %d alerts open:\n%s", len(open), out)
	}
}
