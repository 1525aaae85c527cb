package doctor

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"treasury/desk/audit"
	"treasury/desk/site"
	"treasury/kit/words"
	"treasury/process"
	"treasury/ui/sanitize"
)

// site checks the site the profile configures (cluster:): that a node
// answers, how the site's record stands on its replicas (leader, nodes
// current or behind, offline), each node (up, its routes, its copy of
// the record: nodeChecks), and that this host's copy of the record is
// the site's.
func (p *prober) site(ctx context.Context) (s Section) {
	c := p.cfg.Cluster
	s = Section{Name: "site", Target: c.Listen}
	if !c.Embedded() {
		s.Target = fmt.Sprint(c.URLs)
	}
	st, err := process.OpenSite(p.o.StateDir, p.cfg, false, nil)
	if err != nil {
		s.Checks = append(s.Checks, Check{Name: "connect", Status: Fail, Detail: err.Error(), Guidance: passwordGuidance(err)})
		return s
	}
	defer st.Close()
	ctx, cancel := context.WithTimeout(ctx, p.o.Timeout)
	defer cancel()
	if err := st.WaitConnected(ctx); err != nil {
		g := "Check the cluster's urls and that its nodes run."
		if c.Embedded() {
			g = "treasury serve runs this host's node of the site: is it running with this profile?"
		}
		if strings.Contains(err.Error(), "(authorization") {
			g = "The node runs but refuses this profile's credentials: cluster.password_file (or cert_file, key_file and ca_file) must be the site's."
		}
		if pg := passwordGuidance(err); pg != "" {
			g = pg
		}
		s.Checks = append(s.Checks, Check{Name: "connect", Status: Fail, Detail: err.Error(), Guidance: g})
		return s
	}
	h, err := st.Health(ctx)
	s.Checks = append(s.Checks, Check{Name: "connect", Status: OK, Detail: "connected to node " + h.Connected})
	weak := weakChecks(ctx, st) // asks every node how it stands
	nodes := nodeChecks(c, h, err == nil, st.Nodes(), st.Node())
	if err != nil {
		g := fmt.Sprintf("The site's record needs %d nodes up (replicas): every action is refused until it can be appended.", c.Replicas)
		for _, w := range weak {
			if w.Name == "refused" {
				g = "The site's nodes refuse one another for their credentials (authorization), below: its record cannot be made until they take them."
			}
		}
		s.Checks = append(s.Checks, Check{Name: "record", Status: Fail, Detail: err.Error(), Guidance: g})
		s.Checks = append(append(s.Checks, nodes...), weak...)
		return s
	}
	defer func() { s.Checks = append(s.Checks, weak...) }() // after every return below: s is the result
	rec := Check{Name: "record", Status: OK, Detail: fmt.Sprintf("%s, %s: %s", words.Count(int(h.Lines), "line"), words.Count(h.Want, "replica"), h.Nodes())}
	if !h.Healthy() {
		rec.Status = Warn
		rec.Guidance = "A replica is offline or behind: the record holds while most replicas are current; bring the node back."
	}
	s.Checks = append(append(s.Checks, rec), nodes...)
	s.Checks = append(s.Checks, pollerCheck(ctx, st))
	if p.o.StateDir == "" {
		return s
	}
	cmp, err := audit.Compare(ctx, filepath.Join(p.o.StateDir, audit.FileName), st.Record())
	switch {
	case err != nil:
		s.Checks = append(s.Checks, Check{Name: "copy", Status: Fail, Detail: err.Error()})
	case cmp.Same():
		s.Checks = append(s.Checks, Check{Name: "copy", Status: OK, Detail: fmt.Sprintf("this host's audit log is the site's record (%s)", words.Count(int(cmp.Local), "line"))})
	case cmp.Differ != 0:
		s.Checks = append(s.Checks, Check{Name: "copy", Status: Fail, Detail: fmt.Sprintf("this host's audit log differs from the site's record at seq %d", cmp.Differ),
			Guidance: "Every action on this host is refused: move its audit log aside (kept for the inquiry) and start again to copy the site's."})
	case cmp.Local < cmp.Site:
		s.Checks = append(s.Checks, Check{Name: "copy", Status: OK, Detail: fmt.Sprintf("this host's audit log holds the first %d of the record's %d lines: it copies the rest at its next read", cmp.Local, cmp.Site)})
	default:
		s.Checks = append(s.Checks, Check{Name: "copy", Status: Warn, Detail: fmt.Sprintf("this host's audit log holds %d lines the site's record lacks", cmp.Local-cmp.Site),
			Guidance: "A process of this host puts them to the site when it joins; until then they are this host's alone."})
	}
	return s
}

// passwordGuidance is what to do when this process was refused for
// giving a password to a node that checks none ("" for another error).
func passwordGuidance(err error) string {
	if !errors.Is(err, site.ErrPasswordNotChecked) {
		return ""
	}
	return "This profile gives the site a password (cluster.password_file) and that node checks none: a password nothing checks " +
		"protects nothing. Give the same password to every node of the site (each bastion's profile, then restart its treasury serve), " +
		"or remove it from this profile: with TLS, the certificates authenticate."
}

// nodesWait is how long doctor waits for the site's nodes to say how
// they stand (each answers at once; one cut off from this node does not).
const nodesWait = time.Second

// weakWait bounds reading the record's replicas for site.Weak.
const weakWait = 2 * time.Second

// weakChecks asks every node how it stands and says each condition that
// makes the site weak (site.Weak): a node refused for its credentials
// (authorization), one behind, offline or with JetStream off. The
// site forming, which the record's check says, is left out.
func weakChecks(ctx context.Context, st *site.Site) []Check {
	// Its own time: the record's check may have spent the section's
	// waiting for a site that cannot form.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), nodesWait+weakWait)
	defer cancel()
	_, _ = st.AskNodes(ctx, nodesWait)
	var out []Check
	for _, w := range st.Weak(ctx) {
		c := Check{Name: "weak", Status: Warn, Detail: sanitize.Line(w.Title), Guidance: w.Guidance}
		switch {
		case w.Forming:
			continue
		case strings.HasPrefix(w.Key, "site:refused"):
			c.Name, c.Status = "refused", Fail
		case w.Key == "site:password":
			c.Name, c.Status = "auth", Fail
		case w.Grave:
			c.Status = Fail
		}
		out = append(out, c)
	}
	return out
}

// pollerCheck names the process that polls the platform for the site.
func pollerCheck(ctx context.Context, st *site.Site) Check {
	pl, err := st.Poller(ctx)
	switch {
	case err != nil:
		return Check{Name: "poller", Status: Fail, Detail: err.Error()}
	case pl.Node == "":
		return Check{Name: "poller", Status: Warn, Detail: "no process of the site polls the platform",
			Guidance: fmt.Sprintf("treasury serve polls for the site: none runs, or the one that did just died (another takes its lease within seconds). Sessions poll on their own after %s, and say so.", site.AloneAfter)}
	}
	return Check{Name: "poller", Status: OK, Detail: fmt.Sprintf("%s polls the platform for the site, since %s UTC", sanitize.Line(pl.Node), pl.Since.UTC().Format("2006-01-02 15:04"))}
}
