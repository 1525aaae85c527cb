package route

import "testing"

// TestNamed: a profile's view name is a route only when a view has it.
func TestNamed(t *testing.T) {
	for _, r := range All() {
		if got, ok := Named(string(r)); !ok || got != r {
			t.Errorf("Named(%q) = %q, %v", r, got, ok)
		}
	}
	for _, name := range []string{"", "Payments", "search:x", "ledger "} {
		if _, ok := Named(name); ok {
			t.Errorf("Named(%q) is a view", name)
		}
	}
	if n := Names(); len(n) != len(All()) || n[0] != string(Overview) {
		t.Errorf("Names %v", n)
	}
}
