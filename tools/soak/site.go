package main

import (
	"fmt"
	"net"
	"path/filepath"

	"treasury/config"
	"treasury/desk/site"
)

// siteNodes are the three nodes of the soak's site, run by the soak
// itself: the agents are clients of them, so an agent killed or stopped
// takes its process's word that it runs with it, not a replica of the
// record.
type siteNodes struct {
	nodes []*site.Site
	urls  []string
}

const sitePassword = "soak-site-secret"

// startSite starts three embedded nodes on loopback, each keeping the
// record's three replicas.
func startSite(dir string) (*siteNodes, error) {
	addrs := make([]string, 6)
	for i := range addrs {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		addrs[i] = ln.Addr().String()
		ln.Close()
	}
	s := &siteNodes{}
	errs := make(chan error, 3)
	nodes := make([]*site.Site, 3)
	for i := range 3 {
		var routes []string
		for j := range 3 {
			if j != i {
				routes = append(routes, addrs[3+j])
			}
		}
		s.urls = append(s.urls, "nats://"+addrs[i])
		go func() {
			n, err := site.Start(site.Options{Name: "soak", Node: fmt.Sprintf("n%d", i+1), Listen: addrs[i], ClusterListen: addrs[3+i],
				Routes: routes, User: config.DefaultClusterUser, Password: sitePassword, Replicas: 3,
				StoreDir: filepath.Join(dir, fmt.Sprintf("n%d", i+1))})
			nodes[i] = n
			errs <- err
		}()
	}
	for range 3 {
		if err := <-errs; err != nil {
			s.nodes = nodes
			s.close()
			return nil, err
		}
	}
	s.nodes = nodes
	return s, nil
}

// spec is what an agent needs to join the site.
func (s *siteNodes) spec() *siteSpec {
	return &siteSpec{Name: "soak", URLs: s.urls, Password: sitePassword, Replicas: 3}
}

func (s *siteNodes) close() {
	for _, n := range s.nodes {
		if n != nil {
			n.Close()
		}
	}
}
