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

	{"data/transport", wire},
	{"data/auth", wire},
	{"data/paging", wire},
	{"data/wire", wire},
	{"data/apierr", wire},
	{"data/money", wire},
	{"data/payments", wire},
	{"data/liquidity", wire},
	{"data/custody", wire},
	{"data/wallet", wire},
	{"data/reporting", wire},
	{"data/webhook", wire},

	{"data/live", desk},
	{"data/platform", desk},
	{"data/actions", desk},
	{"data/audit", desk},
	{"data/site", desk},
	{"data/history", desk},
	{"data/alerthook", desk},
	{"data/metrics", desk},

	{"data/figures", figs},
	{"data/paystats", figs},
	{"data/columns", figs},
	{"data/runway", figs},
	{"data/payments/ticket", figs}, // the ticket's text: a figure, under its interface

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
		{from: layers(figs), never: layers(shell, screens, cmds, assembly, sshd, sim, tooling),
			why: "the figures import no ui, views, commands, process, sshserve, sandbox or tools"},
		{from: layers(desk), never: layers(shell, screens, cmds, assembly, sshd, sim, tooling),
			why: "the desk's state imports no ui, views, commands, process, sshserve, sandbox or tools"},
		{from: paths("sandbox"), only: append(layers(wire), paths("kit")...),
			why: "the sandbox imports only the wire and kit"},
		{from: paths("config"), only: paths("kit"),
			why: "config imports nothing of the project but kit"},
		{from: paths("kit"), only: nil,
			why: "kit imports nothing of the project"},
		{from: paths("ui"), never: append(paths("data/transport", "data/auth", "data/paging", "data/payments/client",
			"data/liquidity/client", "data/custody/client", "data/wallet/client", "data/reporting/client"),
			sel{path: "data/platform"}, sel{path: "data/actions"}, sel{path: "data/site"}, sel{path: "data/history"},
			sel{path: "data/alerthook"}, sel{path: "data/metrics"}),
			why: "ui imports no HTTP client: no client of the wire (transport, auth, paging, an interface's client) and of the desk's state only the store (data/live) and the record it reads (data/audit)"},
		{from: paths("ui"), never: layers(screens),
			why: "ui never imports views: views plug into the shell through its interface"},
		{from: paths(""), except: paths("process", "commands/sandbox", "sandbox", "tools"), never: paths("sandbox"), direct: true,
			why: "only process, commands/sandbox and tools start the sandbox"},
		{from: paths("views"), never: paths("data/transport", "net/http"), direct: true,
			why: "views build no HTTP request: they import neither net/http nor data/transport"},
	}
	// Every interface's package has one shape: its records (what the
	// sandbox and the views read) in data/<interface>, its client in
	// data/<interface>/client.
	var ifaces []sel
	var clients []sel
	for _, iface := range []string{"payments", "wallet", "liquidity", "custody", "reporting"} {
		ifaces = append(ifaces, sel{path: "data/" + iface})
		clients = append(clients, sel{path: "data/" + iface + "/client"})
	}
	return append(rules, layerRule{from: ifaces, except: clients, never: paths("data/transport"),
		why: "an interface's records (data/<interface>) need no HTTP: its client is data/<interface>/client"})
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
// data/ package the table does not name would escape every rule).
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
		{deps("data/wallet", "data/live"), "data/wallet depends on data/live", "the wire imports"},
		{deps("data/payments", "data/figures"), "data/payments depends on data/figures", "the wire imports"},
		{deps("data/transport", "ui/sanitize"), "data/transport depends on ui/sanitize", "the wire imports"},
		{deps("data/webhook", "sandbox"), "data/webhook depends on sandbox", "the wire imports"},
		{deps("data/columns", "ui/table"), "data/columns depends on ui/table", "the figures import"},
		{deps("data/payments/ticket", "views/viewkit"), "data/payments/ticket depends on views/viewkit", "the figures import"},
		{deps("data/live", "ui/sanitize"), "data/live depends on ui/sanitize", "the desk's state imports"},
		{deps("sandbox", "config"), "sandbox depends on config", "the sandbox imports only"},
		{deps("sandbox/internal/payworld", "data/platform"), "sandbox/internal/payworld depends on data/platform", "the sandbox imports only"},
		{deps("sandbox", "data/figures"), "sandbox depends on data/figures", "the sandbox imports only"},
		{deps("config", "data/webhook"), "config depends on data/webhook", "config imports nothing"},
		{deps("config", "ui/route"), "config depends on ui/route", "config imports nothing"},
		{deps("kit/span", "data/money"), "kit/span depends on data/money", "kit imports nothing"},
		{deps("kit/span", "config"), "kit/span depends on config", "kit imports nothing"},
		{deps("ui", "data/actions"), "ui depends on data/actions", "ui imports no HTTP client"},
		{deps("ui/table", "data/transport"), "ui/table depends on data/transport", "ui imports no HTTP client"},
		{deps("ui", "data/wallet/client"), "ui depends on data/wallet/client", "ui imports no HTTP client"},
		{deps("ui", "data/platform"), "ui depends on data/platform", "ui imports no HTTP client"},
		{deps("ui", "views/viewkit"), "ui depends on views/viewkit", "ui never imports views"},
		{imports("views/payments", "sandbox"), "views/payments depends on sandbox", "only process"},
		{imports("data/site", "sandbox"), "data/site depends on sandbox", "only process"},
		{imports("views/payments", "net/http"), "views/payments depends on net/http", "views build no HTTP"},
		{imports("views/wallets", "data/transport"), "views/wallets depends on data/transport", "views build no HTTP"},
		{deps("data/custody", "data/transport"), "data/custody depends on data/transport", "an interface's records"},
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
			"process": {"sandbox", "data/platform"}, "commands/sandbox": {"sandbox"},
			"data/live": {"data/money", "data/figures", "config"}, "data/paystats": {"data/live"},
			"data/payments/ticket": {"data/figures", "data/payments"},
			"views/viewtest":       {"sandbox", "process"}, "sandbox/sandboxtest": {"process"},
			"data/custody/client": {"data/transport", "data/custody"},
			"sandbox":             {"data/transport", "data/payments", "kit/pubkey", "sandbox/internal/simkit"},
			"config":              {"kit/pubkey"}, "kit/keep": {"kit/words"},
			"ui":       {"data/live", "data/audit", "data/webhook", "config", "ui/route"},
			"ui/table": {"ui/sanitize", "data/figures"},
		},
		imports: map[string][]string{"views/payments": {"data/platform", "data/payments/client"}},
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
