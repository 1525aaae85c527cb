package process

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"treasury/desk/audit"
	"treasury/desk/live"
	"treasury/kit/words"
)

// Keys of the alerts the audit log raises.
const (
	alertAuditBroken     = "audit:broken"
	alertAuditUnwritable = "audit:unwritable"
)

// AuditRecheck is how often a process reads what other processes appended
// to the audit log (for the alerts every session shows) and, while the log
// cannot be written, checks whether it can be again.
const AuditRecheck = 5 * time.Second

// openAudit opens the state directory's audit log for this process
// (for reading only when it cannot be written), reads
// every line of it into the process's keys (Pending) and the Audit topic,
// says in the log what it repaired, and raises the alerts of a log that is
// damaged or cannot be written; watchAudit keeps them current until ctx
// ends.
func (r *Runtime) openAudit(ctx context.Context, cmd string) error {
	var err error
	// The keys of attempts whose outcome is not known, written by any
	// process on this state directory, past or present, read with the log:
	// a retry reuses them, and one on its way elsewhere is not sent twice.
	// With --read-only too the log is opened for writing when it can be:
	// a key pressed anyway is refused, and that refusal is a line of it.
	opts := audit.Options{Cmd: cmd, Follow: r.Pending.Apply, OnAppend: r.Metrics.AuditAppend}
	if r.Site != nil {
		// The site's record: every host's attempts, read before a
		// decision, so a retry from this bastion of an attempt another
		// left open reuses its key.
		opts.Replica = r.Site.Record()
	}
	if r.Audit, err = audit.Open(r.StateDir, opts); err != nil {
		return fmt.Errorf("audit: reading back the keys of unfinished actions: %w", err)
	}
	r.closers = append(r.closers, func() { r.Audit.Close() })
	if r.Site != nil {
		stop, err := r.Site.Record().Watch(func() { _ = r.Audit.Pull() })
		if err != nil {
			return fmt.Errorf("audit: watching the site's record: %w", err)
		}
		r.closers = append(r.closers, stop)
		if err := r.Audit.Pull(); err != nil {
			r.Log.Warn("audit: the site's record", "err", err)
		}
	}
	if n := r.Pending.Attach(r.Audit); n > 0 {
		r.Log.Info("audit: actions whose outcome is not known, read back from the log: their next attempt reuses their key",
			"count", n, "file", r.Audit.Path())
	}
	if err := live.FollowAudit(r.Platform.Store, r.Audit); err != nil {
		return err
	}
	w := &auditWatch{rt: r}
	r.Audit.OnChange(w.judge)
	w.judge()
	go w.run(ctx)
	return nil
}

// auditWatch raises and withdraws the audit log's alerts; judge runs on
// whichever goroutine changed the log.
type auditWatch struct {
	rt *Runtime

	mu sync.Mutex
	// raised is the title of each alert raised and logged, so that each
	// condition is raised and logged once, and again only when it changes.
	raised map[string]string
}

// run reads the log every AuditRecheck until ctx ends: what other
// processes appended (an acknowledgement, a break they found), and, while
// it cannot be written, whether it can be again (a probe, never assumed).
func (w *auditWatch) run(ctx context.Context) {
	t := time.NewTicker(AuditRecheck)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			l := w.rt.Audit
			w.readFailed(l.Refresh())
			if err := l.Err(); err != nil && !errors.Is(err, audit.ErrReadOnly) {
				_ = l.Writable()
				w.judge()
			}
		}
	}
}

// readFailed logs a failure to read the log once (until it reads again).
func (w *auditWatch) readFailed(err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.raised == nil {
		w.raised = map[string]string{}
	}
	switch {
	case err == nil:
		delete(w.raised, "read")
	case w.raised["read"] != err.Error():
		w.raised["read"] = err.Error()
		msg := "audit: the log cannot be read"
		if errors.Is(err, audit.ErrSiteUnreachable) {
			msg = "audit: the site's record cannot be reached"
		}
		w.rt.Log.Warn(msg, "file", w.rt.Audit.Path(), "err", err)
	}
}

