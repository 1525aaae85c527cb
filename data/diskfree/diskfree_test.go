package diskfree

import "testing"

func TestAvailOfATempDir(t *testing.T) {
	n, err := Avail(t.TempDir())
	if err != nil || n == 0 {
		t.Fatalf("Avail = %d, %v", n, err)
	}
	if _, err := Avail("/no/such/directory"); err == nil {
		t.Fatal("no error for a missing directory")
	}
}
