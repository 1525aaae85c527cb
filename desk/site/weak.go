package site

import (
	"context"
	"fmt"
	"net"
	"slices"
	"sort"
	"strings"
	"sync"

	"treasury/kit/words"
)

// A site is weak when it holds, but would not through one more loss: a
// replica of its record behind or offline, a node whose JetStream turned
// off (its disk full), a node refused for its credentials; and it is not
// yet whole while it forms at its start (its record cannot take a line
// before enough nodes are up). Weak says each such condition, for every
// node's header and alerts (process's site watch) and for doctor.

// Weakness is one condition that makes the site weak.
type Weakness struct {
	// Key names the condition (it holds while the key is given again);
	// Title says it, Guidance what to do.
	Key, Title, Guidance string
	// Forming says the site has not yet formed since this process
	// started: its record has not answered yet.
	Forming bool
	// Grave says the site's record cannot take a line while it holds:
	// every action is refused.
	Grave bool
}

// siteState is what this process has seen of its site since it started.
type siteState struct {
	mu     sync.Mutex
	formed bool // the record answered, with a leader, at least once
}

func (h *siteState) setFormed() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.formed = true
}

// Forming reports whether this process reaches a node of the site but
// the site's record has not answered yet since it started: the site is
// forming (its nodes starting, a leader not yet elected), and actions
// wait for it. A process that reaches no node is not told the site
// forms: it cannot know (connected says why).
func (s *Site) Forming() bool {
	s.health.mu.Lock()
	defer s.health.mu.Unlock()
	return !s.health.formed && s.nc.IsConnected()
}

// nodesOfSite is how many nodes this process knows the site to have.
func (s *Site) nodesOfSite() int {
	if s.opts.Listen != "" {
		return 1 + len(s.opts.Routes)
	}
	return s.opts.Replicas
}

// Weak reads how the site stands (its record's replicas, what each node
// says of itself) and says each condition that makes it weak; none when
// it is whole. It reads the record's stream (bounded by ctx).
func (s *Site) Weak(ctx context.Context) []Weakness {
	h, err := s.Health(ctx)
	nodes := s.Nodes()
	var out []Weakness
	if err != nil && s.Forming() {
		var heard []string
		for _, n := range nodes {
			heard = append(heard, n.Node)
		}
		title := fmt.Sprintf("The site is forming: %d of %d nodes heard", len(heard), s.nodesOfSite())
		if len(heard) > 0 {
			title += " (" + strings.Join(heard, ", ") + ")"
		}
		out = append(out, Weakness{Key: "site:forming", Forming: true, Title: title + "; actions wait for its record",
			Guidance: fmt.Sprintf("The site's record answers once %s of it are up and have elected a leader (seconds after they start). "+
				"treasury doctor says which node answers and how each stands.", words.Count(s.opts.Replicas/2+1, "node"))})
	}
	if err == nil {
		out = append(out, replicaWeakness(h, nodes)...)
	}
	if w, ok := passwordWeakness(nodes); ok {
		// The routes the nodes with a password refuse are its
		// consequence: it says why.
		out = append(out, w)
		nodes = withoutRouteAuthorization(nodes)
	}
	return append(out, refusalWeakness(nodes)...)
}

// passwordWeakness says the nodes disagree on the site's password: some
// check it, some (with TLS) check none. Those take any password, so the
// one the others give reaches them unchecked, and the others refuse
// their routes.
func passwordWeakness(nodes []NodeState) (Weakness, bool) {
	var with, without []string
	for _, n := range nodes {
		if n.Password {
			with = append(with, n.Node)
		} else {
			without = append(without, n.Node)
		}
	}
	if len(with) == 0 || len(without) == 0 {
		return Weakness{}, false
	}
	return Weakness{Key: "site:password",
		Title: fmt.Sprintf("%s the site's password and %s not: every node checks it, or none does",
			names(with, "checks", "check"), names(without, "does", "do")),
		Guidance: "A node without the password takes any (its certificates alone authenticate): the password the others give it " +
			"goes unchecked, while they refuse its routes, which give none. Give every bastion the same password_file, or remove it " +
			"from every profile of the site, then restart their treasury serve."}, true
}

// names is the nodes named, with the verb for one or for several.
func names(nodes []string, one, several string) string {
	if len(nodes) == 1 {
		return nodes[0] + " " + one
	}
	return strings.Join(nodes, ", ") + " " + several
}

// withoutRouteAuthorization is nodes without their routes refused for a
// password.
func withoutRouteAuthorization(nodes []NodeState) []NodeState {
	out := make([]NodeState, len(nodes))
	for i, n := range nodes {
		n.Refused = slices.DeleteFunc(slices.Clone(n.Refused), func(r Refusal) bool { return r.Route && r.Why == "authorization" })
		out[i] = n
	}
	return out
}

