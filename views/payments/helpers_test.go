package paymentsview

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"treasury/desk/live"
	"treasury/ui"
	"treasury/views/viewtest"
	"treasury/wire/payments"
)

// world returns a frozen sandbox advanced ten minutes a minute at a time,
// so the chart has points and FAILED and DECLINED payments exist, for a
// test that changes it. The payments view shows no quotes or trades, and
// nothing of the wallet and custody interfaces: their topics are not read
// (the trades' and the quotes' windows, the wallets' transactions and the
// custody endpoints cost most of a world's reads). A test whose frame
// shows the shell's header, which names every interface, uses
// fullWorld.
func world(t *testing.T, o viewtest.Options) *viewtest.Env {
	t.Helper()
	o.Skip = notShown
	e := viewtest.New(t, o)
	tenMinutes(e)
	return e
}

// plainWorld is world advanced its ten minutes in one step: the same
// payments, read once, for a test that draws no chart (the chart's points
// are what ten reads a minute apart are for). Each read of a world is
// most of what its test costs.
func plainWorld(t *testing.T) *viewtest.Env {
	t.Helper()
	e := viewtest.New(t, viewtest.Options{Skip: notShown})
	e.Advance(10 * time.Minute)
	return e
}

// fullWorld is world with every topic but the liquidity windows read.
func fullWorld(t *testing.T, o viewtest.Options) *viewtest.Env {
	t.Helper()
	o.Skip = viewtest.NoLiquidityHistory()
	e := viewtest.New(t, o)
	tenMinutes(e)
	return e
}

// notShown are the topics no part of the payments view reads.
var notShown = append(viewtest.NoLiquidityHistory(), live.Vaults, live.Wallets, live.Transactions, live.Sweeps,
	live.WalletWebhooks, live.Subscriptions, live.Counterparties, live.Endpoints)

// tenMinutes advances e ten minutes a minute at a time, reading the
// payments at each (the state chart counts at each of their polls) and
// every topic after the last.
func tenMinutes(e *viewtest.Env) {
	for range 9 {
		e.AdvanceReading(time.Minute, live.Payments)
	}
	e.Advance(time.Minute)
}

// shared is the world of world(t, Options{}), built once and shared by the
// tests that only read it.
var shared = viewtest.NewWorld(viewtest.Options{Skip: viewtest.NoLiquidityHistory()}, tenMinutes)

// send updates the view with msg, runs what follows, then tells it the
// store changed (a call may have put a payment into it).
func send(v *View, msg tea.Msg) []tea.Msg {
	out := viewtest.Drive(v, v.Update(msg))
	v.ctx.Store.Sync() // the shared rows the message asked for are built
	return append(out, viewtest.Drive(v, v.Update(ui.StoreChanged{}))...)
}

func held(t *testing.T, e *viewtest.Env) *live.PaymentSet {
	t.Helper()
	ps, ok := live.Get(e.P.Store, live.PaymentsKey).Data, true
	if !ok || ps.Len() == 0 {
		t.Fatal("the store holds no payments")
	}
	return ps
}

// newestIn returns the newest held payment in state st.
func newestIn(t *testing.T, e *viewtest.Env, st payments.State) *payments.Payment {
	t.Helper()
	ps := held(t, e)
	for i := ps.Len() - 1; i >= 0; i-- {
		if p := ps.At(i); p.PaymentState == st {
			return p
		}
	}
	t.Fatalf("no %s payment held", st)
	return nil
}
