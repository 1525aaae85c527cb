package actions

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"treasury/desk/audit"
	"treasury/kit/parallel"
	"treasury/wire/custody"
	"treasury/wire/transport"
	"treasury/wire/wallet"
	walletclient "treasury/wire/wallet/client"
)

// A batch is one action on several records (the marked transactions of
// one fraud ring), confirmed once with one reason. Each record is its own
// attempt with its own key and its own outcome, as if it had been
// confirmed alone; what the batch adds is the order of the record: every
// record's attempt line is written (each key decided under the log's lock,
// each request built under its key) before the first request leaves, so
// that a crash part-way leaves every record the batch meant to send open
// in the log, under the key it recorded. A retry (Plan) then sends
// exactly those again, with the same keys, and nothing that was done.

// atOnce is how many requests of a batch are on their way at once.
const atOnce = 4

// builder makes an action's request under the key decided for it: local
// work (a body, a signature), done with the log locked.
type builder func(key string) (transport.Mutation, error)

// step is one record's part of an action: its attempt, the key the
// operator was shown (Key), where its request goes (prepare: reads
// allowed, nothing sent) and how it is sent (call: under key, a retry
// when the key was sent before; it says what the platform holds, as its
// answer or a read after it says: confirm.go).
type step struct {
	at      *Attempt
	k       Key
	prepare func() (builder, error)
	call    func(m transport.Mutation, key string, retry bool) (answer, error)
}

// Result is how one record's attempt ended: what it sent (its key, and
// whether it retried another's), and nil, or why it was not done
// (refused, failed, unknown: Applied, Unknown tell them apart).
type Result struct {
	Sent Sent
	Err  error
}

// send runs one attempt (run of one step).
func (a *Actor) send(at *Attempt, k Key, prepare func() (builder, error), call func(transport.Mutation, string, bool) (answer, error)) (Sent, error) {
	r := a.run([]step{{at: at, k: k, prepare: prepare, call: call}})
	return r[0].Sent, r[0].Err
}

// run runs the steps of one confirmation. A step is refused when the
// session may not act (Can). Each is then prepared, up to atOnce at
// once: a failure to resolve where its request goes sends nothing and
// is recorded. Then, one step at a time, with the log locked and read to
// its end, its key is decided (Pending.decide: refused while the same
// action on the same target is in flight, or was settled since its key
// was taken), its request built under that key and its attempt line,
// naming the request as built, appended and synced. Only once every
// attempt line is written do the requests leave, up to atOnce at once,
// each exactly as recorded, each outcome recorded as it ends. An attempt
// line that cannot be written refuses that step (ErrUnaudited): its
// request is never sent.
func (a *Actor) run(steps []step) []Result {
	out := make([]Result, len(steps))
	builds := make([]builder, len(steps))
	each(len(steps), func(i int) {
		s := steps[i]
		if err := a.Can(s.at.Action); err != nil {
			out[i].Err = a.record(*s.at, err, answer{}, 0)
			return
		}
		b, err := s.prepare()
		if err != nil {
			out[i].Err = a.record(*s.at, beforeSend{err}, answer{}, 0)
			return
		}
		builds[i] = b
	})
	ms := make([]transport.Mutation, len(steps))
	seqs := make([]uint64, len(steps))
	for i, s := range steps {
		if builds[i] == nil {
			continue
		}
		decide := func() (audit.Record, error) {
			key, retry, err := a.pending.decide(s.at.Action, s.at.Target.ID, s.k)
			if err != nil {
				return audit.Record{}, refusal{err}
			}
			if ms[i], err = builds[i](key); err != nil {
				return audit.Record{}, refusal{err}
			}
			s.at.setKey(key)
			out[i].Sent = Sent{Key: key, Retry: retry, Request: ms[i].Line()}
			return a.line(*s.at, audit.OutcomeAttempt, ms[i]), nil
		}
		var err error
		if a.log == nil {
			_, err = decide()
		} else {
			var r audit.Record
			r, err = a.log.AppendDecided(decide)
			seqs[i] = r.Seq
		}
		switch {
		case errors.As(err, new(refusal)):
			out[i].Err, builds[i] = a.record(*s.at, err, answer{}, 0), nil
		case err != nil:
			out[i].Err, builds[i] = a.record(*s.at, refusal{ErrUnaudited{err}}, answer{}, 0), nil
		}
	}
	each(len(steps), func(i int) {
		if builds[i] == nil {
			return
		}
		s := steps[i]
		ans, err := s.call(ms[i], out[i].Sent.Key, out[i].Sent.Retry != nil)
		out[i].Sent.Evidence, out[i].Sent.Holds = ans.evidence, ans.holds
		if sup, ok := superseded(err); ok {
			out[i].Sent.Evidence, out[i].Sent.Holds = sup.Evidence, sup.Holds
		}
		out[i].Err = a.record(*s.at, err, ans, seqs[i])
	})
	return out
}

