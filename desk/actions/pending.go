package actions

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"treasury/desk/audit"
	"treasury/wire/apierr"
	"treasury/wire/custody"
	walletclient "treasury/wire/wallet/client"
)

// Pending is what the audit log says of the idempotency keys (mutationId,
// intent id) of actions whose outcome is not known: sent (or about to be)
// and not answered, or answered by a timeout, a lost connection or a 5xx,
// so the platform may or may not have applied them. The next attempt of
// the same action on the same target reuses the key, so the platform
// applies it at most once (spec 7.1 rule 3 for creations; the wallet
// answers a mutationId it has already applied with what it answered then,
// and the custody interface answers a repeated intent id with the same
// requestId). A known outcome (success, or a 4xx refusal) of any action on
// a target spends that target's keys: the next decision gets a new one.
//
// It is built from the log alone, every line of every process on the
// state directory (audit.Log.Follow), so it is the same for every process
// at every moment, not only after a restart: the key of an attempt is
// decided with the log locked and read to its end (decide, under
// audit.Log.AppendDecided). While an attempt line of the same action on
// the same target has no outcome and its process still runs, the attempt
// is on its way and another is refused (ErrInFlight): the platform gets
// one request. An attempt line whose process ended without an outcome
// (killed, out of memory, a power cut), or an unknown outcome, leaves its
// key for the next attempt, which is its retry. A decision taken on an
// older reading of the log (a dialog opened before another operator acted
// on the same record) is refused when an attempt of the same action on
// the same target was written since (ErrSettled).
//
// One Pending serves a process (every session of it): it follows the log
// once; a second would say the same and cost the same again.
type Pending struct {
	mu   sync.Mutex
	self string // this process's audit.Proc id
	// alive tells whether the process of an attempt line still runs.
	alive func(*audit.Proc, string) audit.Liveness
	// byTarget maps a target's id to its keys not spent, by action.
	byTarget map[string]map[string]*PendingAttempt
	// bySeq are the attempt lines without an outcome, by seq.
	bySeq map[uint64]*PendingAttempt
	// latest is the last attempt of each action on each target, by
	// target and action: what a decision taken before it has not seen.
	latest map[string]map[string]Latest
	// known is, by target, the reading (n) at which an action on it last
	// ended known (done, failed, superseded): an attempt still open from
	// before it was superseded by it, whatever the record reads.
	known map[string]uint64
	// n counts the lines applied: the position of a reading of the log.
	n uint64
}

// PendingAttempt is the last attempt of an action on a target whose
// outcome is not known yet.
type PendingAttempt struct {
	Action string // Freeze, Unfreeze, Lock, Unlock, Sweep
	Target string // the transaction, endpoint or sweep configuration id
	// Kind is the target's kind ("transaction", "endpoint", "sweep"), and
	// Before what its attempt line recorded of the record as it was read
	// when its request was built (the freeze history's length, the
	// endpoint's revision, the sweep's last run): what tells whether the
	// record moved since.
	Kind   string
	Before map[string]string
	// ID is the idempotency key: mutationId or intent id.
	ID string
	// Operator sent it last, At, From (the process and host, "this
	// process" for the reader's own) and with Reason; FirstBy first sent
	// the key, at First.
	Operator string
	Reason   string
	At       time.Time
	From     string
	First    time.Time
	FirstBy  string
	// InFlight counts its attempt lines without an outcome whose process
	// still runs: calls on their way now.
	InFlight int
	// Err is why the outcome is unknown, in a few words ("HTTP 500
	// INTERNAL(13)", "timed out", Interrupted); empty while it is on its
	// way.
	Err string

	open map[uint64]sender // attempt lines without an outcome, by seq
	last sender            // who sent it last
	n    uint64            // the reading at which its last attempt line was applied
	line uint64            // its last attempt line's seq
}

// sender is who sent an attempt line, from which process and host.
type sender struct {
	proc *audit.Proc
	host string
}

// Latest is the last attempt of an action on a target, as the log says.
type Latest struct {
	n       uint64 // Pending.n when it was applied
	Key     string
	Outcome string // audit.OutcomeAttempt until its outcome line
	By      string
	From    string
	At      time.Time
}

// Interrupted is why an attempt's outcome is unknown when its attempt line
// has no outcome and its process ended: it was on its way when the
// process was killed, ran out of memory or lost its power.
const Interrupted = "no outcome recorded: the process ended while it was on its way"

