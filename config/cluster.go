package config

import (
	"fmt"
	"net"
	"strings"
)

// Cluster configures a site (cluster:): the bastions that share one
// record of actions (and, as the site grows, one poller and one alert
// state) through NATS JetStream. Either this host runs an embedded NATS
// node (Listen, with ClusterListen and Routes to the other bastions), or
// it connects to an existing NATS cluster (URLs). Without it, a process
// keeps its record in its state directory alone.
type Cluster struct {
	// Name is the NATS cluster's name (every node of a site gives the
	// same); DefaultClusterName when not given.
	Name string
	// Node names this node (default: the host name).
	Node string
	// Listen is the embedded node's client address (host:port): this
	// host's processes (serve, the local dashboard, audit) connect there.
	Listen string
	// ClusterListen is the embedded node's route address (host:port),
	// which the other bastions' Routes name; empty: a one-host site.
	ClusterListen string
	// Routes are the other nodes' route addresses (host:port).
	Routes []string
	// URLs are an existing NATS cluster's client URLs, instead of an
	// embedded node.
	URLs []string
	// Password is what every client and route of the site authenticates
	// with (user DefaultClusterUser): nothing connects without it. With
	// TLS it may be left out (the certificates authenticate); without, it
	// is required: the fallback of a site on one host.
	Password Secret
	// CAFile, CertFile and KeyFile, given together, put TLS on every
	// route and client of the site: each side shows a certificate the
	// site's CA (CAFile) signed, and refuses one it did not (mutual
	// authentication). CertFile is this node's (or this host's client's),
	// for server and client authentication, naming the addresses the
	// others reach it at.
	CAFile, CertFile, KeyFile string
	// Replicas is how many nodes keep the site's record (default: the
	// embedded site's nodes, at most 3; 3 on an existing cluster).
	Replicas int
	// StoreDir is where the embedded node keeps its streams (default: the
	// state directory's nats/).
	StoreDir string
}

// DefaultClusterName names a site that names none; DefaultClusterUser is
// the user its password is given for.
const (
	DefaultClusterName = "treasury"
	DefaultClusterUser = "treasury"
)

// Embedded reports whether this host runs a node of the site.
func (c *Cluster) Embedded() bool { return c.Listen != "" }

// TLS reports whether the site's routes and clients use TLS.
func (c *Cluster) TLS() bool { return c.CAFile != "" }

type rawCluster struct {
	Name          string   `yaml:"name,omitempty"`
	Node          string   `yaml:"node,omitempty"`
	Listen        string   `yaml:"listen,omitempty"`
	ClusterListen string   `yaml:"cluster_listen,omitempty"`
	Routes        []string `yaml:"routes,omitempty"`
	URLs          []string `yaml:"urls,omitempty"`
	Password      string   `yaml:"password,omitempty"`
	PasswordEnv   string   `yaml:"password_env,omitempty"`
	PasswordFile  string   `yaml:"password_file,omitempty"`
	Replicas      int      `yaml:"replicas,omitempty"`
	StoreDir      string   `yaml:"store_dir,omitempty"`
	CAFile        string   `yaml:"ca_file,omitempty"`
	CertFile      string   `yaml:"cert_file,omitempty"`
	KeyFile       string   `yaml:"key_file,omitempty"`
}

// cluster resolves the cluster: section.
func (r *resolver) cluster(s string, p *rawCluster) *Cluster {
	if p == nil {
		return nil
	}
	c := &Cluster{Name: p.Name, Node: p.Node, Listen: p.Listen, ClusterListen: p.ClusterListen,
		Routes: p.Routes, URLs: p.URLs, Replicas: p.Replicas, StoreDir: r.path(p.StoreDir)}
	if c.Name == "" {
		c.Name = DefaultClusterName
	}
	tlsOn := p.CAFile != "" || p.CertFile != "" || p.KeyFile != ""
	c.Password = r.secret(s, "password", p.Password, p.PasswordEnv, p.PasswordFile, !tlsOn)
	if tlsOn {
		r.clusterTLS(s, p, c)
	}
	switch {
	case c.Listen == "" && len(c.URLs) == 0:
		r.d.at(s, "give listen (this host runs a node of the site) or urls (an existing NATS cluster)")
	case c.Listen != "" && len(c.URLs) > 0:
		r.d.at(joinKey(s, "urls"), "give listen or urls, not both")
	case c.Listen == "" && (c.ClusterListen != "" || len(c.Routes) > 0):
		r.d.at(joinKey(s, "cluster_listen"), "cluster_listen and routes belong to an embedded node: give listen too")
	case c.ClusterListen == "" && len(c.Routes) > 0:
		r.d.at(joinKey(s, "routes"), "routes need cluster_listen: the address the other nodes route to")
	}
	r.hostPort(joinKey(s, "listen"), c.Listen)
	r.hostPort(joinKey(s, "cluster_listen"), c.ClusterListen)
	for i, rt := range c.Routes {
		r.hostPort(fmt.Sprintf("%s[%d]", joinKey(s, "routes"), i), rt)
	}
	for i, u := range c.URLs {
		if !strings.HasPrefix(u, "nats://") && !strings.HasPrefix(u, "tls://") {
			r.d.at(fmt.Sprintf("%s[%d]", joinKey(s, "urls"), i), "must be a nats:// or tls:// URL, not %q", u)
		}
	}
	if !tlsOn && c.Password.Reveal() != "" {
		r.clearRoutes(s, c)
	}
	nodes := 1 + len(c.Routes)
	switch {
	case c.Replicas == 0 && c.Embedded():
		c.Replicas = min(nodes, 3)
	case c.Replicas == 0:
		c.Replicas = 3
	case c.Replicas < 1 || c.Replicas > 5:
		r.d.at(joinKey(s, "replicas"), "must be 1 to 5")
	case c.Embedded() && c.Replicas > nodes:
		r.d.at(joinKey(s, "replicas"), "%d replicas on a site of %d nodes (this one and its routes)", c.Replicas, nodes)
	}
	return c
}

// hostPort checks an address given as host:port (none: nothing to check).
func (r *resolver) hostPort(key, v string) {
	if v == "" {
		return
	}
	if _, port, err := net.SplitHostPort(v); err != nil || port == "" {
		r.d.at(key, "must be host:port, not %q", v)
	}
}
