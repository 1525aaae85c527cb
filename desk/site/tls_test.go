package site

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"treasury/desk/audit"
	"treasury/kit/testca"
)

// TestASiteWithTLSRefusesAStranger: three nodes with a certificate each,
// signed by the site's CA, and no password, form a site and keep its
// record. A node whose certificate another CA signed is refused on the
// route (neither side keeps a route to it, and it never reaches the
// record), and refused as a client, as is a client with no certificate
// or a certificate of another CA.
func TestASiteWithTLSRefusesAStranger(t *testing.T) {
	sites, ca, caFile, dir := startTLSSite(t, func(int) string { return "" })
	l, err := audit.Open(t.TempDir(), audit.Options{Host: sites[0].Node(), Replica: sites[0].Record()})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if r := appendWhenReady(t, l, attempt("w1")); r.Seq != 1 {
		t.Fatalf("appended as seq %d", r.Seq)
	}
	for _, s := range sites {
		if n := s.ns.NumRoutes(); n < 2 {
			t.Fatalf("%s has %d routes", s.Node(), n)
		}
	}

	// A stranger: a node of another CA, routed to the site's nodes.
	other := testca.New(t, "another CA")
	odir := t.TempDir()
	ocert, okey := other.Issue(t, odir, "stranger", testca.ServerAndClient, "127.0.0.1")
	addrs := freePorts(t, 2)
	stranger, err := Start(Options{Name: "test-site", Node: "stranger", Listen: addrs[0], ClusterListen: addrs[1],
		Routes: []string{sites[0].opts.ClusterListen, sites[1].opts.ClusterListen}, Replicas: 3,
		CAFile: other.File(t, odir, "ca.pem"), CertFile: ocert, KeyFile: okey, StoreDir: filepath.Join(t.TempDir(), "nats")})
	if err != nil {
		t.Fatal(err)
	}
	defer stranger.Close()
	time.Sleep(3 * time.Second) // routes are tried at once, then every second
	if n := stranger.ns.NumRoutes(); n != 0 {
		t.Fatalf("the stranger has %d routes", n)
	}
	for _, s := range sites {
		for _, r := range routesOf(t, s) {
			if r == "stranger" {
				t.Fatalf("%s holds a route to the stranger", s.Node())
			}
		}
	}

	// As a client: no certificate, another CA's, the site's.
	siteAddr := "nats://" + sites[0].opts.Listen
	if nc, err := nats.Connect(siteAddr, nats.RootCAs(caFile), nats.Timeout(2*time.Second)); err == nil {
		nc.Close()
		t.Fatal("a client without a certificate connected")
	}
	if nc, err := nats.Connect(siteAddr, nats.RootCAs(caFile), nats.ClientCert(ocert, okey), nats.Timeout(2*time.Second)); err == nil {
		nc.Close()
		t.Fatal("a client with another CA's certificate connected")
	}
	if nc, err := nats.Connect(siteAddr, nats.Timeout(2*time.Second)); err == nil {
		nc.Close()
		t.Fatal("a client without TLS connected")
	}
	ccert, ckey := ca.Issue(t, dir, "client", testca.ServerAndClient, "127.0.0.1")
	nc, err := nats.Connect(siteAddr, nats.RootCAs(caFile), nats.ClientCert(ccert, ckey), nats.Timeout(2*time.Second))
	if err != nil {
		t.Fatalf("a client of the site's CA: %v", err)
	}
	nc.Close()
}

// startTLSSite starts three nodes with a certificate each, signed by the
// site's CA, node i given password(i) ("" none); it returns them, the CA,
// its file, and the folder of the certificates.
func startTLSSite(t *testing.T, password func(i int) string) ([]*Site, *testca.CA, string, string) {
	t.Helper()
	dir := t.TempDir()
	ca := testca.New(t, "site CA")
	caFile := ca.File(t, dir, "ca.pem")
	sites := startSiteWith(t, 3, func(i int, o *Options) {
		o.Password = password(i)
		o.CAFile = caFile
		o.CertFile, o.KeyFile = ca.Issue(t, dir, o.Node, testca.ServerAndClient, "127.0.0.1")
	})
	return sites, ca, caFile, dir
}

