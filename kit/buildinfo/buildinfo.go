// Package buildinfo says what a binary is, from what the Go toolchain
// recorded in it (runtime/debug.ReadBuildInfo): the main module's version,
// the VCS commit it was built from, when that commit was made and whether
// the work tree had changes not committed. `go build` and `go install` in
// a git clone record the commit; `go run` and `go test` do not, nor a
// build with -buildvcs=false (GOFLAGS may hold it) or in a linked git
// worktree (whose .git is a file, which the go command does not take for
// a repository).
package buildinfo

import (
	"runtime/debug"
	"strings"
)

// Info is what a binary says of its build.
type Info struct {
	// Module is the main module's path; Version its version
	// ("(devel)" for a build from a checkout rather than a tagged
	// module).
	Module, Version string
	// Commit is the full VCS revision ("" when none was recorded) and
	// Time when it was committed (RFC 3339, UTC, as recorded).
	Commit, Time string
	// Modified says the work tree had uncommitted changes; it is
	// meaningful only with a Commit.
	Modified bool
	// Go is the toolchain that built the binary (go1.26.8).
	Go string
}

// Read returns the build's information; a binary without any (built
// without module support) has only an empty Version.
func Read() Info {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return Info{}
	}
	return From(bi)
}

// From reads bi.
func From(bi *debug.BuildInfo) Info {
	in := Info{Module: bi.Main.Path, Version: bi.Main.Version, Go: bi.GoVersion}
	for _, kv := range bi.Settings {
		switch kv.Key {
		case "vcs.revision":
			in.Commit = kv.Value
		case "vcs.time":
			in.Time = kv.Value
		case "vcs.modified":
			in.Modified = kv.Value == "true"
		}
	}
	if in.Version == "" {
		in.Version = "(devel)"
	}
	return in
}

// Short is the commit's first 12 characters ("" without one).
func (in Info) Short() string {
	if len(in.Commit) > 12 {
		return in.Commit[:12]
	}
	return in.Commit
}

// Modification says whether the tree was modified, in words: "modified",
// "not modified", or "unknown" when no commit was recorded.
func (in Info) Modification() string {
	switch {
	case in.Commit == "":
		return "unknown"
	case in.Modified:
		return "modified"
	}
	return "not modified"
}

// Line is the build in one line: "treasury (devel), commit 02e65c6d2b1a
// (2026-12-01T10:00:00Z), not modified, go1.26.8"; without a recorded
// commit, "commit unknown (built with go run or -buildvcs=false)".
func (in Info) Line(name string) string {
	var b strings.Builder
	b.WriteString(name + " " + in.Version)
	if in.Commit == "" {
		b.WriteString(", commit unknown (not recorded: go run and go test record none, nor a build with -buildvcs=false or in a git worktree)")
	} else {
		b.WriteString(", commit " + in.Short())
		if in.Time != "" {
			b.WriteString(" (" + in.Time + ")")
		}
		b.WriteString(", " + in.Modification())
	}
	if in.Go != "" {
		b.WriteString(", " + in.Go)
	}
	return b.String()
}