// runReasoned runs the steps of an action that needs a reason (every one
// but a sweep): without one, each is refused (ErrNoReason) and recorded,
// and nothing is sent.
func (a *Actor) runReasoned(reason string, steps []step) []Result {
	if strings.TrimSpace(reason) != "" {
		return a.run(steps)
	}
	out := make([]Result, len(steps))
	for i, s := range steps {
		out[i].Err = a.record(*s.at, ErrNoReason, answer{}, 0)
	}
	return out
}

// Results are the results of a batch without what each answered.
func Results[R interface{ result() Result }](rs []R) []Result {
	out := make([]Result, len(rs))
	for i, r := range rs {
		out[i] = r.result()
	}
	return out
}

func (r TxResult) result() Result       { return r.Result }
func (r EndpointResult) result() Result { return r.Result }

// each calls f for 0..n-1, up to atOnce at once (in line for one); f
// keeps each step's outcome.
func each(n int, f func(i int)) { parallel.Each(n, atOnce, f) }

// TxItem is one transaction of a freeze or unfreeze: the transaction as
// read when the operator was asked, where its request goes (FreezeRoute;
// resolved when zero) and the key taken then (Key, Plan).
type TxItem struct {
	Tx    wallet.Transaction
	Route walletclient.Route
	Key   Key
}

// TxResult is how a transaction's freeze or unfreeze ended, and the
// transaction as the platform answered (zero unless it was done).
type TxResult struct {
	Result
	Tx wallet.Transaction
}

// FreezeTxs freezes (freeze true) or unfreezes each transaction of items
// with one reason, each its own attempt under its own key (run): the
// results are in the items' order.
func (a *Actor) FreezeTxs(ctx context.Context, items []TxItem, freeze bool, reason string) []TxResult {
	out := make([]TxResult, len(items))
	steps := make([]step, len(items))
	for i, it := range items {
		at := TxAttempt(it.Tx, freeze, reason, it.Key.ID)
		rt, got := it.Route, &out[i].Tx
		steps[i] = step{at: &at, k: it.Key, prepare: func() (builder, error) {
			if rt.Path == "" {
				var err error
				if rt, _, err = a.FreezeRoute(ctx, it.Tx, freeze); err != nil {
					return nil, err
				}
			}
			return func(key string) (transport.Mutation, error) { return rt.Freeze(reason, key) }, nil
		}, call: func(m transport.Mutation, key string, retry bool) (answer, error) {
			tx, err := a.c.Transactions.SendFreeze(ctx, rt, m)
			if err != nil {
				return answer{}, err
			}
			ans, now, err := a.confirmFreeze(ctx, rt.Ref(), freeze, key, tx, retry)
			if err == nil {
				*got = now
			}
			return ans, err
		}}
	}
	for i, r := range a.runReasoned(reason, steps) {
		out[i].Result = r
	}
	return out
}

// FreezeTx freezes (freeze true) or unfreezes a wallet transaction with a
// reason, to rt (FreezeRoute; resolved here when zero), under the key k
// taken when the operator was asked (Key).
func (a *Actor) FreezeTx(ctx context.Context, rt walletclient.Route, tx wallet.Transaction, freeze bool, reason string, k Key) (wallet.Transaction, Sent, error) {
	r := a.FreezeTxs(ctx, []TxItem{{Tx: tx, Route: rt, Key: k}}, freeze, reason)[0]
	return r.Tx, r.Sent, r.Err
}

// EndpointItem is one custody endpoint of a lock or unlock, and the key
// taken when the operator was asked (Key, Plan).
type EndpointItem struct {
	Endpoint custody.Endpoint
	Key      Key
}

