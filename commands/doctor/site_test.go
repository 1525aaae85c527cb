package doctor

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"treasury/config"
	"treasury/desk/audit"
	"treasury/desk/site"
	"treasury/desk/site/sitetest"
	"treasury/kit/testca"
)

// The site section: no node answering fails with what to do; with this
// host's node up (as serve runs it), the record's replicas and this
// host's copy are checked, the process that polls for the site is named
// (a warning while none does), and a copy that differs fails.
func TestSiteSection(t *testing.T) {
	addr := sitetest.FreeAddrs(t, 1)[0]
	dir := t.TempDir()
	cfg := &config.Config{Cluster: &config.Cluster{Name: "test", Node: "bastion-a", Listen: addr, Replicas: 1,
		Password: config.NewSecret(sitetest.Password)}}
	p := &prober{cfg: cfg, o: Options{StateDir: dir}.withDefaults()}
	p.o.Timeout = 500e6
	s := p.site(context.Background())
	if s.Status() != Fail || s.Checks[0].Name != "connect" || !strings.Contains(s.Checks[0].Guidance, "treasury serve runs this host's node") {
		t.Fatalf("no node: %+v", s.Checks)
	}
	node := sitetest.NodeAt(t, "bastion-a", addr)
	log, err := audit.Open(dir, audit.Options{Replica: node.Record()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := log.Append(audit.Record{Action: "sweep", Target: audit.Target{Kind: "sweep", ID: "s1"}, Outcome: audit.OutcomeAttempt, MutationID: "k1"}); err != nil {
		t.Fatal(err)
	}
	log.Close()
	p.o.Timeout = DefaultTimeout
	s = p.site(context.Background())
	if s.Status() != Warn || len(s.Checks) != 5 || named(s, "poller").Status != Warn || !strings.Contains(named(s, "poller").Detail, "no process of the site polls") {
		t.Fatalf("a site nobody polls: %+v", s.Checks)
	}
	sitetest.Poller(t, node)
	s = p.site(context.Background())
	if s.Status() != OK || len(s.Checks) != 5 || !strings.Contains(named(s, "record").Detail, "1 line, 1 replica: bastion-a (leader)") ||
		!strings.Contains(named(s, "node").Detail, "bastion-a: up since ") ||
		!strings.Contains(named(s, "node").Detail, "; this doctor's connection is on it; leads the record") ||
		!strings.Contains(named(s, "poller").Detail, "bastion-a polls the platform for the site, since ") ||
		!strings.Contains(named(s, "copy").Detail, "is the site's record (1 line)") {
		t.Fatalf("a one-node site: %+v", s.Checks)
	}
	if err := os.WriteFile(filepath.Join(dir, audit.FileName), []byte(`{"seq":1,"edited":true}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s = p.site(context.Background())
	if s.Status() != Fail || !strings.Contains(named(s, "copy").Detail, "differs from the site's record at seq 1") {
		t.Fatalf("an edited copy: %+v", s.Checks)
	}
}

// named is the first check of s named name (a zero check when none is).
func named(s Section, name string) Check {
	for _, c := range s.Checks {
		if c.Name == name {
			return c
		}
	}
	return Check{}
}

// nodeLines are the details of s's node checks, by status.
func nodeLines(s Section) []string {
	var out []string
	for _, c := range s.Checks {
		if c.Name == "node" {
			out = append(out, c.Status.String()+" "+c.Detail)
		}
	}
	return out
}

// TestSiteSectionSaysAuthorization: on a bastion whose site password is
// not the others', doctor says the record cannot be made because the
// nodes refuse one another for their credentials (authorization), and
// names the node refused, not "JetStream temporarily unavailable" alone.
func TestSiteSectionSaysAuthorization(t *testing.T) {
	var listen string
	sitetest.Nodes(t, 3, func(i int, o *site.Options) {
		if i == 2 {
			o.Password, listen = "not-the-sites", o.Listen
		}
	})
	cfg := &config.Config{Cluster: &config.Cluster{Name: "test-site", Node: "node-2", Listen: listen, Replicas: 3,
		Password: config.NewSecret("not-the-sites")}}
	p := &prober{cfg: cfg, o: Options{}.withDefaults()}
	var s Section
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(500 * time.Millisecond) {
		s = p.site(context.Background())
		if strings.Contains(fmt.Sprint(s.Checks), "authorization") || time.Now().After(deadline) {
			break
		}
	}
	for _, c := range s.Checks {
		t.Logf("%s %s: %s (%s)", c.Status, c.Name, c.Detail, c.Guidance)
	}
	var refused *Check
	for i, c := range s.Checks {
		if c.Name == "refused" {
			refused = &s.Checks[i]
		}
	}
	if s.Status() != Fail || s.Checks[1].Name != "record" || !strings.Contains(s.Checks[1].Guidance, "authorization") ||
		refused == nil || refused.Status != Fail || !strings.Contains(refused.Detail, "node-2 is refused by the site for its credentials (authorization)") {
		t.Fatalf("a node with another password: %+v", s.Checks)
	}
}

// A node that runs but refuses the profile's password: the doctor says
// authorization, not that no node answers.
func TestSiteConnectSaysAuthorization(t *testing.T) {
	listen := sitetest.FreeAddrs(t, 1)[0]
	sitetest.NodeAt(t, "test-site", listen)
	cfg := &config.Config{Cluster: &config.Cluster{Name: "test-site", Node: "node-0", Listen: listen, Replicas: 1,
		Password: config.NewSecret("not-the-sites")}}
	o := Options{}.withDefaults()
	o.Timeout = 3 * time.Second
	p := &prober{cfg: cfg, o: o}
	s := p.site(context.Background())
	if len(s.Checks) == 0 || s.Checks[0].Name != "connect" || s.Checks[0].Status != Fail ||
		!strings.Contains(s.Checks[0].Detail, "(authorization") || !strings.Contains(s.Checks[0].Guidance, "credentials") {
		t.Fatalf("a wrong password: %+v", s.Checks)
	}
}

// TestSiteSectionListsTheNodes: on a site of three, the section lists
// each node with its route address, since when it is up, the nodes its
// routes reach, which one this doctor's connection is on, and how its
// copy of the record stands; with one stopped, that node is a warning
// (it does not answer) and so are the others' routes that miss it.
func TestSiteSectionListsTheNodes(t *testing.T) {
	listens, routes := make([]string, 3), make([]string, 3)
	sites := sitetest.Nodes(t, 3, func(i int, o *site.Options) { listens[i], routes[i] = o.Listen, o.ClusterListen })
	cfg := &config.Config{Cluster: &config.Cluster{Name: "test-site", Node: "node-0", Listen: listens[0], ClusterListen: routes[0],
		Routes: routes[1:], Replicas: 3, Password: config.NewSecret(sitetest.Password)}}
	p := &prober{cfg: cfg, o: Options{Timeout: 2 * time.Second}.withDefaults()}
	until := func(what string, ok func(Section) bool) Section {
		t.Helper()
		var s Section
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(200 * time.Millisecond) {
			if s = p.site(context.Background()); ok(s) {
				return s
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: %q", what, nodeLines(s))
			}
		}
	}
	s := until("every node up and current", func(s Section) bool {
		lines := nodeLines(s)
		if len(lines) != 3 || named(s, "record").Status != OK {
			return false
		}
		for _, l := range lines {
			if !strings.HasPrefix(l, "ok ") {
				return false
			}
		}
		return true
	})
	lines := nodeLines(s)
	for _, w := range []struct {
		i    int
		want string
	}{
		{0, "ok node-0 at " + routes[0] + ": up since "},
		{0, "; routes to node-1, node-2; this doctor's connection is on it; "},
		{1, "ok node-1 at " + routes[1] + ": up since "},
		{1, "; routes to node-0, node-2; "},
		{2, "ok node-2 at " + routes[2] + ": up since "},
	} {
		if !strings.Contains(lines[w.i], w.want) {
			t.Errorf("node line %q lacks %q", lines[w.i], w.want)
		}
	}
	all := strings.Join(lines, "\n")
	if strings.Count(all, "; leads the record") != 1 || strings.Count(all, "; its copy of the record is current") != 2 {
		t.Errorf("the record's leader and current copies not said: %q", lines)
	}

	sites[2].Close()
	s = until("the stopped node said", func(s Section) bool {
		return slices.ContainsFunc(nodeLines(s), func(l string) bool { return strings.HasPrefix(l, "warn node-2 at "+routes[2]+": does not answer") })
	})
	lines = nodeLines(s)
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "warn node-0 at "+routes[0]) || !strings.Contains(lines[0], "routes to node-1 only (1 of 2)") {
		t.Errorf("node-0, its route to node-2 lost: %q", lines)
	}
	// What that costs the site is said after the section's other checks
	// (it used to be dropped whenever the record answered).
	s = until("what the stopped node costs said", func(s Section) bool {
		return strings.Contains(named(s, "weak").Detail, "node-2 offline: the site cannot lose another node")
	})
	if last := s.Checks[len(s.Checks)-1]; last.Name != "weak" || last.Status != Warn {
		t.Errorf("the weak check is not last: %+v", s.Checks)
	}
}

// TestSiteSectionSaysAPasswordNothingChecks: a profile that gives a
// password to a node of a TLS site that checks none fails its connect
// check, saying so and what to do, where it used to pass unseen.
func TestSiteSectionSaysAPasswordNothingChecks(t *testing.T) {
	dir := t.TempDir()
	ca := testca.New(t, "site CA")
	caFile := ca.File(t, dir, "ca.pem")
	cert, key := ca.Issue(t, dir, "node-0", testca.ServerAndClient, "127.0.0.1")
	listen := sitetest.FreeAddrs(t, 1)[0]
	node, err := site.Start(site.Options{Name: "test-site", Node: "node-0", Listen: listen, Replicas: 1,
		CAFile: caFile, CertFile: cert, KeyFile: key, StoreDir: filepath.Join(t.TempDir(), "nats")})
	if err != nil {
		t.Fatal(err)
	}
	defer node.Close()
	cfg := &config.Config{Cluster: &config.Cluster{Name: "test-site", Node: "node-0", Listen: listen, Replicas: 1,
		CAFile: caFile, CertFile: cert, KeyFile: key, Password: config.NewSecret("anything")}}
	p := &prober{cfg: cfg, o: Options{}.withDefaults()}
	s := p.site(context.Background())
	c := named(s, "connect")
	if c.Status != Fail || !strings.Contains(c.Detail, "takes any password") || !strings.Contains(c.Guidance, "that node checks none") {
		t.Fatalf("a password nothing checks: %+v", s.Checks)
	}
	cfg.Cluster.Password = config.Secret{}
	if s := p.site(context.Background()); named(s, "connect").Status != OK ||
		!strings.Contains(named(s, "node").Detail, "checks certificates only") {
		t.Fatalf("no password, certificates only: %+v", s.Checks)
	}
}

// TestNodeChecksCountRoutesNotAddresses: nodes that name their route
// address otherwise than this node's routes do (cluster_listen on
// 0.0.0.0) are not taken for nodes that do not answer; a node that does
// not answer is counted, and named by its route when that is certain.
func TestNodeChecksCountRoutesNotAddresses(t *testing.T) {
	c := &config.Cluster{Listen: "127.0.0.1:4222", ClusterListen: "0.0.0.0:6222", Routes: []string{"10.0.0.2:6222", "10.0.0.3:6222"}}
	up := func(name string) site.NodeState {
		return site.NodeState{Node: name, Route: "0.0.0.0:6222", Routes: 2, Peers: []string{"x", "y"}, JetStream: true}
	}
	lines := func(cs []Check) []string { return nodeLines(Section{Checks: cs}) }
	if got := lines(nodeChecks(c, site.Health{}, false, []site.NodeState{up("b1"), up("b2"), up("b3")}, "b1")); len(got) != 3 {
		t.Errorf("every node up: %q", got)
	}
	got := lines(nodeChecks(c, site.Health{}, false, []site.NodeState{up("b1"), up("b2")}, "b1"))
	if len(got) != 3 || got[2] != "warn 1 node of the site's 3 does not answer" {
		t.Errorf("one node unheard, its route not certain: %q", got)
	}
	c.ClusterListen, c.Routes = "10.0.0.1:6222", []string{"10.0.0.2:6222", "10.0.0.3:6222"}
	b2 := up("b2")
	b2.Route = "10.0.0.2:6222"
	h := site.Health{Leader: "b1", Lines: 4, Replicas: []site.Replica{{Node: "b2", Current: true}, {Node: "b3", Offline: true}}}
	got = lines(nodeChecks(c, h, true, []site.NodeState{up("b1"), b2}, "b1"))
	if len(got) != 3 || got[2] != "warn b3 at 10.0.0.3:6222: does not answer; its copy of the record is offline" {
		t.Errorf("a node the record names, down: %q", got)
	}
}
