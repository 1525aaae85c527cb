package process

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"treasury/config"
	"treasury/desk/site"
)

// OpenSite joins the site the profile configures (cluster:), or returns
// nil without one. `treasury serve` runs this host's node of the site
// (runsNode), or connects to an existing cluster; every other command
// connects to the node serve runs on this host, or to the cluster. A
// site that cannot be reached does not stop the process: what needs it
// (an action's record) is refused with the reason until it can.
func OpenSite(stateDir string, cfg *config.Config, runsNode bool, log *slog.Logger) (*site.Site, error) {
	c := cfg.Cluster
	if c == nil {
		return nil, nil
	}
	node := c.Node
	if node == "" {
		node, _ = os.Hostname()
	}
	store := c.StoreDir
	if store == "" {
		store = filepath.Join(stateDir, "nats")
	}
	s, err := site.Start(site.Options{Name: c.Name, Node: node, Listen: c.Listen, ClusterListen: c.ClusterListen,
		Routes: c.Routes, URLs: c.URLs, User: config.DefaultClusterUser, Password: c.Password.Reveal(),
		CAFile: c.CAFile, CertFile: c.CertFile, KeyFile: c.KeyFile,
		Replicas: c.Replicas, StoreDir: store, Connect: !runsNode, Log: log})
	if err != nil {
		return nil, fmt.Errorf("the site (cluster:): %w", err)
	}
	return s, nil
}

// openSite joins the site for the runtime (Site), before the audit log
// opens on its record.
func (r *Runtime) openSite(ctx context.Context, cmd string) error {
	s, err := OpenSite(r.StateDir, r.Config, cmd == "serve", r.Log)
	if err != nil || s == nil {
		return err
	}
	r.Site = s
	r.closers = append(r.closers, s.Close)
	if st := r.Platform.Store; st != nil && r.Sandbox == nil {
		// One poller for the site: serve competes for the lease, every
		// other process (a local dashboard) follows it.
		pl, err := s.SharePolls(st, cmd == "serve")
		if err != nil {
			return err
		}
		r.Polling = pl
		r.closers = append(r.closers, pl.Stop)
		// The platform's past the poller reads back reaches every
		// bastion's history.
		r.Platform.SharePastWith(s)
	}
	if r.Platform.Store != nil {
		r.closers = append(r.closers, r.watchSite(ctx))
	}
	stop, err := r.Alerts.shareWith(s, s.Node())
	if err != nil {
		return err
	}
	r.closers = append(r.closers, stop)
	return nil
}
