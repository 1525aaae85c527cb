package addressbook_test

import (
	"strings"
	"testing"

	"treasury/views/viewtest"
)

// TestRawShowsWhatTheServerSent: y on an endpoint shows the signed item as
// received, with the fields the dashboard does not model (signature,
// signingKey), not the record as the dashboard holds it.
func TestRawShowsWhatTheServerSent(t *testing.T) {
	e := shared.Env(t)
	first := endpoints(t, e)[0]
	tm := e.Program(t, newView(e))
	viewtest.WaitFor(t, tm, first.Alias)
	viewtest.Keys(tm, "y")
	viewtest.WaitFor(t, tm, "signingKey")
	frame := viewtest.Frame(t, tm)
	if !strings.Contains(frame, "as received") || !strings.Contains(frame, `"signature"`) {
		t.Fatalf("raw view:\n%s", frame)
	}
}
