package site

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"treasury/kit/diskfree"
	"treasury/kit/words"
)

// Each node of the site says how it stands (NodeState) on nodeSubject:
// at once when that changes, else every nodeBeat; and answers a request
// on nodesSubject at once (treasury doctor asks). Every process of the
// site hears them: what one node cannot tell of another (its JetStream
// turned off for a full disk, its routes refused for their credentials)
// every node's header can say. Core NATS only: a node without JetStream
// still says so.
const (
	nodeSubject  = "treasury.site.node"
	nodesSubject = "treasury.site.nodes"
	// nodeCheck is how often a node looks at itself; nodeBeat how often
	// it says so unchanged; a node not heard for nodeHeard is not counted.
	nodeCheck = 2 * time.Second
	nodeBeat  = 10 * time.Second
	nodeHeard = 3 * nodeBeat
	// jsRetry is how often a node whose JetStream turned off tries it
	// again, once its store has jsRoom free.
	jsRetry = 10 * time.Second
	jsRoom  = 4 << 20
)

// NodeState is what a node of the site says of itself.
type NodeState struct {
	Node string `json:"node"`
	// Route is its route address (cluster_listen); Routes how many routes
	// it is given, Peers the nodes its routes reach now.
	Route  string   `json:"route,omitempty"`
	Routes int      `json:"routes"`
	Peers  []string `json:"peers,omitempty"`
	// JetStream is whether it keeps streams now; Why says why not.
	JetStream bool   `json:"jetstream"`
	Why       string `json:"why,omitempty"`
	// Refused are the peers it refused, or that refused it, for their
	// credentials lately.
	Refused []Refusal `json:"refused,omitempty"`
	// Password says it checks the site's password (with TLS a node may
	// check certificates alone).
	Password bool `json:"password,omitempty"`
	// Up is when the node started; Heard when this process last heard it.
	Up    time.Time `json:"up"`
	Heard time.Time `json:"-"`
}

// shape is what of a state is news when it changes (not its counts).
func (n NodeState) shape() string {
	s := fmt.Sprint(n.JetStream, n.Why, n.Peers, n.Password)
	for _, r := range n.Refused {
		s += fmt.Sprint(r.Addr, r.Route, r.Ours, r.Why)
	}
	return s
}

// nodeBook is what this process heard of each node.
type nodeBook struct {
	mu    sync.Mutex
	nodes map[string]NodeState
	// changed is closed (and replaced) when a node's shape changes.
	changed chan struct{}
}

func (b *nodeBook) put(n NodeState) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.nodes == nil {
		b.nodes = map[string]NodeState{}
	}
	old, ok := b.nodes[n.Node]
	n.Heard = time.Now()
	b.nodes[n.Node] = n
	if (!ok || old.shape() != n.shape()) && b.changed != nil {
		close(b.changed)
		b.changed = make(chan struct{})
	}
}

// Changed is closed when what a node says of itself changes: a watcher
// of the site's health looks again at once.
func (s *Site) Changed() <-chan struct{} {
	b := &s.nodes
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.changed == nil {
		b.changed = make(chan struct{})
	}
	return b.changed
}

// Nodes are the nodes this process heard from lately, by name.
func (s *Site) Nodes() []NodeState {
	b := &s.nodes
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []NodeState
	for _, n := range b.nodes {
		if time.Since(n.Heard) < nodeHeard {
			out = append(out, n)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Node < out[j].Node })
	return out
}

// hearNodes keeps the book of what the nodes say, for the site's life.
func (s *Site) hearNodes() error {
	_, err := s.nc.Subscribe(nodeSubject, func(m *nats.Msg) {
		var n NodeState
		if json.Unmarshal(m.Data, &n) == nil && n.Node != "" {
			s.nodes.put(n)
		}
	})
	return err
}

