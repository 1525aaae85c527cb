package route

import (
	"slices"
	"testing"

	"treasury/config"
)

// TestTheConfigurationNamesTheViews: the views a profile's commands may
// name are the routes, in the same order.
func TestTheConfigurationNamesTheViews(t *testing.T) {
	var got []string
	for _, r := range All() {
		got = append(got, string(r))
	}
	if !slices.Equal(got, config.ViewNames()) {
		t.Fatalf("routes %v, config.ViewNames %v", got, config.ViewNames())
	}
}
