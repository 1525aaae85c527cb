package site

import (
	"fmt"
	"log/slog"
)

// nodeLog gives the embedded node's warnings and errors to the process's
// log (a route refused for a wrong password, a peer lost, a stream that
// cannot keep its replicas), each as one line naming the node; its
// notices and debug lines are left out.
type nodeLog struct {
	log  *slog.Logger
	node string
}

func (l nodeLog) Noticef(string, ...any) {}
func (l nodeLog) Debugf(string, ...any)  {}
func (l nodeLog) Tracef(string, ...any)  {}

func (l nodeLog) Warnf(format string, v ...any) {
	l.log.Warn("site: node: "+fmt.Sprintf(format, v...), "node", l.node)
}

func (l nodeLog) Errorf(format string, v ...any) {
	l.log.Error("site: node: "+fmt.Sprintf(format, v...), "node", l.node)
}

func (l nodeLog) Fatalf(format string, v ...any) {
	l.log.Error("site: node: fatal: "+fmt.Sprintf(format, v...), "node", l.node)
}