// routesOf names the nodes s holds a route to.
func routesOf(t *testing.T, s *Site) []string {
	t.Helper()
	rz, err := s.ns.Routez(nil)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range rz.Routes {
		out = append(out, r.RemoteName)
	}
	return out
}

// TestTheSiteCertificateIsReadWhole: the node refuses to start with a
// certificate its key does not match, saying so.
func TestTheSiteCertificateIsReadWhole(t *testing.T) {
	dir := t.TempDir()
	ca := testca.New(t, "site CA")
	cert, _ := ca.Issue(t, dir, "a", testca.ServerAndClient, "127.0.0.1")
	_, key := ca.Issue(t, dir, "b", testca.ServerAndClient, "127.0.0.1")
	_, err := Start(Options{Name: "one", Node: "one", Listen: freePorts(t, 1)[0], Replicas: 1, CAFile: ca.File(t, dir, "ca.pem"),
		CertFile: cert, KeyFile: key, StoreDir: filepath.Join(t.TempDir(), "nats")})
	if err == nil {
		t.Fatal("a certificate with another's key started")
	}
}

// TestAPasswordIsCheckedOrRefused: on a site with TLS, a password is
// checked by every node that has one, or refused: a process that gives
// one to a node that checks none (started without it) is refused, at its
// start or when it reaches the node later, saying so; a node that checks
// the site's password refuses a wrong one (authorization) and takes the
// right one (the wrong one is counted, as a client refused); and nodes
// that disagree make the site weak, said as such rather than as refused
// routes.
func TestAPasswordIsCheckedOrRefused(t *testing.T) {
	sites, ca, caFile, dir := startTLSSite(t, func(i int) string { return map[bool]string{true: "site-secret"}[i == 2] })
	ccert, ckey := ca.Issue(t, dir, "client", testca.ServerAndClient, "127.0.0.1")
	client := func(listen, password string) Options {
		return Options{Name: "test-site", Node: "client", Listen: listen, Connect: true, User: "treasury", Password: password,
			CAFile: caFile, CertFile: ccert, KeyFile: ckey, Replicas: 3}
	}
	connected := func(o Options) error {
		s, err := Start(o)
		if err != nil {
			return err
		}
		defer s.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		return s.WaitConnected(ctx)
	}

	// bastion-0 checks no password.
	if err := connected(client(sites[0].opts.Listen, "")); err != nil {
		t.Errorf("no password, to a node that checks none: %v", err)
	}
	err := connected(client(sites[0].opts.Listen, "anything"))
	if !errors.Is(err, ErrPasswordNotChecked) || !strings.Contains(err.Error(), "takes any password") {
		t.Errorf("a password to a node that checks none: %v", err)
	}
	// Reached later: the node was not up when the process started.
	addr := freePorts(t, 1)[0]
	late, err := Start(client(addr, "anything"))
	if err != nil {
		t.Fatal(err)
	}
	defer late.Close()
	lone, err := Start(Options{Name: "lone", Node: "lone", Listen: addr, Replicas: 1, CAFile: caFile,
		CertFile: sites[0].opts.CertFile, KeyFile: sites[0].opts.KeyFile, StoreDir: filepath.Join(t.TempDir(), "nats")})
	if err != nil {
		t.Fatal(err)
	}
	defer lone.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := late.WaitConnected(ctx); !errors.Is(err, ErrPasswordNotChecked) {
		t.Errorf("a password to a node reached later that checks none: %v", err)
	}

	// bastion-2 checks the site's password.
	if err := connected(client(sites[2].opts.Listen, "not-the-sites")); err == nil || !strings.Contains(err.Error(), "authorization") {
		t.Errorf("a wrong password, to a node that checks it: %v", err)
	}
	if err := connected(client(sites[2].opts.Listen, "site-secret")); err != nil {
		t.Errorf("the site's password, to a node that checks it: %v", err)
	}

	for _, s := range sites {
		w := weakWithin(t, s, 15*time.Second, "the nodes that disagree named", func(w []Weakness) bool {
			return titled(w, "bastion-2 checks the site's password and bastion-0, bastion-1 do not")
		})
		for _, x := range w {
			if strings.HasPrefix(x.Key, "site:refused:") {
				t.Errorf("%s: a refused route besides: %+v", s.Node(), x)
			}
		}
	}
}
