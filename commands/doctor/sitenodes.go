package doctor

import (
	"fmt"
	"slices"
	"strings"

	"treasury/config"
	"treasury/desk/site"
	"treasury/kit/words"
	"treasury/ui/sanitize"
)

// nodeChecks lists each node of the site, one check a node: its name and
// route address, whether it is up (it answered doctor's question: since
// when, and whether it checks the site's password besides certificates),
// the nodes its routes reach, whether this process's connection is on it,
// and how its copy of the record stands (h, when the record answered).
// A node that does not answer, whose routes do not reach every node it
// is given, whose JetStream is off or whose copy is behind or offline is
// a warning: the record and weak checks say what that costs the site.
// The nodes of an existing NATS cluster (urls:) say nothing of
// themselves: only the record's replicas are listed then.
func nodeChecks(c *config.Cluster, h site.Health, recordKnown bool, heard []site.NodeState, self string) []Check {
	replicas := map[string]site.Replica{}
	var names []string
	add := func(n string) {
		if n != "" && !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	if recordKnown {
		add(h.Leader)
		for _, r := range h.Replicas {
			replicas[r.Node] = r
			add(r.Node)
		}
	}
	states := map[string]site.NodeState{}
	routes := map[string]bool{} // the route addresses a node answered for
	for _, n := range heard {
		states[n.Node] = n
		routes[n.Route] = true
		add(n.Node)
	}
	if c.Embedded() {
		add(self)
	}
	slices.Sort(names)
	// The routes of this node no node answered for (a node not up, or
	// cut off from this one), as each node names its own route address
	// (cluster_listen: 0.0.0.0:6222 is named so, whatever route reaches
	// it). A node the record names that does not answer is one of them:
	// the only one, when one route is left and one such node.
	var unheard, silent []string
	heardOthers := 0
	for n := range states {
		if n != self {
			heardOthers++
		}
	}
	missing := 0
	if c.Embedded() {
		missing = len(c.Routes) - heardOthers
		for _, r := range c.Routes {
			if !routes[r] {
				unheard = append(unheard, r)
			}
		}
		for _, n := range names {
			if _, up := states[n]; !up && n != self {
				silent = append(silent, n)
			}
		}
	}
	addr := map[string]string{}
	if missing == 1 && len(silent) == 1 && len(unheard) == 1 {
		addr[silent[0]] = unheard[0]
	}
	var out []Check
	for _, name := range names {
		n, up := states[name]
		var parts []string
		st := OK
		switch {
		case up:
			parts = append(parts, "up since "+n.Up.UTC().Format("2006-01-02 15:04")+" UTC")
			if c.TLS() {
				parts = append(parts, map[bool]string{true: "checks certificates and the password", false: "checks certificates only"}[n.Password])
			}
			switch {
			case n.Routes == 0:
			case len(n.Peers) == 0:
				parts, st = append(parts, fmt.Sprintf("none of its %s reaches a node", words.Count(n.Routes, "route"))), Warn
			case len(n.Peers) < n.Routes:
				parts, st = append(parts, fmt.Sprintf("routes to %s only (%d of %d)", strings.Join(n.Peers, ", "), len(n.Peers), n.Routes)), Warn
			default:
				parts = append(parts, "routes to "+strings.Join(n.Peers, ", "))
			}
			if !n.JetStream {
				parts, st = append(parts, "JetStream off: "+n.Why), Warn
			}
		case c.Embedded():
			parts, st = append(parts, "does not answer"), Warn
		}
		if name == h.Connected {
			parts = append(parts, "this doctor's connection is on it")
		}
		if rec, ok := recordOf(h, replicas, name, recordKnown); ok {
			parts = append(parts, rec)
			if rec != "leads the record" && rec != "its copy of the record is current" {
				st = max(st, Warn)
			}
		}
		head := name
		if up && n.Route != "" {
			head += " at " + n.Route
		} else if a := addr[name]; a != "" {
			head += " at " + a
		}
		out = append(out, Check{Name: "node", Status: st, Detail: sanitize.Line(head + ": " + strings.Join(parts, "; "))})
	}
	// The nodes neither heard nor named by the record.
	if unnamed := missing - len(silent); unnamed > 0 {
		d := fmt.Sprintf("%s of the site's %d %s not answer", words.Count(unnamed, "node"), 1+len(c.Routes), map[bool]string{true: "does", false: "do"}[unnamed == 1])
		if len(unheard) == missing {
			d += " (routes of this node no node answered for: " + strings.Join(unheard, ", ") + ")"
		}
		out = append(out, Check{Name: "node", Status: Warn, Detail: sanitize.Line(d)})
	}
	return out
}

// recordOf says how name's copy of the record stands, when the record
// answered and name keeps one.
func recordOf(h site.Health, replicas map[string]site.Replica, name string, known bool) (string, bool) {
	if !known {
		return "", false
	}
	if name == h.Leader {
		return "leads the record", true
	}
	r, ok := replicas[name]
	switch {
	case !ok:
		return "", false
	case r.Offline:
		return "its copy of the record is offline", true
	case !r.Current || r.Lag > 0:
		if n := r.Behind(h.Lines); n > 0 {
			return "its copy of the record is " + words.Count(int(n), "line") + " behind", true
		}
		return "its copy of the record is behind", true
	}
	return "its copy of the record is current", true
}