// judge logs what the log repaired on its own, raises the alerts its
// state calls for, and withdraws those it no longer does: a HIGH alert,
// with a header banner, while a break of the chain has not been
// acknowledged, and one while every action is refused because the log
// cannot be written (not when the operator asked for read-only: the
// header says READ-ONLY then).
func (w *auditWatch) judge() {
	for _, n := range w.rt.Audit.Notices() {
		w.rt.Log.Warn(n, "file", w.rt.Audit.Path())
	}
	st := w.rt.Audit.State()
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(st.Breaks) > 0 {
		b := st.Breaks[0]
		where := fmt.Sprintf("line %d", b.Line)
		if b.Line == 0 {
			where = "the file"
		}
		title := fmt.Sprintf("Audit log broken at %s: %s (%s)", where, b.Kind, b.Detail)
		if len(st.Breaks) > 1 {
			title += fmt.Sprintf("; %s in all", words.Count(len(st.Breaks), "break"))
		}
		guidance := "The record of actions was changed, cut or replaced outside treasury. `treasury audit verify` lists every break and the attempts still open; " +
			"once checked, `treasury audit ack --reason \"...\"` acknowledges them (itself a line of the log). Actions go on, on the same chain."
		if b.Kind == audit.Diverged {
			guidance = "This host's copy of the site's record is not the site's: every action here is refused. `treasury audit verify --cluster` says where they part; " +
				"move audit.jsonl aside (keep it for the inquiry) and restart: this host copies the site's record."
		}
		w.raise(live.Alert{Key: alertAuditBroken, Severity: live.High, Code: "AUDIT", Banner: "AUDIT BROKEN", Title: title, Guidance: guidance})
	} else {
		w.withdraw(alertAuditBroken)
	}
	switch err := st.Unwritable; {
	case err == nil || errors.Is(err, audit.ErrReadOnly) || w.rt.Config.ReadOnly:
		// --read-only: no action is offered, and refusals are recorded
		// when the log can be written; nothing is raised about it.
		w.withdraw(alertAuditUnwritable)
	case errors.Is(err, audit.ErrDiverged):
		w.withdraw(alertAuditUnwritable) // the break says it, with what to do
	case errors.Is(err, audit.ErrSiteUnreachable) && w.rt.Site != nil && w.rt.Site.Forming():
		w.withdraw(alertAuditUnwritable) // the site's SITE FORMING alert says it: actions wait for it
	case errors.Is(err, audit.ErrSiteUnreachable):
		w.raise(live.Alert{Key: alertAuditUnwritable, Severity: live.High, Code: "AUDIT", Banner: "ACTIONS REFUSED",
			Title: "Every action is refused: " + strings.TrimPrefix(err.Error(), "audit: "),
			Guidance: "An action is written to the site's record before it is sent, and nothing is sent while it cannot be. `treasury doctor` checks the site: " +
				"its nodes must be up (as many as its replicas) and reachable; the dashboard tries again every few seconds."})
	default:
		w.raise(live.Alert{Key: alertAuditUnwritable, Severity: live.High, Code: "AUDIT", Banner: "ACTIONS REFUSED",
			Title: "Every action is refused: " + strings.TrimPrefix(err.Error(), "audit: "),
			Guidance: "An action is written to the audit log before it is sent, and nothing is sent while it cannot be. Make the state directory and audit.jsonl " +
				"writable by this user, or free space; the dashboard checks again every few seconds."})
	}
}

// raise raises a (and logs it) unless it is open with the same title; the
// caller holds w.mu.
func (w *auditWatch) raise(a live.Alert) {
	if w.raised[a.Key] == a.Title {
		return
	}
	if w.raised == nil {
		w.raised = map[string]string{}
	}
	w.raised[a.Key] = a.Title
	w.rt.Platform.Store.Notice(a)
	w.rt.Log.Warn(a.Title, "file", w.rt.Audit.Path(), "alert", a.Key)
}

// withdraw clears the alert of key, if raised; the caller holds w.mu.
func (w *auditWatch) withdraw(key string) {
	if _, ok := w.raised[key]; !ok {
		return
	}
	delete(w.raised, key)
	w.rt.Platform.Store.Withdraw(key)
	w.rt.Log.Info("audit: alert cleared", "alert", key, "file", w.rt.Audit.Path())
}
