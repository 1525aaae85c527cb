package table

import (
	"slices"
	"strings"
	"testing"
)

// TestSearchTerms: terms are ANDed; name:value looks in one column (a
// prefix naming one column will do) or a field the table does not show;
// ! negates; ~ is a regular expression; quotes keep spaces; a term that
// is none of these is text, whole.
func TestSearchTerms(t *testing.T) {
	cols := []Column{{Title: "Beneficiary"}, {Title: "State"}, {Title: "Amount"}, {Title: "Initiated"}}
	rows := []Row{
		{ID: "a", Cells: []string{"Carlos Ruiz", "FAILED", "100.00 USD", "09:35"}, Fields: []Field{{"code", "USR_030"}, {"title", "Beneficiary account closed"}}},
		{ID: "b", Cells: []string{"Carlos Diaz", "COMPLETED", "250.00 USD", "09:40"}},
		{ID: "c", Cells: []string{"Ana Failed", "TRANSFERRING", "75.00 MXN", "10:02"}},
		{ID: "d", Cells: []string{"Jose Martin", "FAILED", "12.00 EUR", "11:15"}, Fields: []Field{{"code", "SYS_003"}, {"title", "Payout partner timeout"}}},
	}
	m := New(cols, Styles{})
	m.SetSize(100, 20)
	m.SetRows(rows, t0)
	for _, c := range []struct {
		filter string
		want   []string
	}{
		{"carlos", []string{"a", "b"}},
		{"carlos failed", []string{"a"}},
		{"failed", []string{"a", "c", "d"}},
		{"state:failed", []string{"a", "d"}},
		{"beneficiary:carlos state:FAILED", []string{"a"}},
		{"ben:carlos", []string{"a", "b"}},
		{"!state:failed", []string{"b", "c"}},
		{"code:usr_030", []string{"a"}},
		{"account closed", []string{"a"}},
		{`"account closed"`, []string{"a"}},
		{`"closed account"`, nil},
		{"title:timeout", []string{"d"}},
		{"code:~^usr_0[0-9]+$", []string{"a"}},
		{"~^jose", []string{"d"}},
		{"amount:~mxn$", []string{"c"}},
		{"09:35", []string{"a"}},
		{"!carlos !ana", []string{"d"}},
	} {
		m.SetFilter(c.filter)
		var got []string
		for i := range m.Len() {
			got = append(got, m.data.row(m.view[i]).ID)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("filter %q: %v, want %v", c.filter, got, c.want)
		}
	}
	m.SetFilter("~[unclosed")
	if m.FilterNote() == "" || m.Len() != 0 {
		t.Errorf("a bad regular expression: note %q, %d rows", m.FilterNote(), m.Len())
	}
	m.SetNoMatchHint("Older payments: :payment <internalId>.")
	if v := m.View(); !containsAll(v, "No rows match", "not a regular expression", "Older payments") {
		t.Errorf("no match says:\n%s", v)
	}
}

func containsAll(s string, subs ...string) bool {
	for _, x := range subs {
		if !strings.Contains(s, x) {
			return false
		}
	}
	return true
}
