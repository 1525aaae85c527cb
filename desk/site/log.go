package site

import (
	"context"
	"fmt"
	"log/slog"
	"regexp"
	"time"

	"treasury/kit/ratelog"
)

// nodeLog gives the embedded node's warnings and errors to the process's
// log (a route refused for a wrong password, a peer lost, a stream that
// cannot keep its replicas), each as one line naming the node; its
// notices and debug lines are left out. A message the node repeats (a
// route to a bastion that is down, tried every second on each of its
// connections; a peer refused for its credentials at each of its tries)
// is written at most once a minute, with how many were not: the
// connection each is about (its address and id) is not part of what
// makes two messages the same, it is said beside (peer). A refusal of
// credentials is also noted for the site's health (refusals).
type nodeLog struct {
	log     *slog.Logger
	node    string
	limit   *ratelog.Limiter
	refused *refusals
}

// nodeLogEvery is how often one message of the node is written at most.
const nodeLogEvery = time.Minute

func newNodeLog(log *slog.Logger, node string, r *refusals) nodeLog {
	return nodeLog{log: log, node: node, limit: ratelog.New(nodeLogEvery, nil), refused: r}
}

// connPrefix is how the node leads a message about one connection:
// "127.0.0.1:34156 - rid:12 - " (a route; cid a client), sometimes with
// the peer's name quoted after the id.
var connPrefix = regexp.MustCompile(`^(\S+) - ([a-z]+):(\d+)(?: - "[^"]*")? - `)

var numbers = regexp.MustCompile(`[0-9]+`)

// write logs one message at level, keyed by what it says without the
// connection it is about.
func (l nodeLog) write(level slog.Level, format string, v ...any) {
	msg := fmt.Sprintf(format, v...)
	peer, kind := "", ""
	if m := connPrefix.FindStringSubmatch(msg); m != nil {
		msg, peer, kind = msg[len(m[0]):], m[1], m[2]
	}
	if l.refused != nil {
		l.refused.note(msg, peer, kind)
	}
	// Two messages that differ only by their numbers (an attempt's, a
	// port) are the same message.
	ok, quiet := l.limit.Allow(numbers.ReplaceAllString(msg, "#"))
	if !ok {
		return
	}
	attrs := []any{"node", l.node}
	if peer != "" {
		attrs = append(attrs, "peer", peer)
	}
	if quiet > 0 {
		attrs = append(attrs, "not_logged_since", quiet)
	}
	l.log.Log(context.Background(), level, "site: node: "+msg, attrs...)
}

// flush writes, for each message held back and not repeated since, how
// many were not written (call it every nodeLogEvery).
func (l nodeLog) flush() {
	for _, q := range l.limit.Flush() {
		l.log.Warn("site: node: "+q.Key, "node", l.node, "not_logged_since", q.Count, "over", q.Over.Round(time.Second).String())
	}
}

func (l nodeLog) Noticef(string, ...any) {}
func (l nodeLog) Debugf(string, ...any)  {}
func (l nodeLog) Tracef(string, ...any)  {}

func (l nodeLog) Warnf(format string, v ...any)  { l.write(slog.LevelWarn, format, v...) }
func (l nodeLog) Errorf(format string, v ...any) { l.write(slog.LevelError, format, v...) }
func (l nodeLog) Fatalf(format string, v ...any) { l.write(slog.LevelError, "fatal: "+format, v...) }
