// Package site makes several hosts of treasury one site: the bastions of
// an operations desk share one record of actions (and, as the site
// grows, one poller and one alert state) through NATS JetStream, the
// engine made for it: an embedded node per bastion, routed to the
// others, or an existing NATS cluster. Nothing here replicates by hand:
// the site's record is a JetStream stream with replicas, appended with
// optimistic concurrency (Record, an audit.Replica).
package site

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"golang.org/x/crypto/bcrypt"

	"treasury/kit/portowner"
	"treasury/kit/words"
)

// Options say which site this host is a member of and how (the profile's
// cluster: section).
type Options struct {
	// Name is the NATS cluster's name; Node this node's.
	Name, Node string
	// Listen is the embedded node's client address; empty: connect to
	// URLs, an existing cluster.
	Listen string
	// ClusterListen is the embedded node's route address (empty: a
	// one-host site); Routes the other nodes' route addresses.
	ClusterListen string
	Routes        []string
	URLs          []string
	// User and Password authenticate every client and route (none: the
	// certificates alone do).
	User, Password string
	// CAFile, CertFile and KeyFile, when given, put mutual TLS on every
	// route and client: each side shows a certificate the CA signed and
	// refuses one it did not.
	CAFile, CertFile, KeyFile string
	// Replicas is how many nodes keep the site's record.
	Replicas int
	// StoreDir is where the embedded node keeps its streams.
	StoreDir string
	// Connect, when set, only connects to the node at Listen: another
	// process of this host (serve) runs it.
	Connect bool
	// Log, when set, takes the embedded node's warnings and errors.
	Log *slog.Logger
}

// Site is this host's membership of a site: its node when it runs one,
// and its connection.
type Site struct {
	opts Options
	id   string         // this process's, among the site's
	ns   *server.Server // the embedded node; nil when connected to another's
	nc   *nats.Conn
	js   jetstream.JetStream

	mu      sync.Mutex
	streams map[string]jetstream.Stream
	set     settings
	lives   lives
	refused refusals // what the node's log says it refused, or was refused
	// unchecked is why this process left the site: the node it reached
	// checks no password and this process gives one (checkPassword).
	unchecked error
	nodes     nodeBook      // what each node of the site says of itself
	health    siteState     // what the site's health has been since the start
	done      chan struct{} // closed by Close
	loops     sync.WaitGroup
}

// closed reports whether the site was closed.
func (s *Site) closed() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// watchRetry is how long a watch that failed waits before it tries
// again; replicaWaitSite bounds making the site's streams and buckets.
const (
	watchRetry      = 2 * time.Second
	replicaWaitSite = 5 * time.Second
)

// startWait bounds how long a node takes to listen.
const startWait = 15 * time.Second

// Start runs this host's node of the site (Listen) and connects to it,
// or connects to the existing cluster (URLs) or to the node another
// process of this host runs (Connect). The connection reconnects for
// ever: a site that cannot be reached refuses what needs it (Record's
// appends) with the reason, it does not stop the process.
func Start(o Options) (*Site, error) {
	s := &Site{opts: o, id: nats.NewInbox(), streams: map[string]jetstream.Stream{}, done: make(chan struct{})}
	copts := []nats.Option{nats.Name("treasury " + o.Node),
		nats.MaxReconnects(-1), nats.ReconnectWait(time.Second), nats.RetryOnFailedConnect(true)}
	if o.Password != "" {
		// A node reached later (after a failed first try, or again) is
		// checked as one reached at once is, below.
		leave := func(nc *nats.Conn) {
			if err := s.checkPassword(nc); err != nil {
				nc.Close()
			}
		}
		copts = append(copts, nats.UserInfo(o.User, o.Password), nats.ConnectHandler(leave), nats.ReconnectHandler(leave))
	}
	if o.CAFile != "" {
		copts = append(copts, nats.RootCAs(o.CAFile), nats.ClientCert(o.CertFile, o.KeyFile))
	}
	var err error
	var nlog nodeLog
	switch {
	case o.Listen != "" && !o.Connect:
		log := o.Log
		if log == nil {
			log = slog.New(slog.DiscardHandler) // the refusals are still noted
		}
		nlog = newNodeLog(log, o.Node, &s.refused)
		if s.ns, err = startNode(o, nlog); err != nil {
			return nil, err
		}
		s.nc, err = nats.Connect("", append(copts, nats.InProcessServer(s.ns))...)
	case o.Listen != "":
		s.nc, err = nats.Connect("nats://"+o.Listen, copts...)
	default:
		s.nc, err = nats.Connect(strings.Join(o.URLs, ","), copts...)
	}
	if err != nil {
		s.Close()
		return nil, fmt.Errorf("site: connect: %w", err)
	}
	if err := s.checkPassword(s.nc); err != nil {
		s.Close()
		return nil, fmt.Errorf("site: %w", err)
	}
	if s.js, err = jetstream.New(s.nc); err != nil {
		s.Close()
		return nil, fmt.Errorf("site: %w", err)
	}
	err = s.hearNodes()
	if err == nil && s.ns != nil {
		err = s.runNode(&nlog)
	}
	if err != nil {
		s.Close()
		return nil, fmt.Errorf("site: %w", err)
	}
	return s, nil
}

