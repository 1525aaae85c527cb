package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"treasury/commands/cli/clitest"
)

func TestDispatch(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		out  string
	}{
		{nil, 1, ""}, // the dashboard needs a terminal: see TestDashboardNeedsTerminal
		{[]string{"--read-only"}, 1, ""},
		{[]string{"dashboard", "--profile", "sandbox"}, 1, ""},
		{[]string{"help"}, 0, "commands:"},
		{[]string{"version"}, 0, "treasury "},
		{[]string{"nope"}, 2, ""},
		{[]string{"--bogus"}, 2, ""},
		{[]string{"version", "extra"}, 2, ""},
		{[]string{"--profile", "uat"}, 1, ""}, // no file holds a profile uat
		{[]string{"sandbox", "--error-rate", "2"}, 2, ""},
	} {
		var out bytes.Buffer
		e, stderr := clitest.Env(t, &out)
		if code := run(context.Background(), tc.args, e); code != tc.code || !strings.Contains(out.String(), tc.out) {
			t.Errorf("run %v = %d, stdout %q, stderr %q; want %d and %q", tc.args, code, out.String(), stderr.String(), tc.code, tc.out)
		}
	}
}

func TestDashboardNeedsTerminal(t *testing.T) {
	var out bytes.Buffer
	e, stderr := clitest.Env(t, &out)
	if code := run(context.Background(), nil, e); code != 1 || !strings.Contains(stderr.String(), "needs a terminal") {
		t.Fatalf("code %d, stderr %q", code, stderr.String())
	}
}
