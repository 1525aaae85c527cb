package table

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"treasury/ui/uitest"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/shopspring/decimal"
)

func TestGoldenWidths(t *testing.T) {
	for _, w := range []int{80, 48, 30} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			m := newPlain(paymentCols(), w, 6)
			m.SetRows(samplePayments(), t0)
			m.SetSort(2, true)
			got := m.View()
			golden(t, fmt.Sprintf("payments_w%d", w), got)
			lines := strings.Split(got, "\n")
			if len(lines) != 6 {
				t.Fatalf("%d lines, want the height 6", len(lines))
			}
			for i, l := range lines[:5] { // header and rows are padded
				if ansi.StringWidth(l) != w {
					t.Errorf("line %d is %d wide, want %d: %q", i, ansi.StringWidth(l), w, l)
				}
			}
		})
	}
}

func TestGoldenEmptyAndFiltered(t *testing.T) {
	m := newPlain(paymentCols(), 40, 4)
	m.SetEmptyMessage("No payments yet.")
	golden(t, "empty", m.View())
	m.SetRows(samplePayments(), t0)
	m.SetFilter("nothing like it")
	golden(t, "no_match", m.View())
	m.SetFilter("ACME")
	golden(t, "filtered", m.View())
}

func TestFitWideRunes(t *testing.T) {
	cases := []struct {
		in   string
		w    int
		a    Align
		want string
	}{
		{"日本語テキスト", 5, Left, "日本…"},
		{"日本語テキスト", 4, Left, "日… "},  // a wide rune is never split
		{"日本語テキスト", 4, Right, " 日…"}, // padding goes on the aligned side
		{"日本語", 6, Left, "日本語"},
		{"abcdef", 4, Left, "abc…"},
		{"ab", 4, Right, "  ab"},
		{"Café Ñandú", 6, Left, "Café …"},
		{"x", 0, Left, ""},
	}
	var sb strings.Builder
	for _, c := range cases {
		got := fit(&sb, c.in, c.w, c.a)
		if got != c.want {
			t.Errorf("fit(%q, %d) = %q, want %q", c.in, c.w, got, c.want)
		}
		if ansi.StringWidth(got) != c.w {
			t.Errorf("fit(%q, %d) is %d wide", c.in, c.w, ansi.StringWidth(got))
		}
	}
}

func TestSelectionFollowsID(t *testing.T) {
	m := newPlain(paymentCols(), 60, 10)
	m.SetRows(samplePayments(), t0)
	m.MoveCursor(2)
	if got := m.SelectedID(); got != "p-003" {
		t.Fatalf("selected %q, want p-003", got)
	}
	// New rows arrive before it and the order changes: the cursor follows p-003.
	rows := append([]Row{payment("p-000", "New", "1.00", "PENDING")}, samplePayments()...)
	rows[1], rows[5] = rows[5], rows[1]
	m.SetRows(rows, t0.Add(time.Second))
	if got := m.SelectedID(); got != "p-003" {
		t.Fatalf("after SetRows selected %q, want p-003", got)
	}
	if r, _ := m.Selected(); r.Cells[1] != "Zeta GmbH" {
		t.Fatalf("Selected() = %v", r)
	}
	if m.Cursor() != 3 {
		t.Fatalf("cursor %d, want 3 (p-003's new index)", m.Cursor())
	}
	// The record goes away: the cursor keeps its position.
	m.SetRows(append(rows[:3:3], rows[4:]...), t0.Add(2*time.Second))
	if m.Cursor() != 3 || m.SelectedID() != "p-004" {
		t.Fatalf("after removal cursor %d on %q, want 3 on p-004", m.Cursor(), m.SelectedID())
	}
	if !m.Select("p-000") || m.Cursor() != 0 {
		t.Fatalf("Select(p-000) left the cursor at %d", m.Cursor())
	}
	if m.Select("nope") {
		t.Fatal("Select of an unknown ID succeeded")
	}
}

