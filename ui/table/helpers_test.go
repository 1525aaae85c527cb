package table

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

// updating says go test -update was asked: the flag is x/exp/golden's
// (imported through uitest and teatest), shared with the shell's goldens.
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// plainStyles render without colours or attributes, as on a dumb terminal
// (the zero Styles).
func plainStyles() Styles { return Styles{} }

// golden compares got with testdata/name.golden (rewritten with -update).
func golden(t *testing.T, name, got string) {
	t.Helper()
	p := filepath.Join("testdata", name+".golden")
	if updating() {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file\n got:\n%s\nwant:\n%s", name, got, want)
	}
}

var t0 = time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)

func paymentCols() []Column {
	return []Column{
		{Title: "ID", Width: 6},
		{Title: "Beneficiary", Width: 10, Flex: 2},
		{Title: "Amount", Width: 10, Align: Right},
		{Title: "State", Width: 9, Flex: 1},
	}
}

func payment(id, name, amount, state string) Row {
	return Row{
		ID:    id,
		Cells: []string{id, name, amount, state},
		Keys:  []Key{{}, {}, Decimal(decimal.RequireFromString(amount)), {}},
	}
}

func samplePayments() []Row {
	return []Row{
		payment("p-001", "Acme Holdings Ltd", "1250.00", "COMPLETED"),
		payment("p-002", "東京銀行株式会社", "99.5", "PENDING"),
		payment("p-003", "Zeta GmbH", "1000000.00", "FAILED"),
		payment("p-004", "acme subsidiary", "12.00", "COMPLETED"),
		payment("p-005", "Café Ñandú", "250.25", "RETURNED"),
	}
}

func newPlain(cols []Column, w, h int) *Model {
	m := New(cols, plainStyles())
	m.SetSize(w, h)
	return m
}

func ids(m *Model) string {
	var s []string
	for _, i := range m.view {
		s = append(s, m.data.row(i).ID)
	}
	return strings.Join(s, ",")
}
