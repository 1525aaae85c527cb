package config

import (
	"strings"
	"testing"
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
