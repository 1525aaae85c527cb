package platform

import (
	"path/filepath"
	"testing"

	payclient "treasury/wire/payments/client"
)

// TestDialectsRememberedPerProfileAndServer: what was learnt of a server is
// read back for the same profile and base URL, not for another, and a
// missing or damaged file is nothing learnt.
func TestDialectsRememberedPerProfileAndServer(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", dialectFile)
	d := &dialects{path: path}
	if got := d.load("uat https://a"); got != (payclient.Dialect{}) {
		t.Fatalf("nothing learnt yet, got %+v", got)
	}
	spec := payclient.Dialect{Sort: payclient.SortCreatedAt, NarrowFilter: true}
	if err := d.save("uat https://a", spec); err != nil {
		t.Fatal(err)
	}
	if err := d.save("prod https://b", payclient.Dialect{Sort: payclient.SortNone}); err != nil {
		t.Fatal(err)
	}
	again := &dialects{path: path}
	if got := again.load("uat https://a"); got != spec {
		t.Fatalf("read back %+v, want %+v", got, spec)
	}
	if got := again.load("uat https://c"); got != (payclient.Dialect{}) {
		t.Fatalf("another server of the profile starts afresh, got %+v", got)
	}
	if got := (&dialects{path: filepath.Join(t.TempDir(), "nope")}).load("x"); got != (payclient.Dialect{}) {
		t.Fatalf("a missing file, got %+v", got)
	}
}