// NewPending returns an empty set: Follow fills it from the log.
func NewPending() *Pending {
	return &Pending{byTarget: map[string]map[string]*PendingAttempt{}, bySeq: map[uint64]*PendingAttempt{},
		latest: map[string]map[string]Latest{}, known: map[string]uint64{},
		alive: func(*audit.Proc, string) audit.Liveness { return audit.Unknown }}
}

// Follow builds p from every line of l, and keeps it current with every
// line any process appends. It returns how many keys are not spent. A
// process that opens its log for p does better to give Apply as the log's
// Options.Follow, then Attach: the log is read once.
func (p *Pending) Follow(l *audit.Log) (int, error) {
	if err := l.Follow(p.Apply); err != nil {
		return 0, err
	}
	return p.Attach(l), nil
}

// Attach tells p which process it reads for (its own attempts are on
// their way while it runs) and how to tell whether another runs, once l
// gives p its lines (Follow, or Options.Follow); it returns how many keys
// are not spent.
func (p *Pending) Attach(l *audit.Log) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.self, p.alive = l.Self().ID, l.Alive
	n := 0
	for _, acts := range p.byTarget {
		n += len(acts)
	}
	return n
}

// Apply takes one line of the log, in the file's order: p's follower of
// the log. A line applied a second time (a file read again from its
// start) changes nothing.
func (p *Pending) Apply(r audit.Record) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n++
	key := cmp.Or(r.MutationID, r.IntentID)
	if key == "" || r.Target.ID == "" {
		return
	}
	who := r.Who.String()
	switch {
	case r.Outcome == audit.OutcomeAttempt && r.Replaces != 0:
		// The attempt line of seq Replaces, written again whole after it
		// was torn or removed: the same attempt, its copy the line its
		// outcome names.
		at := p.bySeq[r.Replaces]
		if at == nil || at.ID != key {
			at = p.entry(r.Action, r.Target.ID, key, r.Time, who)
			at.At, at.Operator, at.Reason, at.last = r.Time, who, r.Reason, sender{proc: r.Proc, host: r.Host}
		}
		if s, ok := at.open[r.Replaces]; ok {
			delete(at.open, r.Replaces)
			at.open[r.Seq] = s
		} else {
			at.open[r.Seq] = sender{proc: r.Proc, host: r.Host}
		}
		delete(p.bySeq, r.Replaces)
		p.bySeq[r.Seq] = at
		if at.line == r.Replaces {
			at.line = r.Seq
		}
		return
	case r.Outcome == audit.OutcomeAttempt:
		at := p.entry(r.Action, r.Target.ID, key, r.Time, who)
		at.open[r.Seq] = sender{proc: r.Proc, host: r.Host}
		at.At, at.Operator, at.Reason, at.last = r.Time, who, r.Reason, sender{proc: r.Proc, host: r.Host}
		at.Kind, at.Before, at.n, at.line = r.Target.Kind, r.Target.Detail, p.n, r.Seq
		p.bySeq[r.Seq] = at
		p.setLatest(r, key, who)
		return
	case r.Attempt != 0:
		if ended(r.Outcome) {
			p.known[r.Target.ID] = p.n
		}
		at := p.bySeq[r.Attempt]
		if at == nil || at.ID != key {
			at = p.byTarget[r.Target.ID][r.Action]
		}
		if at == nil || at.ID != key {
			if ended(r.Outcome) {
				p.spend(r.Target.ID)
			}
			return
		}
		delete(at.open, r.Attempt)
		delete(p.bySeq, r.Attempt)
		p.setLatest(r, key, who)
		p.settle(at, r.Outcome, cmp.Or(r.ErrorCode, shorten(r.Error, 60), "no answer"))
	case r.Outcome == audit.OutcomeUnknown:
		// An outcome without its attempt line: a log written before
		// attempt lines were (an unknown outcome now always follows one).
		at := p.entry(r.Action, r.Target.ID, key, r.Time, who)
		at.At, at.Operator, at.Reason, at.last = r.Time, who, r.Reason, sender{proc: r.Proc, host: r.Host}
		at.Err = cmp.Or(r.ErrorCode, shorten(r.Error, 60), "no answer")
	case r.Outcome == audit.OutcomeDone, r.Outcome == audit.OutcomeFailed && r.Proc == nil:
		// A known outcome without its attempt line, from such a log (a
		// failure now without one is a failure before anything was sent).
		p.known[r.Target.ID] = p.n
		p.spend(r.Target.ID)
	}
	// Other lines (refused, cancelled, failed before anything was sent)
	// sent nothing: the keys are as they were.
}

