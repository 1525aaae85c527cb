package buildinfo

import (
	"runtime/debug"
	"testing"
)

func TestLine(t *testing.T) {
	bi := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "treasury", Version: ""},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "02e65c6d2b1a4f0e9c8b"}, {Key: "vcs.time", Value: "2026-12-01T10:00:00Z"},
			{Key: "vcs.modified", Value: "true"}}}
	if got, want := From(bi).Line("treasury"), "treasury (devel), commit 02e65c6d2b1a (2026-12-01T10:00:00Z), modified, go1.26.8"; got != want {
		t.Errorf("Line = %q, want %q", got, want)
	}
	if got, want := From(&debug.BuildInfo{Main: debug.Module{Version: "v1.2.0"}}).Line("treasury"),
		"treasury v1.2.0, commit unknown (not recorded: go run and go test record none, nor a build with -buildvcs=false or in a git worktree)"; got != want {
		t.Errorf("Line = %q, want %q", got, want)
	}
}
