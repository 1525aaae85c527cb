// Package version is the `treasury version` command: what the binary is,
// from what the Go toolchain recorded in it (kit/buildinfo): the module
// version, the commit it was built from and whether the work tree had
// changes not committed.
package version

import (
	"context"
	"flag"
	"fmt"
	"io"
	"runtime"

	"treasury/commands/cli"
	"treasury/kit/buildinfo"
	"treasury/process"
)

// Command prints the module version, the commit (with its time) and
// whether the tree was modified, one fact a line.
func Command(ctx context.Context, e *process.Env, g cli.Globals, args []string) error {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	if err := cli.ParseFlags(fs, e, &g, args); err != nil {
		return err
	}
	Write(e.Stdout, buildinfo.Read())
	return nil
}

// Write writes in: the first line names the binary and its version, then
// the module, the commit, its time, whether the tree was modified and the
// toolchain. Without a recorded commit (go run, go test,
// -buildvcs=false) the commit line says so.
func Write(w io.Writer, in buildinfo.Info) {
	fmt.Fprintf(w, "treasury %s\n", in.Version)
	row := func(k, v string) { fmt.Fprintf(w, "  %-9s %s\n", k, v) }
	row("module", in.Module)
	if in.Commit == "" {
		row("commit", "unknown: not recorded (go run and go test record none, nor a build with -buildvcs=false or in a git worktree)")
	} else {
		row("commit", in.Commit)
		if in.Time != "" {
			row("committed", in.Time)
		}
	}
	row("modified", in.Modification())
	row("go", in.Go+" "+runtime.GOOS+"/"+runtime.GOARCH)
}
