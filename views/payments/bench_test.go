package paymentsview

import (
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"github.com/shopspring/decimal"

	"treasury/data/live"
	"treasury/data/money"
	"treasury/data/payments"
	"treasury/data/platform"
	"treasury/ui"
	"treasury/views/viewtest"
)

var benchStart = time.Date(2026, 11, 16, 9, 30, 0, 0, time.UTC)

// synth makes n payments, one a second up to benchStart, in every state.
func synth(n int) []payments.Payment {
	states := []payments.State{payments.Completed, payments.Transferring, payments.Validating, payments.Initiated,
		payments.Failed, payments.Declined, payments.Returned, payments.Completed}
	cur := [][3]string{{"USD", "MXN", "MX"}, {"GBP", "EUR", "FR"}, {"USD", "PHP", "PH"}, {"EUR", "USD", "US"}}
	out := make([]payments.Payment, n)
	for i := range out {
		at := benchStart.Add(time.Duration(i-n) * time.Second)
		st := states[i%len(states)]
		c := cur[i%len(cur)]
		p := payments.Payment{
			PaymentID:    fmt.Sprintf("%08x-0000-4000-8000-%012x", i, i*7919),
			PaymentState: st, InitiatedAt: at, ExpiresAt: at.Add(72 * time.Hour), LastStateUpdatedAt: at.Add(30 * time.Second),
			Originator: payments.Originator{InternalID: fmt.Sprintf("INV-%07d", i), SourceCurrency: c[0],
				SourceAmount: money.N(decimal.New(int64(1000+i%99991), -2))},
			Destination: payments.Destination{DestinationCurrency: c[1], DestinationCountry: c[2],
				DestinationAmount: money.N(decimal.New(int64(17000+i%999983), -2)), BeneficiaryIdentityNickName: "Beneficiary " + fmt.Sprint(i%500)},
		}
		if st.Terminal() {
			p.Errors = []payments.PaymentError{{Code: "USR_067", Type: "USER_ERROR", Title: "Insufficient balance"}}
		}
		out[i] = p
	}
	return out
}

// benchView is the view over a store holding n synthetic payments, filled.
func benchView(tb testing.TB, n int) (*View, *live.Store) {
	tb.Helper()
	store := live.New(live.Options{Now: func() time.Time { return benchStart }})
	store.PutPayments(synth(n))
	r := lipgloss.NewRenderer(io.Discard, termenv.WithProfile(termenv.Ascii))
	ctx := &ui.Context{Renderer: r, Theme: ui.NewTheme(r), Store: store, Environment: "test",
		Now: func() time.Time { return benchStart }, Width: 120, Height: 36}
	v := New(ctx, &platform.Platform{Store: store})
	v.Update(ui.StoreChanged{})
	if got := v.table().Total(); got != n {
		tb.Fatalf("table holds %d rows, want %d", got, n)
	}
	v.Render(120, 36)
	return v, store
}

var sizes = []int{1_000, 100_000}

// BenchmarkCursorRender: one cursor move and the frame's body.
func BenchmarkCursorRender(b *testing.B) {
	for _, n := range sizes {
		b.Run(fmt.Sprintf("rows=%d", n), func(b *testing.B) {
			v, _ := benchView(b, n)
			down, up := viewtest.Key("down"), viewtest.Key("up")
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				if i%2 == 0 {
					v.Update(down)
				} else {
					v.Update(up)
				}
				_ = v.Render(120, 36)
			}
		})
	}
}

// BenchmarkFilter: a new filter over every row, and the frame.
func BenchmarkFilter(b *testing.B) {
	v, _ := benchView(b, 100_000)
	filters := []string{"usd→mxn", "inv-00123"}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		v.SetFilter(filters[i%2])
		_ = v.Render(120, 36)
	}
}

// BenchmarkSort: sorting every row by amount (decimal keys) or by time.
func BenchmarkSort(b *testing.B) {
	v, _ := benchView(b, 100_000)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		if i%2 == 0 {
			v.table().SetSort(5, true)
		} else {
			v.table().SetSort(0, false)
		}
		_ = v.Render(120, 36)
	}
}

// BenchmarkScope: switching the state scope (a new slice of the set).
func BenchmarkScope(b *testing.B) {
	v, _ := benchView(b, 100_000)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		v.setScope(scope(1 + i%2)) // in flight, FAILED
		_ = v.Render(120, 36)
	}
}

// BenchmarkStoreChanged: a poll that changed no payment, and one that
// changed one payment of the set.
func BenchmarkStoreChanged(b *testing.B) {
	b.Run("unchanged", func(b *testing.B) {
		v, _ := benchView(b, 100_000)
		b.ReportAllocs()
		b.ResetTimer()
		for range b.N {
			v.Update(ui.StoreChanged{})
			_ = v.Render(120, 36)
		}
	})
	b.Run("one-changed", func(b *testing.B) {
		v, store := benchView(b, 100_000)
		p := synth(100_000)[99_999]
		b.ReportAllocs()
		b.ResetTimer()
		for i := range b.N {
			p.LastStateUpdatedAt = p.LastStateUpdatedAt.Add(time.Second)
			if i%2 == 0 {
				p.PaymentState = payments.Transferring
			} else {
				p.PaymentState = payments.Validating
			}
			b.StopTimer()
			store.PutPayment(p) // the store's merge is not the view's cost
			b.StartTimer()
			v.Update(ui.StoreChanged{})
			_ = v.Render(120, 36)
		}
	})
}

// TestCursorAllocsIndependentOfRows: moving the cursor and rendering costs
// the same allocations at 1,000 rows as at 100,000.
func TestCursorAllocsIndependentOfRows(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 100,000 rows")
	}
	allocs := map[int]float64{}
	for _, n := range sizes {
		v, _ := benchView(t, n)
		down, up := viewtest.Key("down"), viewtest.Key("up")
		i := 0
		allocs[n] = testing.AllocsPerRun(200, func() {
			if i++; i%2 == 0 {
				v.Update(down)
			} else {
				v.Update(up)
			}
			_ = v.Render(120, 36)
		})
	}
	if allocs[100_000] > allocs[1_000]+2 {
		t.Fatalf("allocations per cursor move and render: %v at 1k rows, %v at 100k", allocs[1_000], allocs[100_000])
	}
}

// TestStoreChangedUnchangedKeepsRows: a StoreChanged whose set did not
// change rebuilds nothing; one changed payment rebuilds one row.
func TestStoreChangedUnchangedKeepsRows(t *testing.T) {
	v, store := benchView(t, 1_000)
	before := v.rows.version
	v.Update(ui.StoreChanged{})
	v.Render(120, 36)
	if v.rows.version != before {
		t.Fatal("an unchanged set was read again")
	}
	ps := store.Snapshot(live.Payments).Data.(*live.PaymentSet)
	old := ps.At(ps.Len() - 2)
	oldRow := v.rows.cache[old]
	p := *ps.At(ps.Len() - 1)
	p.LastStateUpdatedAt = p.LastStateUpdatedAt.Add(time.Minute)
	p.PaymentState = payments.Completed
	store.PutPayment(p)
	v.Update(ui.StoreChanged{})
	v.Render(120, 36)
	if v.rows.version == before {
		t.Fatal("a changed set was not read")
	}
	if row := v.rows.cache[old]; &row.Cells[0] != &oldRow.Cells[0] {
		t.Fatal("the row of an unchanged payment was rebuilt")
	}
	if sel, _, _ := v.Selected(); sel == "" {
		t.Fatal("nothing selected")
	}
}