// EndpointResult is how an endpoint's lock or unlock ended: its intent,
// accepted (not yet applied: follow it with Intent) when it was done.
type EndpointResult struct {
	Result
	Accepted custody.IntentAccepted
}

// LockEndpoints locks (lock true) or unlocks each endpoint of items with
// a signed intent under its key, with one reason carried as each intent's
// custom property "reason" for its approvers; each is its own attempt
// (run), and the results are in the items' order. Each endpoint's
// revision is read first.
func (a *Actor) LockEndpoints(ctx context.Context, items []EndpointItem, lock bool, reason string) []EndpointResult {
	out := make([]EndpointResult, len(items))
	payload := custody.PayloadUnlock
	if lock {
		payload = custody.PayloadLock
	}
	steps := make([]step, len(items))
	for i, it := range items {
		at := EndpointAttempt(it.Endpoint, lock, reason, it.Key.ID)
		got, id := &out[i].Accepted, it.Endpoint.ID
		steps[i] = step{at: &at, k: it.Key, prepare: func() (builder, error) {
			rt, err := a.c.Custody.IntentRoute(ctx, payload, id)
			if err != nil {
				return nil, err
			}
			props := map[string]string{PropReason: strings.TrimSpace(reason)}
			return func(key string) (transport.Mutation, error) { return rt.Build(key, props) }, nil
		}, call: func(m transport.Mutation, key string, retry bool) (answer, error) {
			var err error
			if *got, err = a.c.Custody.Submit(ctx, m); err != nil {
				return answer{requestID: got.RequestID}, err
			}
			return a.confirmIntent(ctx, id, lock, key, *got, retry)
		}}
	}
	for i, r := range a.runReasoned(reason, steps) {
		out[i].Result = r
	}
	return out
}

// LockEndpoint locks (lock true) or unlocks a custody endpoint with a signed
// intent under the key k (Key), carrying the operator's reason as the
// intent's custom property "reason" for its approvers. The endpoint's
// revision is read first. The intent is accepted, not yet applied: follow
// it with Intent.
func (a *Actor) LockEndpoint(ctx context.Context, ep custody.Endpoint, lock bool, reason string, k Key) (custody.IntentAccepted, Sent, error) {
	r := a.LockEndpoints(ctx, []EndpointItem{{Endpoint: ep, Key: k}}, lock, reason)[0]
	return r.Accepted, r.Sent, r.Err
}

// Planned is one record of a batch as its confirmation shows it: the key
// it would go under, and why it is left out ("" when it goes).
type Planned struct {
	Key Key
	Out string
}

// Plan takes the key of the batch's action on each of n records, up to
// four at once, each reconciled with the platform's record first (key:
// TxKey, EndpointKey), and says which records go. A record whose open
// key reconciling found not applied, on a record that has not moved, goes
// again under that key (the platform applies it at most once); one whose
// attempt of any action is on its way now is left out (its answer will
// settle it), and so is one that could not be reconciled; any other goes
// unless ruled(i) says why its state, read when the dialog opened, rules
// the action out ("frozen already"). After a crash, the batch confirmed
// again sends exactly the attempts the crash left open and the platform
// did not apply, with their keys; those it applied are recorded done,
// and their state rules them out.
func (a *Actor) Plan(ctx context.Context, n int, key func(ctx context.Context, i int) (Key, error), ruled func(i int) string) []Planned {
	out := make([]Planned, n)
	each(n, func(i int) {
		k, err := key(ctx, i)
		out[i].Key = k
		var inFlight ErrInFlight
		switch {
		case errors.As(err, &inFlight):
			at := inFlight.Attempt
			out[i].Out = fmt.Sprintf("its %s is on its way from %s (%s %s): its answer settles it", at.Action, at.From, keyName(at.Action), at.ID)
		case err != nil:
			out[i].Out = "could not be reconciled with the platform just now: " + err.Error()
		case k.Retry != nil:
		default:
			out[i].Out = ruled(i)
		}
	})
	return out
}

// keyName is what the platform calls action's idempotency key.
func keyName(action string) string {
	if action == Lock || action == Unlock {
		return "intent id"
	}
	return "mutationId"
}
