package table

import (
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"treasury/kit/keep"
)

// Benchmarks at the dashboard's worst case: 100,000 payments in a 120x40
// table, coloured as in a real terminal.

var benchStates = []string{"PENDING", "PROCESSING", "COMPLETED", "FAILED", "RETURNED", "DECLINED"}
var benchNames = []string{"Acme Holdings Ltd", "Zeta GmbH", "東京銀行株式会社", "Café Ñandú", "Northwind Traders", "Globex Corporation", "Initech", "Umbrella plc"}

func benchCols() []Column {
	return []Column{
		{Title: "ID", Width: 12},
		{Title: "Beneficiary", Width: 12, Flex: 2},
		{Title: "Amount", Width: 14, Align: Right},
		{Title: "Currency", Width: 8},
		{Title: "State", Width: 10, Flex: 1},
		{Title: "Created", Width: 20},
	}
}

// benchRows returns n payment rows; gen varies amounts and states so two
// generations differ in some rows, as successive polls do.
func benchRows(n, gen int) []Row {
	rows := make([]Row, n)
	for i := range rows {
		id := fmt.Sprintf("pay-%08d", i)
		cents := int64((i*7919+gen*(i%10))%100_000_000) + 1
		amt := decimal.New(cents, -2)
		created := t0.Add(-time.Duration(i) * time.Minute)
		state := benchStates[(i+gen*(i%3))%len(benchStates)]
		rows[i] = Row{
			ID:    id,
			Cells: []string{id, benchNames[i%len(benchNames)] + " " + strconv.Itoa(i%977), amt.StringFixed(2), "USD", state, created.Format(time.RFC3339)},
			Keys:  []Key{{}, {}, Decimal(amt), {}, {}, Time(created)},
		}
	}
	return rows
}

func benchTable(b *testing.B, n int) *Model {
	b.Helper()
	m := New(benchCols(), NewStyles(true))
	m.SetSize(120, 40)
	m.SetRows(benchRows(n, 0), t0)
	m.View()
	return m
}

// Moving the cursor and viewing must cost the same whatever the row count:
// compare allocs/op and ns/op of rows=1000 and rows=100000.
func BenchmarkCursorMoveAndView(b *testing.B) {
	for _, n := range []int{1_000, 100_000} {
		b.Run("rows="+strconv.Itoa(n), func(b *testing.B) {
			m := benchTable(b, n)
			b.ReportAllocs()
			for b.Loop() {
				// Down through the table, scrolling one row at a time once
				// past the first screen; back to the top at the end.
				if m.Cursor() == m.Len()-1 {
					m.setCursor(0)
				} else {
					m.MoveCursor(1)
				}
				_ = m.View()
			}
		})
	}
}

func BenchmarkFilter(b *testing.B) {
	m := benchTable(b, 100_000)
	filters := []string{"acme", "pending", "pay-0009", "東京"}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		m.SetFilter(filters[i%len(filters)])
		_ = m.View()
		i++
	}
}

func BenchmarkSort(b *testing.B) {
	for _, c := range []struct {
		name string
		col  int
	}{{"decimal", 2}, {"time", 5}, {"text", 1}} {
		b.Run(c.name, func(b *testing.B) {
			m := benchTable(b, 100_000)
			b.ReportAllocs()
			desc := false
			for b.Loop() {
				desc = !desc
				m.SetSort(c.col, desc)
				_ = m.View()
			}
		})
	}
}

// SetRows with every row changed (alternating generations) and as a poll
// usually is: fresh rows, 1% of them changed.
func BenchmarkSetRows(b *testing.B) {
	b.Run("all-changed", func(b *testing.B) {
		m := benchTable(b, 100_000)
		gens := [2][]Row{benchRows(100_000, 1), benchRows(100_000, 2)}
		benchAlternate(b, m, gens)
	})
	b.Run("poll-1pct", func(b *testing.B) {
		m := benchTable(b, 100_000)
		base, alt := benchRows(100_000, 0), benchRows(100_000, 1)
		var gens [2][]Row
		for g := range gens {
			gens[g] = make([]Row, len(base))
			for i := range base {
				r := base[i]
				r.Cells = append([]string(nil), r.Cells...) // fresh slices, as a poll
				if i%100 == g {
					r = alt[i]
				}
				gens[g][i] = r
			}
		}
		benchAlternate(b, m, gens)
	})
}

// benchAlternate times SetRows and View with the two generations in turn,
// sorted by amount, one second apart.
func benchAlternate(b *testing.B, m *Model, gens [2][]Row) {
	m.SetSort(2, true)
	b.ReportAllocs()
	i, now := 0, t0
	for b.Loop() {
		now = now.Add(time.Second)
		m.SetRows(gens[i%2], now)
		_ = m.View()
		i++
	}
}

// Twenty sessions' tables of one shared version at 120x40, as on a live
// view: one new row on top, every table drawn; the cost per table, with
// their lines shared (ShareLines) and each formatting its own.
func BenchmarkNewRowInTwentyTables(b *testing.B) {
	for _, share := range []bool{false, true} {
		b.Run(fmt.Sprintf("shared=%v", share), func(b *testing.B) {
			bld := NewBuilder(func(a, b *Row) int { return b.Keys[5].Compare(a.Keys[5]) })
			d := bld.Apply(benchRows(1_000, 0), nil, t0)
			lines := keep.New(4096)
			tables := make([]*Model, 20)
			for i := range tables {
				tables[i] = New(benchCols(), NewStyles(true))
				tables[i].SetSize(120, 40)
				if share {
					tables[i].ShareLines(lines, "dark")
				}
				tables[i].SetData(d)
				_ = tables[i].View()
			}
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				n++
				r := benchRows(1, n)[0]
				r.ID = fmt.Sprint("new-", n)
				r.Keys[5] = Time(t0.Add(time.Duration(n) * time.Minute))
				d = bld.Apply([]Row{r}, nil, t0.Add(time.Duration(n)*time.Minute))
				for _, m := range tables {
					m.SetData(d)
					_ = m.View()
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/20, "ns/table")
		})
	}
}

// Marking while the table is drawn: a mark toggled and the view drawn
// again (the footer counts, the gutter shows), and * over every row
// shown, at 1,000 and 100,000 rows with a thousand marks held.
func BenchmarkMarks(b *testing.B) {
	for _, n := range []int{1_000, 100_000} {
		b.Run("rows="+strconv.Itoa(n), func(b *testing.B) {
			m := benchTable(b, n)
			m.SetMarking(true)
			for range 1000 {
				m.mark()
			}
			m.Home()
			b.Run("space", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					m.mark()
					if m.Cursor() == m.Len()-1 {
						m.setCursor(0)
					}
					_ = m.View()
				}
			})
			b.Run("invert", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					m.invertMarks()
					_ = m.View()
				}
			})
		})
	}
}
