package site

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Health is what a node sees of its site now: what `treasury doctor`
// checks and `serve --stats-every` logs.
type Health struct {
	// Connected is the node this host's connection is on ("" when none).
	Connected string
	// Record is the site's record as its stream says: how many lines,
	// the node that leads its replicas, and each replica.
	Lines    uint64
	Leader   string
	Replicas []Replica
	// Want is how many replicas the site keeps.
	Want int
}

// Replica is one node's copy of the site's record.
type Replica struct {
	Node    string
	Current bool          // it holds every line the leader does
	Offline bool          // not seen lately
	Lag     uint64        // lines behind the leader
	Seen    time.Duration // since the leader last heard from it
}

// Behind is how many lines r is behind the leader, of a record of lines:
// its lag counts the record's raft entries (its lines, and the stream's
// own changes), never more lines than the record holds.
func (r Replica) Behind(lines uint64) uint64 { return min(r.Lag, lines) }

// Lag is the most lines any replica is behind the leader.
func (h Health) Lag() uint64 {
	var lag uint64
	for _, r := range h.Replicas {
		lag = max(lag, r.Lag)
	}
	return lag
}

// Nodes names the record's leader and its replicas, each with how it
// stands: "bastion-a (leader), bastion-b, bastion-c (12 lines behind)".
func (h Health) Nodes() string {
	parts := []string{h.Leader + " (leader)"}
	for _, r := range h.Replicas {
		switch {
		case r.Offline:
			parts = append(parts, r.Node+" (offline)")
		case !r.Current || r.Lag > 0:
			parts = append(parts, fmt.Sprintf("%s (%d lines behind)", r.Node, r.Lag))
		default:
			parts = append(parts, r.Node)
		}
	}
	return strings.Join(parts, ", ")
}

// Healthy reports whether every replica the site keeps is current.
func (h Health) Healthy() bool {
	if h.Leader == "" && h.Want > 1 {
		return false
	}
	if 1+len(h.Replicas) < h.Want {
		return false
	}
	for _, r := range h.Replicas {
		if r.Offline || !r.Current {
			return false
		}
	}
	return true
}

// WaitConnected waits until the connection is up, or ctx ends; it
// returns at once when this process left the site for good (a password
// the node does not check).
func (s *Site) WaitConnected(ctx context.Context) error {
	for {
		err := s.connected()
		if err == nil || errors.Is(err, ErrPasswordNotChecked) {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// Health reads what the site's record's stream says of its replicas.
func (s *Site) Health(ctx context.Context) (Health, error) {
	h := Health{Connected: s.nc.ConnectedServerName(), Want: s.opts.Replicas}
	st, err := s.Record().stream(ctx)
	if err != nil {
		return h, err
	}
	info, err := st.Info(ctx)
	if err != nil {
		return h, err
	}
	h.Lines = info.State.LastSeq
	if c := info.Cluster; c != nil {
		h.Leader = c.Leader
		for _, p := range c.Replicas {
			h.Replicas = append(h.Replicas, Replica{Node: p.Name, Current: p.Current, Offline: p.Offline, Lag: p.Lag, Seen: p.Active})
		}
	} else {
		h.Leader = h.Connected // a one-node site: its node keeps the record
	}
	if h.Leader != "" {
		s.health.setFormed()
	}
	return h, nil
}
