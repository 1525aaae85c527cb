package serve

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"

	"treasury/commands/dashboard"
	"treasury/config"
	"treasury/desk/audit"
	"treasury/process"
)

// contexts are the profiles an SSH session may switch to with :ctx: the
// served profile, whose runtime is the process's, and the others of the
// file whose ssh_roles name the session's role, each opened once when a
// session first switches to it, shared by every session on it, and closed
// when the last leaves. Every switch and every refusal is a line of the
// session log.
type contexts struct {
	ctx  context.Context // the server's
	e    *process.Env
	o    config.Options
	main *process.Runtime
	log  *slog.Logger

	mu   sync.Mutex
	open map[string]*opened
}

// opened is a profile's runtime shared by the sessions on it.
type opened struct {
	ready   chan struct{} // closed once opened (or failed)
	rt      *process.Runtime
	release func()
	err     error
	refs    int
}

func newContexts(ctx context.Context, e *process.Env, o config.Options, main *process.Runtime, log *slog.Logger) *contexts {
	return &contexts{ctx: ctx, e: e, o: o, main: main, log: log, open: map[string]*opened{}}
}

// Names are the profiles of the file.
func (c *contexts) Names() []string { return config.ProfileNames(c.o) }

// Open gives who the runtime of profile name: the process's for the
// served profile; another only when its ssh_roles name who's role.
func (c *contexts) Open(who audit.Who, name string) (*process.Runtime, func(), error) {
	if name == c.main.Config.Profile {
		return c.main, func() {}, nil
	}
	o := c.o
	o.Profile = name
	cfg, _, err := config.Load(o)
	if err != nil {
		return nil, nil, err
	}
	if !slices.Contains(cfg.SSHRoles, who.Role) {
		allowed := "no role"
		if len(cfg.SSHRoles) > 0 {
			allowed = "roles " + strings.Join(cfg.SSHRoles, ", ")
		}
		return nil, nil, fmt.Errorf("over treasury serve, profile %s may be switched to by %s (its ssh_roles), not by role %q", name, allowed, who.Role)
	}
	c.mu.Lock()
	op, ok := c.open[name]
	if !ok {
		op = &opened{ready: make(chan struct{})}
		c.open[name] = op
	}
	op.refs++
	c.mu.Unlock()
	if !ok {
		op.rt, op.release, op.err = dashboard.OpenConfig(c.ctx, c.e, cfg, c.log)
		close(op.ready)
	}
	<-op.ready
	if op.err != nil {
		c.drop(name, op)
		return nil, nil, op.err
	}
	var once sync.Once
	return op.rt, func() { once.Do(func() { c.drop(name, op) }) }, nil
}

// drop gives back a session's hold of op; the last closes it.
func (c *contexts) drop(name string, op *opened) {
	c.mu.Lock()
	op.refs--
	last := op.refs == 0
	if last && c.open[name] == op {
		delete(c.open, name)
	}
	c.mu.Unlock()
	if last && op.release != nil {
		op.release()
	}
}

// Record writes the switch, or its refusal, in the session log.
func (c *contexts) Record(who audit.Who, from, to string, err error) {
	if err != nil {
		c.log.Warn("profile switch refused", "who", who.String(), "role", who.Role, "from", from, "to", to, "error", err.Error())
		return
	}
	c.log.Info("profile switch", "who", who.String(), "role", who.Role, "from", from, "to", to)
}
