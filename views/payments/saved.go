package paymentsview

import (
	"treasury/ui/table"
)

// What a saved search of payments (config searches:, views/saved) is
// checked against and shown with.

// SearchColumns are the names the payments table's columns answer to in
// a search and in a saved search's columns ("state", "beneficiary").
func SearchColumns() []string {
	cs := columns()
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = table.ColumnName(c.Title)
	}
	return out
}

// SearchFields are the names of what a payment's row is searched by
// without showing it (searchFields): `code:`, `currency:`, `label:`...
func SearchFields() []string {
	return []string{"code", "title", "description", "originator", "beneficiaryid", "country", "currency", "label",
		"memo", "rail", "tracking"}
}

// CheckWindow says whether w is a window the view takes ("7d", "90d").
func CheckWindow(w string) error {
	_, err := parseWindow(w)
	return err
}

// WindowShown is the window the payments are shown over, as typed.
func (v *View) WindowShown() string { return windowWord(v.window) }