// startNode starts the embedded node: JetStream in StoreDir, clients
// on Listen, routes on ClusterListen to Routes, every connection
// authenticated; nothing else listens (no monitoring port, no leaf
// nodes, no websocket).
func startNode(o Options, log nodeLog) (*server.Server, error) {
	for _, a := range []string{o.Listen, o.ClusterListen} {
		if err := free(a); err != nil {
			return nil, err
		}
	}
	host, port, err := splitHostPort(o.Listen)
	if err != nil {
		return nil, fmt.Errorf("site: listen: %w", err)
	}
	sopts := &server.Options{ServerName: o.Node, Host: host, Port: port,
		JetStream: true, StoreDir: o.StoreDir, NoSigs: true, MaxPayload: 1 << 20}
	if o.Password != "" {
		// The node checks clients against the password's bcrypt hash:
		// it keeps no password of its own to compare with (and says
		// nothing of plaintext passwords). Its routes give the password
		// itself, as a client does.
		hash, err := bcrypt.GenerateFromPassword([]byte(o.Password), passwordCost)
		if err != nil {
			return nil, fmt.Errorf("site: password: %w", err)
		}
		sopts.Username, sopts.Password = o.User, string(hash)
	}
	var routeTLS *tls.Config
	if o.CAFile != "" {
		if sopts.TLSConfig, err = nodeTLS(o); err != nil {
			return nil, err
		}
		sopts.TLSVerify, sopts.TLSTimeout = true, tlsTimeout.Seconds()
		// A route is a client of the node it solicits and a server of
		// the one that solicits it: the same CA for both.
		routeTLS = sopts.TLSConfig.Clone()
		routeTLS.RootCAs = routeTLS.ClientCAs
	}
	if o.ClusterListen != "" {
		ch, cp, err := splitHostPort(o.ClusterListen)
		if err != nil {
			return nil, fmt.Errorf("site: cluster_listen: %w", err)
		}
		sopts.Cluster = server.ClusterOpts{Name: o.Name, Host: ch, Port: cp, ConnectRetries: -1,
			TLSConfig: routeTLS, TLSTimeout: tlsTimeout.Seconds()}
		if o.Password != "" {
			sopts.Cluster.Username, sopts.Cluster.Password = o.User, o.Password
		}
		for _, r := range o.Routes {
			u := &url.URL{Scheme: "nats", Host: r}
			if o.Password != "" {
				u.User = url.UserPassword(o.User, o.Password)
			}
			sopts.Routes = append(sopts.Routes, u)
		}
	}
	ns, err := server.NewServer(sopts)
	if err != nil {
		return nil, fmt.Errorf("site: node: %w", err)
	}
	ns.SetLoggerV2(log, false, false, false)
	go ns.Start()
	if !ns.ReadyForConnections(startWait) {
		ns.Shutdown()
		return nil, fmt.Errorf("site: the node did not listen on %s within %s (is the port taken?)", o.Listen, startWait)
	}
	return ns, nil
}

// passwordCost is the cost of the node's bcrypt hash of the site's
// password. The hash is made at each start and held in memory only, by
// a process that holds the password itself (it routes and connects with
// it): a higher cost would guard nothing, and every client's connection
// (each dashboard, doctor and audit of the host, each reconnect) pays it.
const passwordCost = bcrypt.MinCost

// tlsTimeout bounds a TLS handshake of a route or a client.
const tlsTimeout = 3 * time.Second

// nodeTLS is the node's TLS: its certificate, and the site's CA required
// of every peer (mutual authentication).
func nodeTLS(o Options) (*tls.Config, error) {
	c, err := server.GenTLSConfig(&server.TLSConfigOpts{CertFile: o.CertFile, KeyFile: o.KeyFile, CaFile: o.CAFile, Verify: true})
	if err != nil {
		return nil, fmt.Errorf("site: tls: %w", err)
	}
	return c, nil
}

// free says, before the node starts, that an address it must listen on
// is taken, and by which process: a node that cannot listen would be
// found out only after its start timeout.
func free(addr string) error {
	if addr == "" {
		return nil
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		if who := portowner.NameAddr(addr); who != "" {
			return fmt.Errorf("site: %s is taken by %s: %w", addr, who, err)
		}
		return fmt.Errorf("site: cannot listen on %s: %w", addr, err)
	}
	return l.Close()
}

func splitHostPort(a string) (string, int, error) {
	h, p, err := net.SplitHostPort(a)
	if err != nil {
		return "", 0, err
	}
	n, err := strconv.Atoi(p)
	if err != nil {
		return "", 0, fmt.Errorf("port %q: %w", p, err)
	}
	return h, n, nil
}

