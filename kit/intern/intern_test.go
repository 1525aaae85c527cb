package intern

import (
	"strings"
	"testing"
	"unsafe"
)

// TestOfSharesOneCopy: the same text, made twice, comes back as the one
// copy kept; past the bound, texts come back as given and nothing more is
// kept; a long text is never kept.
func TestOfSharesOneCopy(t *testing.T) {
	tb := New(2, 8)
	a := tb.Of(strings.Clone("USD"))
	b := tb.Of(strings.Clone("USD"))
	if unsafe.StringData(a) != unsafe.StringData(b) {
		t.Fatal("two copies of USD held")
	}
	tb.Of("EUR")
	gbp := strings.Clone("GBP")
	if got := tb.Of(gbp); unsafe.StringData(got) != unsafe.StringData(gbp) || tb.Len() != 2 {
		t.Fatalf("past the bound: %d kept", tb.Len())
	}
	if tb.Of("a long name, longer than eight") != "a long name, longer than eight" || tb.Len() != 2 {
		t.Fatal("a long text was kept")
	}
	if tb.Of("") != "" {
		t.Fatal("the empty text changed")
	}
}