func TestFilterAndSort(t *testing.T) {
	m := newPlain(paymentCols(), 60, 10)
	m.SetRows(samplePayments(), t0)
	m.SetFilter("ACME")
	if got := ids(m); got != "p-001,p-004" {
		t.Fatalf("filter ACME shows %s", got)
	}
	m.SetFilter("ñandú") // non-ASCII, case-insensitive
	if got := ids(m); got != "p-005" {
		t.Fatalf("filter ñandú shows %s", got)
	}
	m.SetFilter("ltd1250") // a match never spans two cells
	if m.Len() != 0 {
		t.Fatalf("filter across cells matched %s", ids(m))
	}
	m.SetFilter("")
	m.MoveCursor(4)     // p-005
	m.SetSort(2, false) // amounts as decimals, not text
	if got := ids(m); got != "p-004,p-002,p-005,p-001,p-003" {
		t.Fatalf("amount ascending: %s", got)
	}
	if m.SelectedID() != "p-005" || m.Cursor() != 2 {
		t.Fatalf("sort moved the selection to %q at %d", m.SelectedID(), m.Cursor())
	}
	m.SortReverse()
	if got := ids(m); got != "p-003,p-001,p-005,p-002,p-004" {
		t.Fatalf("amount descending: %s", got)
	}
	m.SetFilter("COMPLETED")
	if got := ids(m); got != "p-001,p-004" {
		t.Fatalf("filter keeps the sort: %s", got)
	}
	if m.Footer() != "2/5 rows, filter: COMPLETED" {
		t.Fatalf("footer %q", m.Footer())
	}
	m.SetSort(1, false) // text: byte order, so "acme" after "Zeta"
	if got := ids(m); got != "p-001,p-004" {
		t.Fatalf("name ascending: %s", got)
	}
	m.SetFilter("")
	m.SetSort(-1, false)
	if got := ids(m); got != "p-001,p-002,p-003,p-004,p-005" {
		t.Fatalf("unsorted: %s", got)
	}
}

func TestSortStableAndExact(t *testing.T) {
	m := newPlain([]Column{{Title: "k"}, {Title: "v"}}, 20, 10)
	d := func(s string) Key { return Decimal(decimal.RequireFromString(s)) }
	rows := []Row{
		{ID: "a", Cells: []string{"x", "1"}, Keys: []Key{{}, d("0.10000000000000000002")}},
		{ID: "b", Cells: []string{"y", "1"}, Keys: []Key{{}, d("0.1")}},
		{ID: "c", Cells: []string{"x", "2"}, Keys: []Key{{}, d("0.10000000000000000001")}},
		{ID: "d", Cells: []string{"x", "3"}, Keys: []Key{{}, d("-5")}},
	}
	m.SetRows(rows, t0)
	m.SetSort(1, false)
	if got := ids(m); got != "d,b,c,a" {
		t.Fatalf("decimals closer than a float can tell: %s", got)
	}
	m.SetSort(0, false)
	if got := ids(m); got != "a,c,d,b" {
		t.Fatalf("equal keys keep the given order ascending: %s", got)
	}
	m.SetSort(0, true)
	if got := ids(m); got != "b,a,c,d" {
		t.Fatalf("equal keys keep the given order descending: %s", got)
	}
}

func TestHighlightLifecycle(t *testing.T) {
	m := newPlain(paymentCols(), 60, 10)
	m.SetHighlightDuration(3 * time.Second)
	m.SetRows(samplePayments(), t0)
	for _, r := range samplePayments() {
		if m.Highlighted(r.ID) {
			t.Fatalf("%s highlighted on the first load", r.ID)
		}
	}
	if !m.NextExpiry().IsZero() {
		t.Fatalf("NextExpiry %v with nothing highlighted", m.NextExpiry())
	}
	rows := samplePayments()
	rows[1] = payment("p-002", "東京銀行株式会社", "99.5", "COMPLETED")        // changed
	rows = append(rows, payment("p-006", "New Co", "5.00", "PENDING")) // new
	m.SetRows(rows, t0.Add(time.Second))
	want := map[string]bool{"p-002": true, "p-006": true}
	for _, r := range rows {
		if m.Highlighted(r.ID) != want[r.ID] {
			t.Errorf("%s highlighted = %v", r.ID, m.Highlighted(r.ID))
		}
	}
	if got := m.NextExpiry(); !got.Equal(t0.Add(4 * time.Second)) {
		t.Fatalf("NextExpiry %v", got)
	}
	m.View()
	// An identical update keeps the highlight running from its change.
	m.SetRows(append([]Row(nil), rows...), t0.Add(2*time.Second))
	if !m.Highlighted("p-002") {
		t.Fatal("an unchanged row lost its highlight early")
	}
	m.View()
	if m.Tick(t0.Add(3*time.Second)) || !m.Highlighted("p-002") {
		t.Fatal("highlight ended before its time")
	}
	if !m.Tick(t0.Add(4*time.Second)) || m.Highlighted("p-002") || m.Highlighted("p-006") {
		t.Fatal("highlight outlived its time")
	}
	if !m.NextExpiry().IsZero() {
		t.Fatal("NextExpiry after every highlight ended")
	}
}

// markStyles marks each kind of line with a leading character, so tests can
// see which style a row got (the plain profile drops colours).
func markStyles() Styles {
	s := plainStyles()
	mark := func(c string) func(string) string { return func(s string) string { return c + s } }
	s.Selected = s.Selected.Transform(mark(">"))
	s.Highlight = s.Highlight.Transform(mark("*"))
	s.Stale = s.Stale.Transform(mark("~"))
	return s
}