// ended says whether outcome ends an attempt's key: the platform answered
// it (done, failed), or reconciling found it applied or spent.
func ended(outcome string) bool {
	return outcome == audit.OutcomeDone || outcome == audit.OutcomeFailed || outcome == audit.OutcomeSuperseded
}

// entry is the entry of action on target under key: the one there when it
// has that key, else a new one (which replaces one of another key: the
// log says the later was sent). The caller holds p.mu.
func (p *Pending) entry(action, target, key string, at time.Time, who string) *PendingAttempt {
	acts := p.byTarget[target]
	if acts == nil {
		acts = map[string]*PendingAttempt{}
		p.byTarget[target] = acts
	}
	e := acts[action]
	if e == nil || e.ID != key {
		e = &PendingAttempt{Action: action, Target: target, ID: key, First: at, FirstBy: who, open: map[uint64]sender{}}
		acts[action] = e
	}
	return e
}

func (p *Pending) setLatest(r audit.Record, key, who string) {
	acts := p.latest[r.Target.ID]
	if acts == nil {
		acts = map[string]Latest{}
		p.latest[r.Target.ID] = acts
	}
	l := Latest{n: p.n, Key: key, Outcome: r.Outcome, By: who, At: r.Time, From: from(r.Proc, r.Host)}
	if r.Outcome != audit.OutcomeAttempt {
		if prev, ok := acts[r.Action]; ok && prev.Key == key {
			l.n = prev.n // the attempt's place, with its outcome
		}
	}
	acts[r.Action] = l
}

// settle ends one attempt line of at as outcome; the caller holds p.mu.
func (p *Pending) settle(at *PendingAttempt, outcome, why string) {
	switch outcome {
	case audit.OutcomeUnknown:
		at.Err = why
	case audit.OutcomeDone, audit.OutcomeFailed, audit.OutcomeSuperseded:
		// The platform answered the key, or reconciling settled it: every
		// attempt line under it is settled (it applies a key at most
		// once), those of a process that ended before its answer
		// included.
		for seq := range at.open {
			delete(p.bySeq, seq)
		}
		clear(at.open)
		p.spend(at.Target)
	default: // refused or cancelled after its attempt line: nothing was sent
		if len(at.open) == 0 && at.Err == "" {
			p.drop(at)
		}
	}
}

// spend drops the keys of target that no attempt line without an outcome
// holds: a later decision on it is a new one. The caller holds p.mu.
func (p *Pending) spend(target string) {
	for _, at := range p.byTarget[target] {
		if len(at.open) == 0 {
			p.drop(at)
		}
	}
}

func (p *Pending) drop(at *PendingAttempt) {
	acts := p.byTarget[at.Target]
	if acts[at.Action] == at {
		delete(acts, at.Action)
	}
	if len(acts) == 0 {
		delete(p.byTarget, at.Target)
	}
}

// view is a copy of at as it stands now: its calls on their way (open
// lines whose process runs), and Interrupted when every open line's
// process ended. The caller holds p.mu.
func (p *Pending) view(at *PendingAttempt) PendingAttempt {
	v := *at
	v.open, v.From = nil, p.from(at.last)
	for _, s := range at.open {
		if p.runs(s) {
			v.InFlight++
		}
	}
	if v.InFlight == 0 && len(at.open) > 0 && v.Err == "" {
		v.Err = Interrupted
	}
	return v
}

// runs says whether the process of an attempt line still runs: this one,
// or one of this host that holds its mark. A process that cannot be told
// (another host, a line that names none) is taken as ended: its key is
// sent again, which the platform applies at most once.
func (p *Pending) runs(s sender) bool {
	if s.proc != nil && s.proc.ID == p.self {
		return true
	}
	return p.alive(s.proc, s.host) == audit.Alive
}

func (p *Pending) from(s sender) string {
	if s.proc != nil && s.proc.ID == p.self {
		return "this process"
	}
	return from(s.proc, s.host)
}

