package main

import (
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// module is this module's path: the prefix of its packages.
const module = "treasury/"

// The layers of the house (ARCHITECTURE.md, "Layers and the rules"). A
// package's layer is the one of the longest prefix of its path in
// layerTable, so a folder moved is one line changed here.
const (
	ground   = "ground"   // kit and config: import nothing of the project but kit
	wire     = "wire"     // the platform's interfaces: HTTP core, records, clients, webhook in
	desk     = "desk"     // the desk's state: the store, the platform's assembly, actions, the record
	figs     = "figures"  // every derived figure, for the views and `get`
	shell    = "ui"       // the shell and its widgets
	screens  = "views"    // one package per screen
	cmds     = "commands" // one package per command
	assembly = "process"  // what a command opens
	sshd     = "sshserve" // the SSH server
	sim      = "sandbox"  // the simulator of the five interfaces
	tooling  = "tools"    // measuring and seeding programs
)

// layerTable maps a package path prefix (in the module) to its layer.
var layerTable = []struct{ prefix, layer string }{
	{"kit", ground},
	{"config", ground},

	{"wire", wire},
	{"desk", desk},
	{"figures", figs},

	{"ui", shell},
	{"views", screens},
	{"commands", cmds},
	{"process", assembly},
	{"sshserve", sshd},
	{"sandbox", sim},
	{"tools", tooling},
}

// layerOf is p's layer ("" when no prefix of the table holds it).
func layerOf(p string) string {
	best, layer := -1, ""
	for _, e := range layerTable {
		if under(p, e.prefix) && len(e.prefix) > best {
			best, layer = len(e.prefix), e.layer
		}
	}
	return layer
}

// under reports whether package p (its path in the module) is dir or
// below it ("" is every package).
func under(p, dir string) bool {
	return dir == "" || p == dir || strings.HasPrefix(p, dir+"/")
}

// sel picks packages: those of a layer, or those under a path (a package
// of the module, or of the standard library: "net/http").
type sel struct{ layer, path string }

func (s sel) has(p string) bool {
	if s.layer != "" {
		return layerOf(p) == s.layer
	}
	return under(p, s.path)
}

func (s sel) String() string {
	if s.layer != "" {
		return "layer " + s.layer
	}
	return s.path
}

func layers(ls ...string) []sel {
	out := make([]sel, len(ls))
	for i, l := range ls {
		out[i] = sel{layer: l}
	}
	return out
}

func paths(ps ...string) []sel {
	out := make([]sel, len(ps))
	for i, p := range ps {
		out[i] = sel{path: p}
	}
	return out
}

// layerRule is one rule of the direction of imports: the packages of
// from (but those of except) never depend, directly or through another
// package, on a package of never; or, when only is set, on any package of
// the module outside only and from itself.
type layerRule struct {
	from   []sel
	except []sel // of from, the packages the rule exempts
	never  []sel
	only   []sel
	// direct applies the rule to the package's own imports only (a view
	// reaches the HTTP core through the clients, as it should).
	direct bool
	// why is the rule as ARCHITECTURE.md states it, word for word.
	why string
}

func layerRules() []layerRule {
	rules := []layerRule{
		{from: layers(wire), never: layers(desk, figs, shell, screens, cmds, assembly, sshd, sim, tooling),
			why: "the wire imports none of the desk's state, the figures, ui, views, commands, process, sshserve, sandbox or tools"},
		{from: layers(figs), never: layers(desk, shell, screens, cmds, assembly, sshd, sim, tooling),
			why: "the figures import none of the desk's state, ui, views, commands, process, sshserve, sandbox or tools"},
		{from: layers(desk), never: layers(shell, screens, cmds, assembly, sshd, sim, tooling),
			why: "the desk's state imports no ui, views, commands, process, sshserve, sandbox or tools"},
		{from: paths("sandbox"), only: append(layers(wire), paths("kit")...),
			why: "the sandbox imports only the wire and kit"},
		{from: paths("config"), only: paths("kit"),
			why: "config imports nothing of the project but kit"},
		{from: paths("kit"), only: nil,
			why: "kit imports nothing of the project"},
		{from: paths("ui"), never: append(paths("wire/transport", "wire/auth", "wire/paging", "wire/payments/client",
			"wire/liquidity/client", "wire/custody/client", "wire/wallet/client", "wire/reporting/client"),
			sel{path: "desk/platform"}, sel{path: "desk/actions"}, sel{path: "desk/site"}, sel{path: "desk/history"},
			sel{path: "desk/alerthook"}, sel{path: "desk/metrics"}),
			why: "ui imports no HTTP client: no client of the wire (transport, auth, paging, an interface's client) and of the desk's state only the store (desk/live) and the record it reads (desk/audit)"},
		{from: paths("ui"), never: layers(screens),
			why: "ui never imports views: views plug into the shell through its interface"},
		{from: paths(""), except: paths("process", "commands/sandbox", "sandbox", "tools"), never: paths("sandbox"), direct: true,
			why: "only process, commands/sandbox and tools start the sandbox"},
		{from: paths("views"), never: paths("wire/transport", "net/http"), direct: true,
			why: "views build no HTTP request: they import neither net/http nor wire/transport"},
	}
	// Every interface's package has one shape: its records (what the
	// sandbox and the views read) in wire/<interface>, its client in
	// wire/<interface>/client.
	var ifaces []sel
	var clients []sel
	for _, iface := range []string{"payments", "wallet", "liquidity", "custody", "reporting"} {
		ifaces = append(ifaces, sel{path: "wire/" + iface})
		clients = append(clients, sel{path: "wire/" + iface + "/client"})
	}
	return append(rules, layerRule{from: ifaces, except: clients, never: paths("wire/transport"),
		why: "an interface's records (wire/<interface>) need no HTTP: its client is wire/<interface>/client"})
}

// harness reports whether p is a test harness (viewtest, sandboxtest,
// clitest...): a package for tests, which may reach anything.
func harness(p string) bool {
	return strings.HasSuffix(p[strings.LastIndexByte(p, '/')+1:], "test")
}

func anyHas(ss []sel, p string) bool {
	return slices.ContainsFunc(ss, func(s sel) bool { return s.has(p) })
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
			if !anyHas(r.from, p) || anyHas(r.except, p) || harness(p) {
				continue
			}
			for _, d := range ds {
				bad := anyHas(r.never, d) && !anyHas(r.never, p) // a package may use its own layer
				if r.never == nil {
					bad = !anyHas(r.only, d) && !anyHas(r.from, d)
				}
				if bad {
					out = append(out, fmt.Sprintf("%s depends on %s: %s", p, d, r.why))
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
		g.imports[p], g.deps[p] = []string{}, []string{}
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
// its layer must not (ARCHITECTURE.md, "Layers and the rules").
func TestImportsFollowTheLayers(t *testing.T) {
	g := moduleGraph(t)
	if len(g.deps) < 50 {
		t.Fatalf("go list found %d packages", len(g.deps))
	}
	for _, b := range breaks(g) {
		t.Error(b)
	}
}

// TestEveryPackageHasALayer: a new package is placed in the table (a
// package the table does not name would escape every rule).
func TestEveryPackageHasALayer(t *testing.T) {
	for p := range moduleGraph(t).deps {
		if layerOf(p) == "" {
			t.Errorf("%s has no layer in layerTable", p)
		}
	}
}

// TestLayerRulesCatchAViolation: each rule finds the violation it is
// about, and none finds what the layers allow.
func TestLayerRulesCatchAViolation(t *testing.T) {
	deps := func(p string, ds ...string) graph {
		return graph{deps: map[string][]string{p: ds}, imports: map[string][]string{}}
	}
	imports := func(p string, ds ...string) graph {
		return graph{imports: map[string][]string{p: ds}, deps: map[string][]string{}}
	}
	cases := []struct {
		g        graph
		want     string
		ruleWord string // a word of the rule that must catch it
	}{
		{deps("wire/wallet", "desk/live"), "wire/wallet depends on desk/live", "the wire imports"},
		{deps("wire/payments", "figures"), "wire/payments depends on figures", "the wire imports"},
		{deps("wire/transport", "ui/sanitize"), "wire/transport depends on ui/sanitize", "the wire imports"},
		{deps("wire/webhook", "sandbox"), "wire/webhook depends on sandbox", "the wire imports"},
		{deps("figures/columns", "ui/table"), "figures/columns depends on ui/table", "the figures import"},
		{deps("figures/runway", "desk/live"), "figures/runway depends on desk/live", "the figures import"},
		{deps("figures/ticket", "views/viewkit"), "figures/ticket depends on views/viewkit", "the figures import"},
		{deps("desk/live", "ui/sanitize"), "desk/live depends on ui/sanitize", "the desk's state imports"},
		{deps("sandbox", "config"), "sandbox depends on config", "the sandbox imports only"},
		{deps("sandbox/internal/payworld", "desk/platform"), "sandbox/internal/payworld depends on desk/platform", "the sandbox imports only"},
		{deps("sandbox", "figures"), "sandbox depends on figures", "the sandbox imports only"},
		{deps("config", "wire/webhook"), "config depends on wire/webhook", "config imports nothing"},
		{deps("config", "ui/route"), "config depends on ui/route", "config imports nothing"},
		{deps("kit/span", "wire/money"), "kit/span depends on wire/money", "kit imports nothing"},
		{deps("kit/span", "config"), "kit/span depends on config", "kit imports nothing"},
		{deps("ui", "desk/actions"), "ui depends on desk/actions", "ui imports no HTTP client"},
		{deps("ui/table", "wire/transport"), "ui/table depends on wire/transport", "ui imports no HTTP client"},
		{deps("ui", "wire/wallet/client"), "ui depends on wire/wallet/client", "ui imports no HTTP client"},
		{deps("ui", "desk/platform"), "ui depends on desk/platform", "ui imports no HTTP client"},
		{deps("ui", "views/viewkit"), "ui depends on views/viewkit", "ui never imports views"},
		{imports("views/payments", "sandbox"), "views/payments depends on sandbox", "only process"},
		{imports("desk/site", "sandbox"), "desk/site depends on sandbox", "only process"},
		{imports("views/payments", "net/http"), "views/payments depends on net/http", "views build no HTTP"},
		{imports("views/wallets", "wire/transport"), "views/wallets depends on wire/transport", "views build no HTTP"},
		{deps("wire/custody", "wire/transport"), "wire/custody depends on wire/transport", "an interface's records"},
	}
	caught := map[string]bool{}
	for _, tc := range cases {
		got := breaks(tc.g)
		i := slices.IndexFunc(got, func(b string) bool {
			return strings.HasPrefix(b, tc.want+":") && strings.Contains(b, tc.ruleWord)
		})
		if i < 0 {
			t.Errorf("%s: found %q, want %q by the rule %q", tc.want, got, tc.want, tc.ruleWord)
			continue
		}
		caught[got[i][strings.Index(got[i], ": ")+2:]] = true
	}
	// Every rule has a case that shows it catches its violation.
	for _, r := range layerRules() {
		if !caught[r.why] {
			t.Errorf("no case shows the rule %q catching a violation", r.why)
		}
	}

	allowed := graph{
		deps: map[string][]string{
			"process": {"sandbox", "desk/platform"}, "commands/sandbox": {"sandbox"},
			"desk/live": {"wire/money", "figures", "config"}, "desk/paystats": {"desk/live"},
			"figures/ticket": {"figures", "wire/payments"},
			"views/viewtest": {"sandbox", "process"}, "sandbox/sandboxtest": {"process"},
			"wire/custody/client": {"wire/transport", "wire/custody"},
			"sandbox":             {"wire/transport", "wire/payments", "kit/pubkey", "sandbox/internal/simkit"},
			"config":              {"kit/pubkey"}, "kit/keep": {"kit/words"},
			"ui":       {"desk/live", "desk/audit", "wire/webhook", "config", "ui/route"},
			"ui/table": {"ui/sanitize", "figures"},
		},
		imports: map[string][]string{"views/payments": {"desk/platform", "wire/payments/client"}},
	}
	if got := breaks(allowed); len(got) != 0 {
		t.Errorf("allowed imports found as violations: %q", got)
	}
}

// TestArchitectureStatesTheCheckedRules: the rules ARCHITECTURE.md states
// (the list under "Layers and the rules") are the rules checked here, word
// for word: a rule the map states and no test checks, or one checked and
// not stated, fails.
func TestArchitectureStatesTheCheckedRules(t *testing.T) {
	b, err := os.ReadFile("ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	stated := statedRules(string(b))
	var checked []string
	for _, r := range layerRules() {
		checked = append(checked, r.why)
	}
	for _, s := range stated {
		if !slices.Contains(checked, s) {
			t.Errorf("ARCHITECTURE.md states a rule nothing checks: %q", s)
		}
	}
	for _, c := range checked {
		if !slices.Contains(stated, c) {
			t.Errorf("a rule checked is not stated in ARCHITECTURE.md: %q", c)
		}
	}
}

// statedRules reads the list that follows "The rules, each checked by
// `layering_test.go`" in ARCHITECTURE.md: each "- " bullet, its wrapped
// lines joined, up to the first line that is neither.
func statedRules(doc string) []string {
	_, after, ok := strings.Cut(doc, "\nThe rules, each checked by `layering_test.go`")
	if !ok {
		return nil
	}
	var out []string
	for _, line := range strings.Split(after, "\n")[1:] {
		switch {
		case strings.HasPrefix(line, "- "):
			out = append(out, strings.TrimSpace(line[2:]))
		case strings.HasPrefix(line, "  ") && len(out) > 0:
			out[len(out)-1] += " " + strings.TrimSpace(line)
		case len(out) == 0: // the sentence that opens the list
		default:
			return out
		}
	}
	return out
}

// folderOf is the top-level folder of package p ("." for the root).
func folderOf(p string) string {
	if p == "" {
		return "."
	}
	top, _, _ := strings.Cut(p, "/")
	return top
}

// climbs lists the cycles among the top-level folders of g (by its
// packages' own imports): where folders import each other, one of the
// arrows climbs.
func climbs(g graph) []string {
	edges := map[string]map[string]bool{}
	for p, ds := range g.imports {
		for _, d := range ds {
			a, b := folderOf(p), folderOf(d)
			if a == b || !isModule(d, g) {
				continue
			}
			if edges[a] == nil {
				edges[a] = map[string]bool{}
			}
			edges[a][b] = true
		}
	}
	var folders []string
	for a := range edges {
		folders = append(folders, a)
	}
	slices.Sort(folders)
	var out []string
	for i, a := range folders {
		for _, b := range folders[i+1:] {
			if reaches(edges, a, b, map[string]bool{}) && reaches(edges, b, a, map[string]bool{}) {
				out = append(out, a+" and "+b+" import each other")
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// isModule reports whether d is a package of the module as g knows it.
func isModule(d string, g graph) bool {
	_, ok := g.imports[d]
	if !ok {
		_, ok = g.deps[d]
	}
	return ok
}

// reaches reports whether from leads to to along edges.
func reaches(edges map[string]map[string]bool, from, to string, seen map[string]bool) bool {
	if from == to {
		return true
	}
	if seen[from] {
		return false
	}
	seen[from] = true
	for n := range edges[from] {
		if reaches(edges, n, to, seen) {
			return true
		}
	}
	return false
}

// TestNoImportClimbsBetweenFolders: the top-level folders import one
// another in one direction only (ground, wire, figures, desk, ui, views,
// commands...): no two of them reach each other.
func TestNoImportClimbsBetweenFolders(t *testing.T) {
	for _, c := range climbs(moduleGraph(t)) {
		t.Error(c)
	}
	mod := func(m map[string][]string) graph {
		g := graph{imports: m, deps: map[string][]string{}}
		for _, ds := range m {
			for _, d := range ds {
				if _, ok := m[d]; !ok {
					g.deps[d] = nil
				}
			}
		}
		return g
	}
	bad := mod(map[string][]string{"figures/runway": {"desk/live"}, "desk/live": {"figures", "wire/money"}, "figures": {"wire/money"}})
	if got := climbs(bad); !slices.Equal(got, []string{"desk and figures import each other"}) {
		t.Errorf("figures and desk importing each other: found %q", got)
	}
	far := mod(map[string][]string{"wire/money": {"ui/sanitize"}, "ui/sanitize": {"views/viewkit"}, "views/viewkit": {"wire/payments"}})
	if got := climbs(far); len(got) == 0 {
		t.Error("a cycle through three folders was not found")
	}
	if got := climbs(mod(map[string][]string{"desk/live": {"figures", "wire/money"}, "figures": {"wire/money"}, "": {"desk/live"}})); len(got) != 0 {
		t.Errorf("one-way imports found as a cycle: %q", got)
	}
}
