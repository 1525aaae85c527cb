package config

import (
	"strings"
	"testing"

	"treasury/kit/testca"
)

func clusterYAML(body string) string {
	return "profile: site\nprofiles:\n  site:\n    environment: sandbox\n    embedded_sandbox: {}\n    cluster:\n" + body
}

// TestClusterSection: an embedded node of a three-bastion site, and an
// existing cluster, resolve with their defaults; every mistake is said at
// its key.
func TestClusterSection(t *testing.T) {
	cfg, _, err := Parse("test.yaml", []byte(clusterYAML(`      listen: 127.0.0.1:4222
      cluster_listen: 10.0.0.1:6222
      routes: [10.0.0.2:6222, 10.0.0.3:6222]
      password_env: SITE_PASSWORD
`)), "", func(k string) string { return map[string]string{"SITE_PASSWORD": "pw"}[k] })
	if err != nil {
		t.Fatal(err)
	}
	c := cfg.Cluster
	if c == nil || !c.Embedded() || c.Name != DefaultClusterName || c.Replicas != 3 || c.Password.Reveal() != "pw" || len(c.Routes) != 2 {
		t.Fatalf("embedded node: %+v", c)
	}
	cfg, _, err = Parse("test.yaml", []byte(clusterYAML(`      urls: [nats://n1:4222, nats://n2:4222]
      password_env: SITE_PASSWORD
`)), "", func(string) string { return "pw" })
	if err != nil || cfg.Cluster.Embedded() || cfg.Cluster.Replicas != 3 {
		t.Fatalf("existing cluster: %+v %v", cfg.Cluster, err)
	}
	for _, tc := range []struct{ body, want string }{
		{"      listen: 127.0.0.1:4222\n", "cluster.password_env"},
		{"      password: x\n", "give listen"},
		{"      listen: 127.0.0.1:4222\n      urls: [nats://n:4222]\n      password: x\n", "not both"},
		{"      listen: 127.0.0.1\n      password: x\n", "cluster.listen: must be host:port"},
		{"      listen: 127.0.0.1:4222\n      routes: [b:6222]\n      password: x\n", "routes need cluster_listen"},
		{"      listen: 127.0.0.1:4222\n      cluster_listen: a:6222\n      routes: [b]\n      password: x\n", "cluster.routes[0]: must be host:port"},
		{"      listen: 127.0.0.1:4222\n      replicas: 3\n      password: x\n", "3 replicas on a site of 1 nodes"},
		{"      urls: [http://n:4222]\n      password: x\n", "cluster.urls[0]: must be a nats://"},
		{"      listen: 127.0.0.1:4222\n      pasword: x\n", "pasword"},
	} {
		_, err := loadYAML(t, clusterYAML(tc.body))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.body, err, tc.want)
		}
	}
}

// TestClusterTLS: a site with TLS needs no password; its three files go
// together, the CA must have signed the certificate, the certificate
// must serve and connect and name the listen address; each mistake is
// said at its key. Routes leaving the host without TLS are warned of.
func TestClusterTLS(t *testing.T) {
	dir := t.TempDir()
	ca := testca.New(t, "site CA")
	caFile := ca.File(t, dir, "ca.pem")
	cert, key := ca.Issue(t, dir, "b1", testca.ServerAndClient, "127.0.0.1", "b1.example")
	tlsKeys := "      ca_file: " + caFile + "\n      cert_file: " + cert + "\n      key_file: " + key + "\n"
	cfg, _, err := Parse("test.yaml", []byte(clusterYAML("      listen: 127.0.0.1:4222\n      cluster_listen: 10.0.0.1:6222\n      routes: [10.0.0.2:6222]\n"+tlsKeys)),
		"", func(string) string { return "" })
	if err != nil || !cfg.Cluster.TLS() || cfg.Cluster.CertFile != cert || cfg.Cluster.Password.Reveal() != "" {
		t.Fatalf("a site with TLS: %+v %v", cfg.Cluster, err)
	}
	other := testca.New(t, "another CA")
	strange, strangeKey := other.Issue(t, dir, "stranger", testca.ServerAndClient, "127.0.0.1")
	serverOnly, serverOnlyKey := ca.Issue(t, dir, "server", testca.ServerOnly, "127.0.0.1")
	elsewhere, elsewhereKey := ca.Issue(t, dir, "elsewhere", testca.ServerAndClient, "10.9.9.9")
	files := func(c, k string) string {
		return "      ca_file: " + caFile + "\n      cert_file: " + c + "\n      key_file: " + k + "\n"
	}
	for _, tc := range []struct{ body, want string }{
		{"      listen: 127.0.0.1:4222\n      ca_file: " + caFile + "\n", "cluster.cert_file"},
		{"      listen: 127.0.0.1:4222\n" + files(strange, strangeKey), "cluster.cert_file: " + strange + " cannot serve"},
		{"      listen: 127.0.0.1:4222\n" + files(serverOnly, serverOnlyKey), "cannot connect (client authentication)"},
		{"      listen: 127.0.0.1:4222\n" + files(elsewhere, elsewhereKey), "does not name 127.0.0.1"},
		{"      listen: 127.0.0.1:4222\n" + files(cert, strangeKey), "cluster.cert_file"},
		{"      listen: 127.0.0.1:4222\n      ca_file: " + cert + "x\n      cert_file: " + cert + "\n      key_file: " + key + "\n", "cluster.ca_file: cannot read"},
	} {
		_, err := loadYAML(t, clusterYAML(tc.body))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.body, err, tc.want)
		}
	}
	_, warns, err := Parse("test.yaml", []byte(clusterYAML("      listen: 127.0.0.1:4222\n      cluster_listen: 10.0.0.1:6222\n      routes: [10.0.0.2:6222]\n      password_env: P\n")),
		"", func(string) string { return "pw" })
	if err != nil || len(warns) != 1 || !strings.Contains(warns[0].Msg, "without TLS") {
		t.Fatalf("routes in clear: %v %v", warns, err)
	}
	_, warns, err = Parse("test.yaml", []byte(clusterYAML("      listen: 127.0.0.1:4222\n      cluster_listen: 127.0.0.1:6222\n      routes: [127.0.0.1:6223]\n      password_env: P\n")),
		"", func(string) string { return "pw" })
	if err != nil || len(warns) != 0 {
		t.Fatalf("a site on one host: %v %v", warns, err)
	}
}