// AskNodes asks every node how it stands and gathers what they answer
// within wait (a node cut off from this one does not answer), or until
// every node of the site answered.
func (s *Site) AskNodes(ctx context.Context, wait time.Duration) ([]NodeState, error) {
	inbox := s.nc.NewRespInbox()
	got := make(chan NodeState, 16)
	sub, err := s.nc.Subscribe(inbox, func(m *nats.Msg) {
		var n NodeState
		if json.Unmarshal(m.Data, &n) == nil && n.Node != "" {
			select {
			case got <- n:
			default:
			}
		}
	})
	if err != nil {
		return nil, err
	}
	defer sub.Unsubscribe()
	if err := s.nc.PublishRequest(nodesSubject, inbox, nil); err != nil {
		return nil, err
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	var out []NodeState
	for {
		select {
		case n := <-got:
			s.nodes.put(n)
			out = append(out, n)
			if len(out) >= s.nodesOfSite() {
				sort.Slice(out, func(i, j int) bool { return out[i].Node < out[j].Node })
				return out, nil // every node answered
			}
		case <-t.C:
			sort.Slice(out, func(i, j int) bool { return out[i].Node < out[j].Node })
			return out, nil
		case <-ctx.Done():
			return out, ctx.Err()
		}
	}
}

// runNode, for the process that runs the node, looks at it every
// nodeCheck until the site closes: says how it stands when that changed
// (else every nodeBeat), answers who asks (as it stands then), writes the node log's held
// back counts, and turns JetStream on again once its store has room.
func (s *Site) runNode(log *nodeLog) error {
	up := time.Now().UTC()
	if _, err := s.nc.Subscribe(nodesSubject, func(m *nats.Msg) {
		// How it stands now: who asks (doctor) sees a route lost a
		// moment ago.
		b, _ := json.Marshal(s.ownState(up))
		_ = m.Respond(b)
	}); err != nil {
		return err
	}
	s.loops.Add(1)
	go func() {
		defer s.loops.Done()
		var said time.Time
		var shape string
		var tried time.Time
		flushed := time.Now()
		tick := time.NewTicker(nodeCheck)
		defer tick.Stop()
		for {
			n := s.ownState(up)
			if !n.JetStream && time.Since(tried) >= jsRetry {
				tried = time.Now()
				s.restartJetStream(log)
			}
			if n.shape() != shape || time.Since(said) >= nodeBeat {
				if b, err := json.Marshal(n); err == nil && s.nc.Publish(nodeSubject, b) == nil {
					said, shape = time.Now(), n.shape()
				}
			}
			if time.Since(flushed) >= nodeLogEvery {
				log.flush()
				flushed = time.Now()
			}
			select {
			case <-s.done:
				return
			case <-tick.C:
			}
		}
	}()
	return nil
}

// ownState is how this process's node stands now.
func (s *Site) ownState(up time.Time) NodeState {
	n := NodeState{Node: s.opts.Node, Route: s.opts.ClusterListen, Routes: len(s.opts.Routes), Up: up,
		JetStream: s.ns.JetStreamEnabled(), Refused: s.refused.fresh(), Password: s.opts.Password != ""}
	if rz, err := s.ns.Routez(nil); err == nil {
		for _, r := range rz.Routes {
			if r.RemoteName != "" && !slices.Contains(n.Peers, r.RemoteName) {
				n.Peers = append(n.Peers, r.RemoteName)
			}
		}
		sort.Strings(n.Peers)
	}
	if !n.JetStream {
		n.Why = "turned off"
		if free, err := diskfree.Avail(s.opts.StoreDir); err == nil && free < jsRoom {
			n.Why = fmt.Sprintf("out of disk space (%s free in %s)", words.Bytes(free), s.opts.StoreDir)
		}
	}
	return n
}

// restartJetStream turns the node's JetStream on again (it turned itself
// off when its store could not be written: a full disk) once its store
// has room: it copies what the site wrote meanwhile from the others.
func (s *Site) restartJetStream(log *nodeLog) {
	if free, err := diskfree.Avail(s.opts.StoreDir); err != nil || free < jsRoom {
		return
	}
	err := s.ns.EnableJetStream(&server.JetStreamConfig{StoreDir: s.opts.StoreDir})
	if err != nil {
		log.log.Warn("site: node: JetStream could not be turned on again", "node", s.opts.Node, "err", err.Error())
		return
	}
	log.log.Info("site: node: JetStream on again: its store has room; it copies what the site wrote meanwhile", "node", s.opts.Node,
		"store_dir", s.opts.StoreDir)
}

// Traffic is what this node's routes carried since they were made.
type Traffic struct {
	In, Out uint64 // bytes
	Routes  int
}

// Traffic reports the bytes this node exchanged with the others; false
// when this process runs no node.
func (s *Site) Traffic() (Traffic, bool) {
	if s.ns == nil {
		return Traffic{}, false
	}
	rz, err := s.ns.Routez(nil)
	if err != nil {
		return Traffic{}, false
	}
	t := Traffic{Routes: len(rz.Routes)}
	for _, r := range rz.Routes {
		t.In += uint64(r.InBytes)
		t.Out += uint64(r.OutBytes)
	}
	return t, true
}