// replicaWeakness is, per node, what keeps it from holding its replica
// of the record: behind, offline, its JetStream off; and what that
// leaves the site.
func replicaWeakness(h Health, nodes []NodeState) []Weakness {
	why := map[string][]string{}
	for _, r := range h.Replicas {
		switch {
		case r.Offline:
			why[r.Node] = append(why[r.Node], "offline")
		case !r.Current || r.Lag > 0:
			behind := "behind"
			if n := r.Behind(h.Lines); n > 0 {
				behind = words.Count(int(n), "line") + " behind"
			}
			why[r.Node] = append(why[r.Node], behind)
		}
	}
	for _, n := range nodes {
		if !n.JetStream {
			why[n.Node] = append([]string{"JetStream off: " + n.Why}, why[n.Node]...)
		}
	}
	if len(why) == 0 {
		return nil
	}
	// The replicas that hold the record now: the leader, and each current
	// replica whose node keeps streams.
	holding := 0
	if h.Leader != "" && len(why[h.Leader]) == 0 {
		holding++
	}
	for _, r := range h.Replicas {
		if len(why[r.Node]) == 0 {
			holding++
		}
	}
	quorum := h.Want/2 + 1
	var then, guidance string
	grave := holding < quorum
	switch {
	case grave:
		then = "the site's record cannot take a line"
		guidance = "Fewer than a majority of the record's replicas hold it: every action is refused until they do."
	case holding == quorum:
		then = "the site cannot lose another node"
		guidance = "A majority of the record's replicas hold it, and no more: one more node lost and every action is refused."
	default:
		then = "the site holds through the loss of another node"
	}
	var names []string
	for n := range why {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []Weakness
	for _, n := range names {
		g := guidance + " A node behind catches up by itself once it runs and reaches the others; one whose JetStream turned off " +
			"(its disk full) turns it on again once its store has room, then catches up."
		out = append(out, Weakness{Key: "site:node:" + n, Title: n + " " + strings.Join(why[n], ", ") + ": " + then, Guidance: g, Grave: grave})
	}
	return out
}

// refusalWeakness says who is refused for its credentials: a node whose
// every route is refused is the one whose password or certificate is not
// the site's; a peer refused by nodes that reach each other is named by
// its address; clients refused are counted.
func refusalWeakness(nodes []NodeState) []Weakness {
	guidance := "The site's nodes must hold one password (password_file, the same on every bastion) or, with TLS, each a certificate " +
		"the site's CA signed (ca_file, cert_file, key_file), naming the addresses the others reach it at. Fix it on the bastion named, then restart its treasury serve."
	var out []Weakness
	byPeer := map[string][]string{} // a refused peer's host: the nodes that refuse it, or are refused by it
	whys := map[string]string{}
	addrs := map[string]string{}
	for _, n := range nodes {
		var routes []string
		clients := map[string]int{}
		why := ""
		for _, r := range n.Refused {
			switch {
			case r.Route && r.Ours:
				routes = append(routes, r.Addr)
				why = r.Why
			case r.Route:
				host := hostOf(r.Addr)
				byPeer[host] = appendOnce(byPeer[host], n.Node)
				whys[host] = r.Why
			default:
				clients[r.Addr+" ("+r.Why+")"] += r.Count
			}
			if r.Route && r.Ours {
				host := hostOf(r.Addr)
				addrs[host] = r.Addr
				whys[host] = r.Why
			}
		}
		if len(routes) > 0 && len(n.Peers) == 0 && n.Routes > 0 {
			out = append(out, Weakness{Key: "site:refused:" + n.Node, Guidance: guidance,
				Title: fmt.Sprintf("%s is refused by the site for its credentials (%s): its routes to %s refused", n.Node, why, strings.Join(routes, ", "))})
			continue
		}
		for _, r := range routes {
			host := hostOf(r)
			byPeer[host] = appendOnce(byPeer[host], n.Node)
		}
		var cs []string
		for c := range clients {
			cs = append(cs, c)
		}
		sort.Strings(cs)
		for _, c := range cs {
			out = append(out, Weakness{Key: "site:refused-client:" + n.Node + ":" + c,
				Title:    fmt.Sprintf("%s refused %s for their credentials from %s", n.Node, words.Count(clients[c], "client connection"), c),
				Guidance: "A process of the site (a dashboard, treasury audit, doctor) connects with a password or certificate the node does not take: " + guidance})
		}
	}
	// A node refused by all its routes is named above; the peers refused
	// by nodes that reach one another are named by address here.
	for _, w := range out {
		if strings.HasPrefix(w.Key, "site:refused:") {
			return out
		}
	}
	var peers []string
	for p := range byPeer {
		peers = append(peers, p)
	}
	sort.Strings(peers)
	for _, p := range peers {
		at := p
		if a := addrs[p]; a != "" {
			at = a
		}
		out = append(out, Weakness{Key: "site:refused:" + p, Guidance: guidance,
			Title: fmt.Sprintf("The node at %s is refused for its credentials (%s) by %s: the site cannot count on it", at, whys[p], strings.Join(byPeer[p], ", "))})
	}
	return out
}

func hostOf(addr string) string {
	if h, _, err := net.SplitHostPort(addr); err == nil {
		return h
	}
	return addr
}

func appendOnce(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}
