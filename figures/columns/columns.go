// Package columns declares, once, the short columns of the platform's
// records: the few fields a list of them shows, in order, with a title,
// the text of each cell, how it sorts, and hints for the width it takes
// and which columns give way first on a narrow screen. The views' tables
// style them (viewkit.Columns, viewkit.RowOf) and `treasury get -o table`
// prints them, so that the two never disagree on what a record's short
// form is.
//
// A cell's text is plain and not sanitized: it may hold what came from
// the network, and whoever writes it to a terminal passes it through the
// sanitizer first. Nothing here knows of styles or of the terminal.
package columns

import (
	"time"

	"github.com/shopspring/decimal"

	"treasury/wire/money"
)

// Align is where a column's text sits in its width.
type Align uint8

const (
	// Left aligns text to the left (the default).
	Left Align = iota
	// Right aligns text to the right: counts, amounts of one currency.
	Right
	// Point aligns amounts on their decimal points.
	Point
)

// At is what a cell may depend on beyond its record: the time it is
// judged at (a quote expired, a time of today written without its date)
// and the names of the records it refers to by id (a transaction's
// wallet). Its zero value is a cell of the record alone.
type At struct {
	Now time.Time
	// WalletNames are wallet names by id; nil where a table shows one
	// wallet's records (transactions then show their destination).
	WalletNames map[string]string
}

// SortBy is the kind of a cell's sort key.
type SortBy uint8

const (
	// ByText sorts by the cell's text (the zero Sort).
	ByText SortBy = iota
	// ByTime sorts by Sort.Time (the zero time first).
	ByTime
	// ByDecimal sorts by Sort.Decimal, exactly.
	ByDecimal
	// ByInt sorts by Sort.Int.
	ByInt
)

// Sort is a cell's sort key.
type Sort struct {
	By      SortBy
	Time    time.Time
	Decimal decimal.Decimal
	Int     int64
}

// Time sorts by a time.
func Time(t time.Time) Sort { return Sort{By: ByTime, Time: t} }

// Decimal sorts by an exact decimal (amounts).
func Decimal(d decimal.Decimal) Sort { return Sort{By: ByDecimal, Decimal: d} }

// Int sorts by an integer (counts, scores).
func Int(i int64) Sort { return Sort{By: ByInt, Int: i} }

// Column is one short column of records of type T.
type Column[T any] struct {
	Title string
	// Text is the cell of rec at at: plain, not sanitized.
	Text func(rec T, at At) string
	// Sort is the cell's sort key; nil sorts by its text.
	Sort func(rec T) Sort
	// Width is the least width in cells; Max, when set, sizes the column
	// to its widest cell up to Max; Flex is its share of the width left
	// over. Priority says which columns give way on a narrow screen: the
	// lowest first (ui/table.Column says how a table applies them).
	Width, Max, Flex, Priority int
	Align                      Align
}

// Set is the short columns of a record type, in order.
type Set[T any] []Column[T]

// Titles are the columns' titles.
func (s Set[T]) Titles() []string {
	out := make([]string, len(s))
	for i, c := range s {
		out[i] = c.Title
	}
	return out
}

// Texts are the cells of rec at at.
func (s Set[T]) Texts(rec T, at At) []string {
	out := make([]string, len(s))
	for i, c := range s {
		out[i] = c.Text(rec, at)
	}
	return out
}

// Dash is s, or "—" when it is empty: a field without a value, not a
// blank that could be taken for a value of spaces.
func Dash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// TimeAs is t in UTC in layout; "—" for the zero time.
func TimeAs(t time.Time, layout string) string {
	if t.IsZero() {
		return "—"
	}
	return t.UTC().Format(layout)
}

// Amount is an amount at its currency's decimals, followed by the
// currency when there is one.
func Amount(d decimal.Decimal, currency string) string {
	s := money.Format(d, currency)
	if currency != "" {
		s += " " + currency
	}
	return s
}

// Head is id as a table's column cuts it: its first n-1 characters and an
// ellipsis when it is longer than n ("2a791b3b-66af-490…"), so that a
// dialog listing records names them as their table rows do.
func Head(id string, n int) string {
	r := []rune(id)
	if len(r) <= n || n < 2 {
		return id
	}
	return string(r[:n-1]) + "…"
}

// Short is id cut to its last n-1 characters after an ellipsis when it is
// longer than n.
func Short(id string, n int) string {
	r := []rune(id)
	if len(r) <= n || n < 2 {
		return id
	}
	return "…" + string(r[len(r)-(n-1):])
}