// from names a process and its host: "serve pid 4242 on bastion-1".
func from(proc *audit.Proc, host string) string {
	s := proc.String()
	if host != "" {
		s += " on " + host
	}
	return s
}

// Key is the idempotency key of the next attempt of an action, as a
// reading of the log gave it when the operator was asked.
type Key struct {
	ID string
	// Retry is the attempt whose key ID reuses (a copy); nil when ID is
	// new. Why says why it goes again: what the platform's record said of
	// it when it was reconciled (Actor.TxKey, EndpointKey, SweepKey).
	Retry *PendingAttempt
	Why   string
	// Settled are the keys left open on the record that reconciling
	// settled before this key was taken: each with what the platform's
	// record said, and the line written for it.
	Settled []Settlement
	// seen is the reading of the log the key was taken on; reconciled
	// says every open key on the record was judged by the platform's
	// record first: only then may an open key go again (decide).
	seen       uint64
	reconciled bool
}

// key is the key for the next attempt of action on target as the log
// says now: the open key of the same action (a retry, which decide sends
// only once reconciled), else a new one.
func (p *Pending) key(action, target string) Key {
	p.mu.Lock()
	defer p.mu.Unlock()
	if at := p.byTarget[target][action]; at != nil {
		v := p.view(at)
		return Key{ID: at.ID, Retry: &v, seen: p.n}
	}
	return Key{ID: NewKey(), seen: p.n}
}

// openOn returns the attempts on target whose key is not spent, of any
// action, as they stand now (on their way, interrupted or unknown), and
// the seqs of the attempt lines an outcome of each would end: those
// without an outcome, else (an unknown outcome) its last.
func (p *Pending) openOn(target string) ([]PendingAttempt, [][]uint64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []PendingAttempt
	var seqs [][]uint64
	for _, at := range p.byTarget[target] {
		v := p.view(at)
		v.n = at.n
		out = append(out, v)
		var ss []uint64
		for s := range at.open {
			ss = append(ss, s)
		}
		slices.Sort(ss)
		if len(ss) == 0 && at.line != 0 {
			ss = []uint64{at.line}
		}
		seqs = append(seqs, ss)
	}
	return out, seqs
}

// stillOpen says whether key is still open on target for action and its
// attempt line seq has no known outcome (the log read to its end: under
// its lock).
func (p *Pending) stillOpen(action, target, key string, seq uint64) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if at := p.bySeq[seq]; at != nil {
		return at.ID == key
	}
	at := p.byTarget[target][action]
	return at != nil && at.ID == key && at.line == seq
}

// supersededSince says whether an action on target ended known (done,
// failed, superseded) after the attempt at was written.
func (p *Pending) supersededSince(at PendingAttempt) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.known[at.Target] > at.n
}

// decide is the key an attempt of action on target sends, taken by the
// operator as k. One key is one intent on a record that has not moved:
// it refuses while any attempt on the record is on its way (ErrInFlight),
// when the log has, since k was taken, any attempt on the record
// (ErrSettled: the record may have moved; look again), and when an open
// key of the action was not reconciled with the platform when k was
// taken (ErrUnreconciled). Otherwise it is k's: the open key it
// reconciled as not applied (a retry, which ret names), or a new one.
// Call it with the log locked and read to its end
// (audit.Log.AppendDecided).
func (p *Pending) decide(action, target string, k Key) (id string, ret *PendingAttempt, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, at := range p.byTarget[target] {
		if v := p.view(at); v.InFlight > 0 {
			return "", nil, ErrInFlight{Attempt: v}
		}
	}
	for act, l := range p.latest[target] {
		if l.n > k.seen {
			return "", nil, ErrSettled{Action: act, Target: target, Latest: l}
		}
	}
	if at := p.byTarget[target][action]; at != nil {
		v := p.view(at)
		if !k.reconciled || k.Retry == nil || k.Retry.ID != at.ID {
			return "", nil, ErrUnreconciled{Attempt: v}
		}
		return at.ID, &v, nil
	}
	if k.Retry != nil {
		// The key it was to retry ended since it was taken.
		return "", nil, ErrSettled{Action: action, Target: target, Latest: p.latest[target][action]}
	}
	return k.ID, nil, nil
}

