package main

import (
	"context"
	"flag"
	"fmt"
	"runtime/debug"
)

// cmdVersion prints the module version and the VCS revision the binary was
// built from, as recorded by the Go toolchain.
func cmdVersion(ctx context.Context, e *env, g globals, args []string) error {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	if err := parseFlags(fs, e, &g, args); err != nil {
		return err
	}
	fmt.Fprintln(e.stdout, versionString())
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

// userAgent names the binary in requests: treasury/<version>.
func userAgent() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return "treasury/" + bi.Main.Version
	}
	return "treasury/devel"
}
