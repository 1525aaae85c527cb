package main

import (
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// module is this module's path: the prefix of its packages.
const module = "treasury/"

// layerRule is one rule of the direction of imports (the design's
// "Layout"): packages under from never depend, directly or through
// another package, on a package under any of never, except the packages
// under allowed.
type layerRule struct {
	from    string
	never   []string
	allowed []string // of from, the packages the rule exempts
	// direct applies the rule to the package's own imports only (a view
	// reaches the HTTP core through the clients, as it should).
	direct bool
	why    string
}

func layerRules() []layerRule {
	rules := []layerRule{
		{from: "data", never: []string{"ui", "views", "commands", "process", "sshserve", "sandbox"},
			why: "the data layer knows no UI, no command and no simulator"},
		{from: "ui", never: []string{"views"}, why: "views plug into the shell through its interface"},
		{from: "kit", never: []string{"commands", "config", "data", "process", "sandbox", "sshserve", "tools", "ui", "views"},
			why: "kit imports nothing of the project"},
		{from: "", never: []string{"sandbox"}, allowed: []string{"process", "commands/sandbox", "sandbox", "tools"}, direct: true,
			why: "only process, commands/sandbox and tools start the simulator"},
		{from: "views", never: []string{"data/transport", "net/http"}, direct: true,
			why: "views read the store and call clients; they build no HTTP request"},
	}
	// Every interface's package has one shape: its records (what the
	// sandbox and the views read) in data/<interface>, its client in
	// data/<interface>/client.
	for _, iface := range []string{"payments", "wallet", "liquidity", "custody", "reporting"} {
		rules = append(rules, layerRule{from: "data/" + iface, never: []string{"data/transport"},
			allowed: []string{"data/" + iface + "/client"},
			why:     "an interface's records need no HTTP: its client is data/" + iface + "/client"})
	}
	return rules
}

// under reports whether package p (its path in the module) is dir or
// below it ("" is every package).
func under(p, dir string) bool {
	return dir == "" || p == dir || strings.HasPrefix(p, dir+"/")
}

// harness reports whether p is a test harness (viewtest, sandboxtest,
// clitest...): a package for tests, which may reach anything.
func harness(p string) bool {
	return strings.HasSuffix(p[strings.LastIndexByte(p, '/')+1:], "test")
}

// graph is, for each package of the module (its path in the module), the
// packages it imports (imports: the module's and the standard library's)
// and those of the module it depends on (deps).
type graph struct{ imports, deps map[string][]string }

// breaks lists the rules g breaks.
func breaks(g graph) []string {
	var out []string
	for _, r := range layerRules() {
		of := g.deps
		if r.direct {
			of = g.imports
		}
		for p, ds := range of {
			if !under(p, r.from) || harness(p) || slices.ContainsFunc(r.allowed, func(a string) bool { return under(p, a) }) {
				continue
			}
			for _, d := range ds {
				for _, n := range r.never {
					if under(d, n) && !under(p, n) {
						out = append(out, fmt.Sprintf("%s depends on %s: %s", p, d, r.why))
					}
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// moduleGraph is `go list -deps` of every package (tests not counted:
// they may reach anything).
func moduleGraph(t *testing.T) graph {
	t.Helper()
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}|{{join .Imports " "}}|{{join .Deps " "}}`, "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	g := graph{imports: map[string][]string{}, deps: map[string][]string{}}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "|")
		if len(f) != 3 || !strings.HasPrefix(f[0], module) {
			continue
		}
		p := strings.TrimPrefix(f[0], module)
		for _, d := range strings.Fields(f[1]) {
			g.imports[p] = append(g.imports[p], strings.TrimPrefix(d, module))
		}
		for _, d := range strings.Fields(f[2]) {
			if strings.HasPrefix(d, module) {
				g.deps[p] = append(g.deps[p], strings.TrimPrefix(d, module))
			}
		}
	}
	return g
}

// TestImportsFollowTheLayers: no package of the module depends on what
// its layer must not (design, "Layout").
func TestImportsFollowTheLayers(t *testing.T) {
	g := moduleGraph(t)
	if len(g.deps) < 50 {
		t.Fatalf("go list found %d packages", len(g.deps))
	}
	for _, b := range breaks(g) {
		t.Error(b)
	}
}

// TestLayerRulesCatchAViolation: each kind of violation is found.
func TestLayerRulesCatchAViolation(t *testing.T) {
	deps := func(m map[string][]string) graph { return graph{deps: m, imports: map[string][]string{}} }
	for _, tc := range []struct {
		g    graph
		want string
	}{
		{deps(map[string][]string{"data/live": {"ui/sanitize"}}), "data/live depends on ui/sanitize"},
		{deps(map[string][]string{"ui": {"views/viewkit"}}), "ui depends on views/viewkit"},
		{deps(map[string][]string{"kit/span": {"data/money"}}), "kit/span depends on data/money"},
		{graph{imports: map[string][]string{"views/payments": {"sandbox"}}}, "views/payments depends on sandbox"},
		{graph{imports: map[string][]string{"views/payments": {"net/http"}}}, "views/payments depends on net/http"},
		{deps(map[string][]string{"data/custody": {"data/transport"}}), "data/custody depends on data/transport"},
	} {
		got := breaks(tc.g)
		if len(got) == 0 || !strings.HasPrefix(got[0], tc.want) {
			t.Errorf("%v: found %q, want %q", tc.g, got, tc.want)
		}
	}
	allowed := graph{deps: map[string][]string{"process": {"sandbox"}, "commands/sandbox": {"sandbox"}, "data/live": {"data/money"},
		"views/viewtest": {"sandbox"}, "data/custody/client": {"data/transport", "data/custody"}}, imports: map[string][]string{"views/payments": {"data/platform"}}}
	if got := breaks(allowed); len(got) != 0 {
		t.Errorf("allowed imports found as violations: %q", got)
	}
}
