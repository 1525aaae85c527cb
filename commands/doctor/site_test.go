package doctor

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"treasury/config"
	"treasury/desk/audit"
	"treasury/desk/site"
	"treasury/desk/site/sitetest"
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
	if s.Status() != Warn || len(s.Checks) != 4 || s.Checks[2].Status != Warn || !strings.Contains(s.Checks[2].Detail, "no process of the site polls") {
		t.Fatalf("a site nobody polls: %+v", s.Checks)
	}
	sitetest.Poller(t, node)
	s = p.site(context.Background())
	if s.Status() != OK || len(s.Checks) != 4 || !strings.Contains(s.Checks[1].Detail, "1 line, 1 replica: bastion-a (leader)") ||
		!strings.Contains(s.Checks[2].Detail, "bastion-a polls the platform for the site, since ") ||
		!strings.Contains(s.Checks[3].Detail, "is the site's record (1 line)") {
		t.Fatalf("a one-node site: %+v", s.Checks)
	}
	if err := os.WriteFile(filepath.Join(dir, audit.FileName), []byte(`{"seq":1,"edited":true}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s = p.site(context.Background())
	if s.Status() != Fail || !strings.Contains(s.Checks[3].Detail, "differs from the site's record at seq 1") {
		t.Fatalf("an edited copy: %+v", s.Checks)
	}
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
