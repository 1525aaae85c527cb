package table

import (
	"fmt"
	"runtime"
	"strconv"
	"syscall"
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

// paymentCols and paymentRows are rows as the payments view builds
// them: ten cells (a uuid, an internal id, a state, an error code, two
// amounts with their currencies, a corridor with an arrow, times, a name)
// and the fields searched besides (codes, titles, identities, labels).
func paymentBenchCols() []Column {
	return []Column{{Title: "Initiated", Width: 11}, {Title: "Payment id", Width: 9, Flex: 3}, {Title: "Internal id", Width: 11},
		{Title: "State", Width: 16}, {Title: "Error", Width: 8}, {Title: "Sent", Width: 14, Align: Right},
		{Title: "Corridor", Width: 12}, {Title: "Since", Width: 11}, {Title: "Payout", Width: 14, Align: Right},
		{Title: "Beneficiary", Width: 12, Flex: 1}}
}

func paymentRows(n int) []Row {
	states := []string{"COMPLETED", "TRANSFERRING", "VALIDATING", "INITIATED", "FAILED", "DECLINED", "RETURNED", "COMPLETED"}
	corridors := [][3]string{{"USD", "MXN", "MX"}, {"GBP", "EUR", "FR"}, {"USD", "PHP", "PH"}, {"EUR", "USD", "US"}, {"USD", "INR", "IN"}}
	codes := []string{"USR_031", "USR_066", "SYS_010", "USR_034"}
	rows := make([]Row, n)
	for i := range rows {
		at := t0.Add(-time.Duration(i) * 37 * time.Second)
		st := states[i%len(states)]
		c := corridors[i%len(corridors)]
		sent := decimal.New(int64(1000+(i*7919)%9_999_991), -2)
		paid := decimal.New(int64(17000+(i*104729)%99_999_983), -2)
		id := fmt.Sprintf("%08x-%04x-4%03x-8%03x-%012x", i*2654435761%(1<<32), i%65536, i%4096, (i*7)%4096, i*7919)
		code := ""
		var fields []Field
		if st == "FAILED" || st == "DECLINED" || st == "RETURNED" {
			code = codes[i%len(codes)]
			fields = append(fields, Field{Name: "code", Value: code}, Field{Name: "title", Value: "Invalid beneficiary account"})
		}
		fields = append(fields, Field{Name: "originator", Value: "Treasury Ops " + strconv.Itoa(i%3)},
			Field{Name: "beneficiaryid", Value: fmt.Sprintf("%08x-0000-4000-8000-%012x", i%500, i%500)},
			Field{Name: "country", Value: c[2]}, Field{Name: "currency", Value: c[0]}, Field{Name: "currency", Value: c[1]},
			Field{Name: "label", Value: "payroll"})
		rows[i] = Row{ID: id, Cells: []string{at.Format("01-02 15:04"), id, fmt.Sprintf("INV-%07d", i), st, code,
			sent.StringFixed(2) + " " + c[0], c[0] + "→" + c[1] + " " + c[2], at.Add(time.Minute).Format("15:04"),
			paid.StringFixed(2) + " " + c[1], benchNames[i%len(benchNames)] + " " + strconv.Itoa(i%500)},
			Keys:   []Key{Time(at), {}, {}, {}, {}, Decimal(sent), {}, Time(at.Add(time.Minute)), Decimal(paid)},
			Fields: fields}
	}
	return rows
}

// paymentTable is a 120x40 table of n payment rows.
func paymentTable(b *testing.B, n int) *Model {
	b.Helper()
	m := New(paymentBenchCols(), NewStyles(true))
	m.SetSize(120, 40)
	m.SetRows(paymentRows(n), t0)
	m.View()
	return m
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

// cold is the version d as a session finds it when nobody asked it for
// anything yet: the same rows, no view or sorted order computed.
func cold(d *Rows) *Rows {
	c := *d
	c.cache = newCache()
	return &c
}

// reportCPU reports, when called at the end, the CPU time the process
// spent per op (ms): what the work costs one core, whatever else the
// machine runs meanwhile (wall time counts that too).
func reportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() { b.ReportMetric(float64(cpuTime()-start)/float64(b.N)/1e6, "cpu-ms/op") }
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// The filters and sorts time the work itself: each pass takes a version
// nobody filtered or sorted yet (cold), runs the command the table asks
// for (a large table's view is computed off the session's goroutine) and
// hands its answer back, as the shell does. A benchmark that dropped the
// command would not compile: its answer is what Update is given.

func BenchmarkFilter(b *testing.B) {
	for _, c := range []struct {
		name, filter string
		payments     bool
	}{
		{"text", "acme", false}, {"text-rare", "pay-0009", false}, {"non-ascii", "東京", false}, {"two-terms", "acme pending", false},
		{"regexp", "~^pay-000[0-9]", false}, {"regexp-any", "~(acme|zeta).*[0-9]{3}", false}, {"regexp-no-literal", "~[0-9]{5}", false},
		// Payments as the view shows them (ten cells, fields searched too).
		{"payments/text", "usd→mxn", true}, {"payments/field", "code:usr_03", true}, {"payments/regexp", "~usd→(mxn|php)", true},
		{"payments/regexp-any", "~(failed|declined).*usr_0[36]", true}, {"payments/regexp-no-literal", "~[0-9]{5}", true},
	} {
		b.Run(c.name, func(b *testing.B) {
			m := benchTable(b, 100_000)
			if c.payments {
				m = paymentTable(b, 100_000)
			}
			b.ReportAllocs()
			defer reportCPU(b)()
			for b.Loop() {
				m.SetFilter("")
				m.data = cold(m.data)
				cmd := m.SetFilter(c.filter)
				computed := cmd()
				m.Update(computed)
			}
			if m.Computing() || m.Len() == 0 {
				b.Fatalf("the filter %q was not applied: %d rows", c.filter, m.Len())
			}
		})
	}
}

func BenchmarkSort(b *testing.B) {
	for _, c := range []struct {
		name     string
		col      int
		payments bool
	}{{"decimal", 2, false}, {"time", 5, false}, {"text", 1, false}, {"id", 0, false},
		{"payments/initiated", 0, true}, {"payments/id", 1, true}, {"payments/internal-id", 2, true}, {"payments/state", 3, true},
		{"payments/error", 4, true}, {"payments/sent", 5, true}, {"payments/corridor", 6, true}, {"payments/since", 7, true},
		{"payments/payout", 8, true}, {"payments/beneficiary", 9, true}} {
		b.Run(c.name, func(b *testing.B) {
			m := benchTable(b, 100_000)
			if c.payments {
				m = paymentTable(b, 100_000)
			}
			b.ReportAllocs()
			defer reportCPU(b)()
			desc := false
			for b.Loop() {
				desc = !desc
				m.data = cold(m.data)
				cmd := m.SetSort(c.col, desc)
				computed := cmd()
				m.Update(computed)
			}
			if m.Computing() || m.Len() != 100_000 {
				b.Fatal("the sort was not applied")
			}
			for i := 1; i < m.Len(); i++ {
				if r := compareCol(m.data.row(m.view[i-1]), m.data.row(m.view[i]), c.col); desc && r < 0 || !desc && r > 0 {
					b.Fatalf("rows %d and %d out of order", i-1, i)
				}
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
			bld := NewBuilder(func(a, b *Row) int { return b.Key(5).Compare(a.Key(5)) })
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

// BenchmarkRowsHeld: the live heap a version of 100,000 payment rows
// holds, per row (B/row): what a scope of the payments view costs the
// process once, for every session showing it.
func BenchmarkRowsHeld(b *testing.B) {
	var perRow float64
	for b.Loop() {
		bld := NewBuilder(func(a, b *Row) int { return b.Key(0).Compare(a.Key(0)) })
		runtime.GC()
		before := heapAlloc()
		d := bld.Apply(paymentRows(100_000), nil, t0) // the rows given are let go of
		runtime.GC()
		perRow = float64(heapAlloc()-before) / float64(d.Len())
		runtime.KeepAlive(d)
	}
	b.ReportMetric(perRow, "B/row")
}

func heapAlloc() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}
