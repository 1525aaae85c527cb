package addressbook_test

import (
	"strings"
	"testing"

	"treasury/config"
	"treasury/views/viewtest"
)

// TestUnknownDomainAndUnreachableURL: the endpoints page names the failure
// in its body (the 404 of an unknown domain; a refused connection with the
// profile key to fix) and never claims the domain has no endpoints.
func TestUnknownDomainAndUnreachableURL(t *testing.T) {
	for name, c := range map[string]struct {
		change func(*config.Config)
		want   []string
	}{
		"unknown domain": {func(c *config.Config) { c.Custody.DomainID = "00000000-0000-4000-8000-00000000dead" },
			[]string{"Could not read custody endpoints", "404"}},
		"unreachable": {func(c *config.Config) { c.Custody.BaseURL = "http://127.0.0.1:1" },
			[]string{"Could not read custody endpoints", "connection refused", "profiles.sandbox.custody.base_url"}},
	} {
		t.Run(name, func(t *testing.T) {
			e := viewtest.New(t, viewtest.Options{Profile: c.change})
			tm := e.Program(t, newView(e))
			viewtest.WaitFor(t, tm, "Could not read")
			frame := viewtest.Golden(t, tm)
			for _, want := range c.want {
				if !strings.Contains(frame, want) {
					t.Errorf("the frame lacks %q", want)
				}
			}
			if strings.Contains(frame, "has no custody endpoints") {
				t.Error("an empty-state sentence after a failed read")
			}
		})
	}
}