func TestRowStyles(t *testing.T) {
	m := New(paymentCols(), markStyles())
	m.SetSize(50, 8)
	m.SetRows(samplePayments(), t0)
	rows := samplePayments()
	rows[2] = payment("p-003", "Zeta GmbH", "1000000.01", "FAILED")
	m.SetRows(rows, t0.Add(time.Second))
	lines := strings.Split(m.View(), "\n")
	marks := ""
	for _, l := range lines[1:6] {
		marks += l[:1]
	}
	if marks != ">p*pp" {
		t.Fatalf("row marks %q, want >p*pp (selected, plain, highlighted...)\n%s", marks, m.View())
	}
	m.MoveCursor(2) // the selected style wins over the highlight
	m.SetStale(true)
	marks = ""
	for _, l := range strings.Split(m.View(), "\n")[1:6] {
		marks += l[:1]
	}
	if marks != "~~>~~" {
		t.Fatalf("row marks %q, want ~~>~~", marks)
	}
	if !strings.HasSuffix(m.Footer(), ", stale") {
		t.Fatalf("footer %q does not say stale", m.Footer())
	}
}

func TestKeys(t *testing.T) {
	m := newPlain(paymentCols(), 60, 4) // two body rows
	var rows []Row
	for i := range 10 {
		rows = append(rows, payment(fmt.Sprintf("p-%02d", i), "n", fmt.Sprint(10-i), "S"))
	}
	m.SetRows(rows, t0)
	press := func(k string) {
		m.Update(uitest.Key(k))
	}
	steps := []struct {
		key    string
		cursor int
		offset int
	}{
		{"j", 1, 0}, {"down", 2, 1}, {"k", 1, 1}, {"pgdown", 3, 2}, {"G", 9, 8},
		{"up", 8, 8}, {"pgup", 6, 6}, {"g", 0, 0}, {"end", 9, 8}, {"home", 0, 0}, {"k", 0, 0},
	}
	for _, s := range steps {
		press(s.key)
		if m.Cursor() != s.cursor || m.offset != s.offset {
			t.Fatalf("after %q cursor %d offset %d, want %d %d", s.key, m.Cursor(), m.offset, s.cursor, s.offset)
		}
	}
	press("s")
	press("s")
	if c, d := m.Sort(); c != 0 || d {
		t.Fatalf("s s sorts by %d desc=%v, want the next column", c, d)
	}
	press("s")
	press("c")
	press("S")
	if c, d := m.Sort(); c != 2 || !d {
		t.Fatalf("s c S sorts by %d desc=%v", c, d)
	}
	if ids(m)[:4] != "p-00" {
		t.Fatalf("amount descending starts with %s", ids(m))
	}
	m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	if m.Cursor() != wheelStep {
		t.Fatalf("wheel moved the cursor to %d", m.Cursor())
	}
	if len(m.KeyMap().ShortHelp()) == 0 || len(m.KeyMap().FullHelp()) == 0 {
		t.Fatal("no help")
	}
}

