package site

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"treasury/kit/ratelog"
)

// nodeLog gives the embedded node's warnings and errors to the process's
// log (a route refused for a wrong password, a peer lost, a stream that
// cannot keep its replicas), each as one line naming the node; its
// notices and debug lines are left out. A message the node repeats (a
// route to a bastion that is down, tried every second on each of its
// connections) is written at most once a minute, with how many were not.
type nodeLog struct {
	log   *slog.Logger
	node  string
	limit *ratelog.Limiter
}

// nodeLogEvery is how often one message of the node is written at most.
const nodeLogEvery = time.Minute

func newNodeLog(log *slog.Logger, node string) nodeLog {
	return nodeLog{log: log, node: node, limit: ratelog.New(nodeLogEvery, nil)}
}

// write logs one message at level, keyed by its format.
func (l nodeLog) write(level slog.Level, format string, v ...any) {
	ok, quiet := l.limit.Allow(format)
	if !ok {
		return
	}
	attrs := []any{"node", l.node}
	if quiet > 0 {
		attrs = append(attrs, "not_logged_since", quiet)
	}
	l.log.Log(context.Background(), level, "site: node: "+fmt.Sprintf(format, v...), attrs...)
}

func (l nodeLog) Noticef(string, ...any) {}
func (l nodeLog) Debugf(string, ...any)  {}
func (l nodeLog) Tracef(string, ...any)  {}

func (l nodeLog) Warnf(format string, v ...any)  { l.write(slog.LevelWarn, format, v...) }
func (l nodeLog) Errorf(format string, v ...any) { l.write(slog.LevelError, format, v...) }
func (l nodeLog) Fatalf(format string, v ...any) { l.write(slog.LevelError, "fatal: "+format, v...) }
