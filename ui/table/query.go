package table

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// A filter is a search: terms separated by spaces, every one of which a
// row must match (AND). A term is
//
//	text           in any cell or field of the row (case-insensitive)
//	"two words"    the same, spaces included
//	name:text      in the column of that name (its title, lowercased,
//	               without spaces; a prefix that names one column will
//	               do) or in the row's field of that name (Row.Fields:
//	               what the table does not show, as an error's code)
//	~regexp        a regular expression over the row's text, or
//	name:~regexp   over one column or field
//	!term          the rows that do not match term
//
// A term that is not one of these (a regular expression that does not
// compile, a name that is neither a column nor a field of the row) is
// matched as text, whole: "09:35" finds a time.

// Field is a value a row can be searched by without showing it (an
// error's code and title behind a payment's row): `name:value` finds it,
// and so does a plain term.
type Field struct {
	Name  string // lowercase, no spaces: "code", "title"
	Value string
}

// term is one term of a query.
type term struct {
	neg   bool
	name  string // the name before ':' ("" for none)
	col   int    // the column it names; -1: a field of the row, or none
	text  string // lowercased, what to find
	re    *pattern
	whole string // the term as typed, lowercased, for a name the row lacks
	// find finds text; wholeFind whole.
	find, wholeFind finder
}

// query is a compiled filter.
type query struct {
	terms []term
	note  string // what was not taken as typed
}

// ColumnName is the name a column answers to in a search: its title,
// lowercased, without spaces or punctuation ("Net out/h" is "netouth").
func ColumnName(title string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(title) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// splitTerms splits a filter at spaces outside double quotes.
func splitTerms(f string) []string {
	var out []string
	var b strings.Builder
	quoted := false
	flush := func() {
		if b.Len() > 0 {
			out = append(out, b.String())
			b.Reset()
		}
	}
	for _, r := range f {
		switch {
		case r == '"':
			quoted = !quoted
		case unicode.IsSpace(r) && !quoted:
			flush()
		default:
			b.WriteRune(r)
		}
	}
	flush()
	return out
}

// isName says whether s can name a column or field: letters, digits and
// underscores, starting with a letter.
func isName(s string) bool {
	for i, r := range s {
		if !(unicode.IsLetter(r) || r == '_' || (i > 0 && unicode.IsDigit(r))) {
			return false
		}
	}
	return s != ""
}

// compileQuery compiles filter f (lowercased) over columns named names.
func compileQuery(f string, names []string) *query {
	q := &query{}
	for _, raw := range splitTerms(f) {
		t := term{col: -1}
		if strings.HasPrefix(raw, "!") && len(raw) > 1 {
			t.neg, raw = true, raw[1:]
		}
		t.whole, t.text = raw, raw
		if name, v, ok := strings.Cut(raw, ":"); ok && isName(name) && v != "" {
			t.name, t.text = name, v
			t.col = columnNamed(names, name)
		}
		if rest, ok := strings.CutPrefix(t.text, "~"); ok && rest != "" {
			if re, err := compilePattern(rest); err == nil {
				t.re = re
			} else {
				q.note = "~" + rest + " is not a regular expression: matched as text"
				t.text = rest
			}
		}
		t.find, t.wholeFind = newFinder(t.text), newFinder(t.whole)
		q.terms = append(q.terms, t)
	}
	return q
}

// columnNamed returns the column name names, exactly or as the prefix of
// one column only; -1 for none.
func columnNamed(names []string, name string) int {
	found := -1
	for i, n := range names {
		switch {
		case n == name:
			return i
		case strings.HasPrefix(n, name):
			if found >= 0 {
				return -1 // a prefix of two: not one column
			}
			found = i
		}
	}
	return found
}

// segment returns the i-th \0-separated part of a row's text (its cells,
// then its fields' values).
func segment(search string, i int) (string, bool) {
	for ; i > 0; i-- {
		k := strings.IndexByte(search, 0)
		if k < 0 {
			return "", false
		}
		search = search[k+1:]
	}
	if k := strings.IndexByte(search, 0); k >= 0 {
		search = search[:k]
	}
	return search, true
}

// in reports whether s (of a row; plain is the row's) matches the term's
// text or expression, case aside.
func (t *term) in(s string, plain bool) bool {
	if t.re != nil {
		return t.re.match(s, plain)
	}
	return t.find.in(s, plain)
}

// matchTerm reports whether row r (kept by a version) matches t,
// negation aside.
func (t *term) matchTerm(r *Row) bool {
	switch {
	case t.name == "":
		return t.in(r.text, r.plain)
	case t.col >= 0:
		s, _ := segment(r.text, t.col)
		return t.in(s, r.plain)
	}
	named := false
	rest := r.names
	for j := 0; rest != ""; j++ {
		var name string
		name, rest, _ = strings.Cut(rest, "\x00")
		if name != t.name {
			continue
		}
		named = true
		if s, ok := segment(r.text, int(r.ncells)+j); ok && t.in(s, r.plain) {
			return true
		}
	}
	if !named {
		return t.wholeFind.in(r.text, r.plain) // not a name this row has
	}
	return false
}

// match reports whether row r matches every term.
func (q *query) match(r *Row) bool {
	for i := range q.terms {
		if q.terms[i].matchTerm(r) == q.terms[i].neg {
			return false
		}
	}
	return true
}

// CheckQuery reports what in filter f a table with columns named columns
// (ColumnName) and rows with fields named fields would not take as
// typed: a regular expression that does not compile, a name that is
// neither a column (exactly, or the prefix of one only) nor a field. A
// search typed in the table takes these as text; a saved one is checked
// first.
func CheckQuery(f string, columns, fields []string) error {
	for _, raw := range splitTerms(strings.ToLower(f)) {
		raw = strings.TrimPrefix(raw, "!")
		text := raw
		if name, v, ok := strings.Cut(raw, ":"); ok && isName(name) && v != "" {
			text = v
			if columnNamed(columns, name) < 0 && !slices.Contains(fields, name) {
				return fmt.Errorf("%s: no column or field %q (columns: %s; fields: %s)", raw, name,
					strings.Join(columns, ", "), strings.Join(fields, ", "))
			}
		}
		if rest, ok := strings.CutPrefix(text, "~"); ok && rest != "" {
			if _, err := regexp.Compile("(?i)" + rest); err != nil {
				return fmt.Errorf("%s: not a regular expression: %v", raw, err)
			}
		}
	}
	return nil
}

// ColumnIndex is the column that name (a search's name: exactly, or the
// prefix of one column only) names in columns; -1 for none.
func ColumnIndex(columns []string, name string) int { return columnNamed(columns, name) }

// Terms splits a filter into its terms as the table does: at spaces
// outside double quotes, the quotes dropped.
func Terms(f string) []string { return splitTerms(f) }