func TestCSV(t *testing.T) {
	m := newPlain(paymentCols(), 60, 10)
	rows := samplePayments()
	rows = append(rows, payment("p-006", "=HYPERLINK(\"x\"),\"a\"", "-3.5", "PENDING"))
	m.SetRows(rows, t0)
	m.SetFilter("pending")
	m.SetSort(2, true)
	var b bytes.Buffer
	if err := m.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	want := "ID,Beneficiary,Amount,State\n" +
		"p-002,東京銀行株式会社,99.5,PENDING\n" +
		"p-006,\"'=HYPERLINK(\"\"x\"\"),\"\"a\"\"\",-3.5,PENDING\n"
	if b.String() != want {
		t.Fatalf("CSV:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestViewCachedUntilChange(t *testing.T) {
	m := newPlain(paymentCols(), 60, 10)
	m.SetRows(samplePayments(), t0)
	v1 := m.View()
	if v2 := m.View(); v1 != v2 {
		t.Fatal("View changed with nothing changing")
	}
	m.SetSize(40, 10)
	if v3 := m.View(); v3 == v1 || ansi.StringWidth(strings.Split(v3, "\n")[0]) != 40 {
		t.Fatal("View not rebuilt after SetSize")
	}
}

// TestSortedTitleKeepsItsName: the sorted column widens to hold its title
// and arrow rather than cutting the title ("Benefi… ▲").
func TestSortedTitleKeepsItsName(t *testing.T) {
	m := newPlain(paymentCols(), 80, 6)
	m.SetRows(samplePayments(), t0)
	m.SetSort(1, false)
	if head := strings.Split(m.View(), "\n")[0]; !strings.Contains(head, "Beneficiary ▲") {
		t.Errorf("header %q", head)
	}
	m = newPlain([]Column{{Title: "ID", Width: 6}, {Title: "Beneficiary", Width: 10}, {Title: "Amount", Width: 10}}, 40, 6)
	m.SetRows(samplePayments(), t0)
	m.SetSort(1, false)
	if head := strings.Split(m.View(), "\n")[0]; !strings.Contains(head, "Beneficiary ▲") {
		t.Errorf("a column without flex: header %q", head)
	}
}

// A table's rows, formatted once and kept by row, show as the rows
// formatted anew at every step: rows changing, arriving and leaving,
// columns widening, highlights ending, staleness, a resize, the marker,
// new styles.
func TestKeptRowsShowAsFormattedAnew(t *testing.T) {
	kept, fresh := New(paymentCols(), markStyles()), New(paymentCols(), markStyles())
	steps := []func(m *Model){
		func(m *Model) { m.SetRows(samplePayments(), t0) },
		func(m *Model) {
			rows := samplePayments()
			rows[2] = payment("p-003", "Zeta GmbH", "7.00", "COMPLETED")
			m.SetRows(rows, t0.Add(time.Second))
		},
		func(m *Model) { // a wider amount widens its column for every row
			rows := append(samplePayments(), payment("p-009", "Wide", "123456789012.5", "PENDING"))
			m.SetRows(rows, t0.Add(2*time.Second))
		},
		func(m *Model) { m.Tick(t0.Add(9 * time.Second)) },
		func(m *Model) { m.SetStale(true) },
		func(m *Model) { m.SetStale(false) },
		func(m *Model) { m.SetSize(50, 8) },
		func(m *Model) { m.SetMarker(true) },
		func(m *Model) { m.SetRows(samplePayments()[1:], t0.Add(10*time.Second)) },
		func(m *Model) { m.SetStyles(plainStyles()) },
	}
	kept.SetSize(70, 10)
	fresh.SetSize(70, 10)
	for i, step := range steps {
		step(kept)
		step(fresh)
		fresh.c.forgetRows()
		fresh.c.invalidate()
		if got, want := kept.View(), fresh.View(); got != want {
			t.Fatalf("step %d:\n%s\nwant\n%s", i, got, want)
		}
	}
}

// TestSortByAChosenColumn: s letters the sortable columns in the header
// and says so in the footer; the next key picks: a column's letter sorts
// by it (again: descending), esc or another key leaves the sort as it
// was, and the table takes that one key only.
func TestSortByAChosenColumn(t *testing.T) {
	cols := paymentCols()
	cols[1].NoSort = true // the beneficiary: no letter
	m := New(cols, plainStyles())
	m.SetSize(60, 6)
	m.SetRows([]Row{payment("p-1", "Ann", "10.00", "FAILED"), payment("p-2", "Bob", "30.00", "SETTLED"), payment("p-3", "Cy", "20.00", "FAILED")}, t0)
	press := func(k string) { m.Update(uitest.Key(k)) }
	press("s")
	if !m.Picking() {
		t.Fatal("s must wait for a column's letter")
	}
	golden(t, "sort-picking", m.View())
	press("b") // Amount: the second sortable column
	if c, d := m.Sort(); c != 2 || d || m.Picking() {
		t.Fatalf("s b: sort %d desc %v, picking %v; want Amount ascending", c, d, m.Picking())
	}
	if got := ids(m); got != "p-1,p-3,p-2" {
		t.Fatalf("by amount: %s", got)
	}
	press("s")
	press("b")
	if c, d := m.Sort(); c != 2 || !d {
		t.Fatalf("s b again: sort %d desc %v; want Amount descending", c, d)
	}
	for _, k := range []string{"esc", "j", "z"} {
		press("s")
		press(k)
		if c, d := m.Sort(); c != 2 || !d || m.Picking() {
			t.Fatalf("s %s: sort %d desc %v, picking %v; want it as it was", k, c, d, m.Picking())
		}
	}
	if m.SortLetter(1) != "" || m.SortLetter(3) != "c" {
		t.Fatalf("letters: beneficiary %q, state %q", m.SortLetter(1), m.SortLetter(3))
	}
	m.SetSize(24, 6) // too narrow for every column: one not shown has no letter
	hidden := m.Hidden()
	if len(hidden) == 0 {
		t.Fatal("want a column not shown at 24 cells")
	}
	letters := ""
	for i, c := range cols {
		l := m.SortLetter(i)
		if slices.Contains(hidden, c.Title) && l != "" {
			t.Errorf("%s is not shown but has the letter %q", c.Title, l)
		}
		letters += l
	}
	if want := "abcdefghijklmnopqrtuvwxyz"[:len(letters)]; letters != want {
		t.Errorf("letters %q, want them in order from a: %q", letters, want)
	}
}
