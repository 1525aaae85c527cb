package version

import (
	"bytes"
	"runtime/debug"
	"strings"
	"testing"

	"treasury/kit/buildinfo"
)

// The version names the module version, the commit with its time and
// whether the tree was modified, from the build's own settings; a build
// without a recorded commit says so rather than printing nothing.
func TestVersionSaysCommitAndModified(t *testing.T) {
	for name, c := range map[string]struct {
		settings []debug.BuildSetting
		want     []string
	}{
		"a modified checkout": {[]debug.BuildSetting{{Key: "vcs.revision", Value: "02e65c6d2b1a4f0e9c8b7a6d5e4f3a2b1c0d9e8f"},
			{Key: "vcs.time", Value: "2026-12-01T10:00:00Z"}, {Key: "vcs.modified", Value: "true"}},
			[]string{"treasury v1.4.0\n", "commit    02e65c6d2b1a4f0e9c8b7a6d5e4f3a2b1c0d9e8f\n", "committed 2026-12-01T10:00:00Z\n", "modified  modified\n"}},
		"a clean checkout": {[]debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}, {Key: "vcs.modified", Value: "false"}},
			[]string{"commit    abc\n", "modified  not modified\n"}},
		"go run": {nil, []string{"commit    unknown: not recorded", "modified  unknown\n"}},
	} {
		t.Run(name, func(t *testing.T) {
			bi := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "treasury", Version: "v1.4.0"}, Settings: c.settings}
			var out bytes.Buffer
			Write(&out, buildinfo.From(bi))
			for _, w := range c.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("%q lacks %q", out.String(), w)
				}
			}
		})
	}
}
