// Package version is the `treasury version` command: the module version
// and the VCS revision the binary was built from.
package version

import (
	"context"
	"flag"
	"fmt"
	"runtime/debug"

	"treasury/commands/cli"
	"treasury/process"
)

// Command prints the module version and the VCS revision the binary was
// built from, as recorded by the Go toolchain.
func Command(ctx context.Context, e *process.Env, g cli.Globals, args []string) error {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	if err := cli.ParseFlags(fs, e, &g, args); err != nil {
		return err
	}
	fmt.Fprintln(e.Stdout, versionString())
	return nil
}

func versionString() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "treasury (no build information)"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	s := "treasury " + v
	var rev, when, dirty string
	for _, kv := range bi.Settings {
		switch kv.Key {
		case "vcs.revision":
			rev = kv.Value
		case "vcs.time":
			when = kv.Value
		case "vcs.modified":
			if kv.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev != "" {
		s += " " + rev + dirty
	}
	if when != "" {
		s += " " + when
	}
	return s + " " + bi.GoVersion
}
