package words

import "testing"

func TestCount(t *testing.T) {
	for n, want := range map[int]string{0: "0 rows", 1: "1 row", 2: "2 rows", 12: "12 rows"} {
		if got := Count(n, "row"); got != want {
			t.Errorf("Count(%d) = %q, want %q", n, got, want)
		}
	}
}