// ErrUnreconciled refuses to send again a key left open (interrupted or
// unknown) that was not reconciled with the platform's record when the
// operator was asked: whether the platform applied it, and whether the
// record moved since, decide whether it may go again.
type ErrUnreconciled struct{ Attempt PendingAttempt }

func (e ErrUnreconciled) Error() string {
	return fmt.Sprintf("nothing was sent: the %s of %s under %s (sent %s by %s) has no known outcome and was not reconciled with the platform when this was asked; look at the record again",
		e.Attempt.Action, e.Attempt.Target, e.Attempt.ID, e.Attempt.At.UTC().Format(time.TimeOnly+" UTC"), e.Attempt.Operator)
}

// ErrInFlight refuses an attempt while another attempt of the same action
// on the same target is on its way, from this process or another: the
// platform gets one request.
type ErrInFlight struct{ Attempt PendingAttempt }

func (e ErrInFlight) Error() string {
	return fmt.Sprintf("nothing was sent: the %s of %s is in flight from %s on %s, sent %s under %s; wait for its outcome",
		e.Attempt.Action, e.Attempt.Target, e.Attempt.Operator, e.Attempt.From, e.Attempt.At.UTC().Format(time.TimeOnly+" UTC"), e.Attempt.ID)
}

// ErrSettled refuses an attempt decided on an older reading of the log:
// since the operator was asked, an attempt of the same action on the same
// target was written (and may have done what this one asks).
type ErrSettled struct {
	Action, Target string
	Latest         Latest
}

func (e ErrSettled) Error() string {
	what := "ended " + e.Latest.Outcome
	if e.Latest.Outcome == audit.OutcomeAttempt {
		what = "was sent"
	}
	return fmt.Sprintf("nothing was sent: since this was asked, a %s of %s %s (by %s from %s, %s, key %s); look at the record again",
		e.Action, e.Target, what, e.Latest.By, e.Latest.From, e.Latest.At.UTC().Format(time.TimeOnly+" UTC"), e.Latest.Key)
}

// Unknown reports whether err leaves the outcome of an action unknown: the
// request may have been applied. A timeout, a connection lost, a 5xx
// (except 501, a method the interface does not have) or an answer that could
// not be read is unknown; a 4xx is a refusal and a refusal before anything
// was sent (read-only, no reason, a malformed key) is known. An error this
// cannot place is taken as unknown: reusing a key that was not needed costs
// nothing, while a new key for an action that was applied may apply it twice.
func Unknown(err error) bool {
	if err == nil || errors.As(err, new(ErrOutcomeUnaudited)) || errors.As(err, new(ErrSuperseded)) {
		return false
	}
	if ae, ok := apierr.As(err); ok {
		s := ae.HTTPStatus
		return !(s >= 400 && s < 500 || s == http.StatusNotImplemented)
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return true
	}
	return !notSent(err)
}

// notSent reports the refusals made before anything was sent: the
// session's, and the clients' own.
func notSent(err error) bool {
	return errors.Is(err, ErrReadOnly) || errors.Is(err, ErrNoReason) || errors.As(err, new(ErrInFlight)) ||
		errors.As(err, new(ErrSettled)) || errors.As(err, new(ErrUnreconciled)) || errors.As(err, new(ErrNotConfigured)) || errors.As(err, new(ErrUnaudited)) ||
		errors.As(err, new(refusal)) || refusedLocally(err)
}

// refusedLocally reports the clients' refusals made before anything was
// sent.
func refusedLocally(err error) bool {
	for _, known := range []error{walletclient.ErrNoID, walletclient.ErrNoReason, walletclient.ErrMutationID,
		walletclient.ErrTxNotVisible, custody.ErrNoSigner} {
		if errors.Is(err, known) {
			return true
		}
	}
	return false
}

// why says in a few words why err leaves an outcome unknown.
func why(err error) string {
	if ae, ok := apierr.As(err); ok {
		switch {
		case ae.HTTPStatus != 0:
			return strings.TrimSpace(fmt.Sprintf("HTTP %d %s", ae.HTTPStatus, ae.Label()))
		case ae.Class == apierr.ClassRetry:
			return "connection lost"
		}
		return ae.Class.String()
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "no answer in time"
	case errors.Is(err, context.Canceled):
		return "cancelled"
	}
	return err.Error()
}

// shorten cuts s to at most n runes, with an ellipsis.
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
