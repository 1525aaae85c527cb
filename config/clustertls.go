package config

import (
	"crypto/tls"
	"crypto/x509"
	"net"
	"os"
	"strings"
)

// clusterTLS checks the site's TLS files (ca_file, cert_file,
// key_file, all three): the CA parses, the certificate and key are a
// pair, the CA signed the certificate, it may serve and connect (a node
// does both: routes authenticate each way), and it names the address
// this host's processes connect to (listen).
func (r *resolver) clusterTLS(s string, p *rawCluster, c *Cluster) {
	for key, v := range map[string]string{"ca_file": p.CAFile, "cert_file": p.CertFile, "key_file": p.KeyFile} {
		r.requiredIn(s, key, v)
	}
	if p.CAFile == "" || p.CertFile == "" || p.KeyFile == "" {
		return
	}
	c.CAFile, c.CertFile, c.KeyFile = r.path(p.CAFile), r.path(p.CertFile), r.path(p.KeyFile)
	caKey, certKey, keyKey := joinKey(s, "ca_file"), joinKey(s, "cert_file"), joinKey(s, "key_file")
	raw, err := os.ReadFile(c.CAFile)
	if err != nil {
		r.d.at(caKey, "cannot read %s: %v", c.CAFile, unwrapPathErr(err))
		return
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(raw) {
		r.d.at(caKey, "%s holds no PEM certificate", c.CAFile)
		return
	}
	if _, ok := r.readPrivate(keyKey, p.KeyFile); !ok {
		return
	}
	pair, err := tls.LoadX509KeyPair(c.CertFile, c.KeyFile)
	if err != nil {
		r.d.at(certKey, "%s with %s: %v", c.CertFile, c.KeyFile, unwrapPathErr(err))
		return
	}
	leaf, err := x509.ParseCertificate(pair.Certificate[0])
	if err != nil {
		r.d.at(certKey, "%s: %v", c.CertFile, err)
		return
	}
	for _, u := range []struct {
		usage x509.ExtKeyUsage
		what  string
	}{{x509.ExtKeyUsageServerAuth, "serve (server authentication)"}, {x509.ExtKeyUsageClientAuth, "connect (client authentication)"}} {
		if _, err := leaf.Verify(x509.VerifyOptions{Roots: pool, KeyUsages: []x509.ExtKeyUsage{u.usage}}); err != nil {
			r.d.at(certKey, "%s cannot %s under %s: %v", c.CertFile, u.what, c.CAFile, err)
			return
		}
	}
	if host, _, err := net.SplitHostPort(c.Listen); err == nil && named(host) {
		if err := leaf.VerifyHostname(host); err != nil {
			r.d.at(certKey, "%s does not name %s, where this host's processes connect (listen): %v", c.CertFile, host, err)
		}
	}
}

// named reports whether host is one address, not every address (empty,
// 0.0.0.0, ::).
func named(host string) bool {
	if host == "" {
		return false
	}
	ip := net.ParseIP(host)
	return ip == nil || !ip.IsUnspecified()
}

// clearRoutes warns that a site's routes leave this host without TLS:
// the password, and the record, cross the network in clear.
func (r *resolver) clearRoutes(s string, c *Cluster) {
	addrs := append([]string{c.ClusterListen}, c.Routes...)
	addrs = append(addrs, c.URLs...)
	for _, a := range addrs {
		if strings.HasPrefix(a, "tls://") {
			continue // TLS by the system's roots
		}
		host := a
		if h, _, err := net.SplitHostPort(trimScheme(a)); err == nil {
			host = h
		}
		if a == "" || host == "localhost" {
			continue
		}
		if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
			continue
		}
		r.warn(s, "the site reaches %s without TLS: the password and the record cross the network in clear; "+
			"give ca_file, cert_file and key_file (a certificate per node, signed by the site's CA)", a)
		return
	}
}

func trimScheme(u string) string { return strings.TrimPrefix(u, "nats://") }