// Close ends the connection and the node.
func (s *Site) Close() {
	select {
	case <-s.done:
		return
	default:
		close(s.done)
	}
	s.loops.Wait()
	if s.nc != nil {
		s.nc.Close()
	}
	if s.ns != nil {
		s.ns.Shutdown()
		s.ns.WaitForShutdown()
	}
}

// Node is this node's name.
func (s *Site) Node() string { return s.opts.Node }

// stream returns the stream of cfg, made (or its settings brought up to
// date) the first time it is asked for while the site can make it: a
// site whose nodes are not all up yet cannot keep its replicas, and
// says so at each try.
func (s *Site) stream(ctx context.Context, cfg jetstream.StreamConfig) (jetstream.Stream, error) {
	s.mu.Lock()
	st := s.streams[cfg.Name]
	s.mu.Unlock()
	if st != nil {
		return st, nil
	}
	if err := s.connected(); err != nil {
		return nil, err
	}
	st, err := s.js.CreateOrUpdateStream(ctx, cfg)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, nats.ErrTimeout) {
			return nil, fmt.Errorf("stream %s cannot be made yet with %s: %w (are that many nodes of the site up?)", cfg.Name,
				words.Count(cfg.Replicas, "replica"), err)
		}
		return nil, fmt.Errorf("stream %s: %w", cfg.Name, err)
	}
	s.mu.Lock()
	s.streams[cfg.Name] = st
	s.mu.Unlock()
	return st, nil
}

// connected says why nothing can be asked of the site while the
// connection is down: no node answers where this host looks for one.
func (s *Site) connected() error {
	s.mu.Lock()
	unchecked := s.unchecked
	s.mu.Unlock()
	if unchecked != nil {
		return unchecked
	}
	if s.nc.IsConnected() {
		// Asked here too, not left to the connect handler alone: nats
		// calls it on its own goroutine, after the connection already
		// says it is up.
		return s.checkPassword(s.nc)
	}
	if err := s.nc.LastError(); refusedCredentials(err) {
		return fmt.Errorf("the site's node at %s refuses this process's credentials (authorization: check password_file, or cert_file and ca_file): %w", s.where(), err)
	}
	if s.opts.Listen != "" {
		return fmt.Errorf("no node of the site answers at %s (treasury serve runs this host's node: is it running?)", s.opts.Listen)
	}
	return fmt.Errorf("no node of the site answers at %s", strings.Join(s.opts.URLs, ", "))
}

// where names the node this process reaches: listen, or the cluster's
// URLs.
func (s *Site) where() string {
	if s.opts.Listen != "" {
		return s.opts.Listen
	}
	return strings.Join(s.opts.URLs, ", ")
}

// ErrPasswordNotChecked is why a process that gives the site's password
// leaves a node that checks none (a node of a TLS site started without
// it): a password nothing checks protects nothing, and a wrong one
// would pass unseen.
var ErrPasswordNotChecked = errors.New("this process gives a password and the node checks none")

// checkPassword, on a connection made, says (and keeps, for connected)
// that this process gives a password the node it reached checks not.
func (s *Site) checkPassword(nc *nats.Conn) error {
	if s.opts.Password == "" || !nc.IsConnected() || nc.AuthRequired() {
		return nil
	}
	at := nc.ConnectedUrlRedacted()
	if at == "" {
		at = s.where()
	}
	err := fmt.Errorf("the site's node at %s takes any password (its certificates alone authenticate): %w", at, ErrPasswordNotChecked)
	s.mu.Lock()
	s.unchecked = err
	s.mu.Unlock()
	return err
}

// refusedCredentials reports whether err is a node's refusal of this
// process's credentials (a wrong password, a certificate it does not
// take), not a node that is not there.
func refusedCredentials(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, nats.ErrAuthorization) || errors.Is(err, nats.ErrAuthExpired) || errors.Is(err, nats.ErrAuthRevoked) {
		return true
	}
	m := strings.ToLower(err.Error())
	return strings.Contains(m, "authorization violation") || strings.Contains(m, "authentication")
}

// notifyBackstop is how often Notify calls fn whatever came: a message
// published while a route between two nodes was down (a node stopped, cut
// off or restarting) reaches no subscriber beyond it, and a host's copy
// of the record would lag until the next line appended.
const notifyBackstop = 5 * time.Second

// Notify calls fn (coalesced: once for any number of messages that came
// while it ran) when a message is published on subject, and every
// notifyBackstop besides, until stop.
func (s *Site) Notify(subject string, fn func()) (stop func(), err error) {
	kick := make(chan struct{}, 1)
	done := make(chan struct{})
	sub, err := s.nc.Subscribe(subject, func(*nats.Msg) {
		select {
		case kick <- struct{}{}:
		default:
		}
	})
	if err != nil {
		return nil, fmt.Errorf("site: %w", err)
	}
	go func() {
		backstop := time.NewTicker(notifyBackstop)
		defer backstop.Stop()
		for {
			select {
			case <-done:
				return
			case <-kick:
				fn()
			case <-backstop.C:
				fn()
			}
		}
	}()
	var once sync.Once
	return func() { once.Do(func() { sub.Unsubscribe(); close(done) }) }, nil
}
