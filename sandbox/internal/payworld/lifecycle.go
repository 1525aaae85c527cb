package payworld

import (
	"container/heap"

	"treasury/sandbox/internal/simkit"
	"treasury/wire/money"
	"treasury/wire/payments"
	"treasury/wire/webhook"
)

// step is one state a payment enters, at a unix ms time.
type step struct {
	state payments.State
	at    int64
}

// maxSteps bounds the states a payment passes through.
const maxSteps = 6

// jitNotice is how long after INITIATED a just-in-time funded payment
// enters AWAITING_FUNDING.
const jitNotice = 1000

// steps lists the states p passes through, in order: INITIATED (from
// QUOTED) at creation, AWAITING_FUNDING for a just-in-time funded payment
// until its funds arrive (or, when they never do, DECLINED after its
// jitFundingExpiresAt), VALIDATING, then by outcome TRANSFERRING and
// COMPLETED (and RETURNED days later), FAILED, or DECLINED. A payment
// whose quote was never accepted stays QUOTED.
func (p *pay) steps() ([maxSteps]step, int) {
	var s [maxSteps]step
	c := p.created
	if p.outcome == oQuoted {
		s[0] = step{payments.Quoted, c}
		return s, 1
	}
	n := 0
	add := func(st payments.State, at int64) {
		s[n] = step{st, at}
		n++
	}
	add(payments.Initiated, c)
	if p.flags&fJIT != 0 {
		add(payments.AwaitingFunding, c+jitNotice)
	}
	if p.flags&fUnfunded != 0 { // its funds never came
		add(payments.Declined, c+int64(p.at[2]))
		return s, n
	}
	add(payments.Validating, c+int64(p.at[0]))
	switch p.outcome {
	case oCompleted:
		add(payments.Transferring, c+int64(p.at[1]))
		add(payments.Completed, c+int64(p.at[2]))
	case oReturned:
		add(payments.Transferring, c+int64(p.at[1]))
		add(payments.Completed, c+int64(p.at[2]))
		add(payments.Returned, c+int64(p.at[3]))
	case oFailedTransferring:
		add(payments.Transferring, c+int64(p.at[1]))
		add(payments.Failed, c+int64(p.at[2]))
	case oFailedValidating:
		add(payments.Failed, c+int64(p.at[2]))
	default:
		add(payments.Declined, c+int64(p.at[2]))
	}
	return s, n
}

// initiated reports whether p was ever initiated (a QUOTED payment was
// not: it has no initiatedAt).
func (p *pay) initiated() bool { return p.outcome != oQuoted }

// reached is when p entered st, and whether it did by unix ms t.
func (p *pay) reached(st payments.State, t int64) (int64, bool) {
	s, n := p.steps()
	for i := 0; i < n && s[i].at <= t; i++ {
		if s[i].state == st {
			return s[i].at, true
		}
	}
	return 0, false
}

// stateAt is p's state at unix ms t and when it was entered; the zero step
// before creation.
func (p *pay) stateAt(t int64) step {
	s, n := p.steps()
	for i := n - 1; i >= 0; i-- {
		if s[i].at <= t {
			return s[i]
		}
	}
	return step{}
}

// transitionsAt is the state history of p up to t (2.7, api-choices).
func (p *pay) transitionsAt(t int64) []transitionRecord {
	s, n := p.steps()
	out := make([]transitionRecord, 0, n)
	from := payments.Quoted
	for i := 0; i < n && s[i].at <= t; i++ {
		if s[i].state == payments.Quoted {
			continue // the first state, not a transition
		}
		out = append(out, transitionRecord{UpdatedFrom: from, UpdatedTo: s[i].state, UpdatedAt: ms(s[i].at)})
		from = s[i].state
	}
	return out
}

// pending is a payment's next state change, waiting in the queue.
type pending struct {
	at   int64
	seq  uint32
	step uint8
}

type queue []pending

func (q queue) Len() int { return len(q) }
func (q queue) Less(i, j int) bool {
	if q[i].at != q[j].at {
		return q[i].at < q[j].at
	}
	if q[i].seq != q[j].seq {
		return q[i].seq < q[j].seq
	}
	return q[i].step < q[j].step
}
func (q queue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *queue) Push(x any)   { *q = append(*q, x.(pending)) }
func (q *queue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

// advanceLocked moves the world to unix ms target: live payments arrive,
// every state change up to target is applied to the ledger in time order,
// and those at or after the clock's start are notified. w.mu must be held.
func (w *World) advanceLocked(target int64) {
	if target <= w.processed {
		return
	}
	for w.livePerMinute > 0 && w.nextLive <= target {
		seq := uint32(w.end())
		w.pays = append(w.pays, w.synthPay(seq, w.nextLive))
		w.indexID(seq)
		w.liveCount++
		w.nextLive += w.nextLiveGap(w.liveCount)
	}
	for {
		var ev pending
		arrival := w.nextArrival < w.end() && w.payment(uint32(w.nextArrival)).created <= target
		queued := len(w.queue) > 0 && w.queue[0].at <= target
		switch {
		case arrival && (!queued || w.payment(uint32(w.nextArrival)).created <= w.queue[0].at):
			ev = pending{at: w.payment(uint32(w.nextArrival)).created, seq: uint32(w.nextArrival)}
			w.nextArrival++
		case queued:
			ev = heap.Pop(&w.queue).(pending)
		default:
			w.processed = target
			w.prune()
			return
		}
		w.apply(ev)
	}
}

// apply makes one state change happen.
func (w *World) apply(ev pending) {
	p := w.payment(ev.seq)
	s, n := p.steps()
	if int(ev.step)+1 < n {
		heap.Push(&w.queue, pending{at: s[ev.step+1].at, seq: ev.seq, step: ev.step + 1})
	}
	if p.flags&fForeign != 0 {
		return
	}
	w.ledgerApply(ev.seq, p, s[ev.step].state, ev.at)
	// QUOTED is where a payment starts, not a change of state.
	if ev.at >= w.startMs && w.notify != nil && s[ev.step].state != payments.Quoted {
		w.notify(w.event(ev.seq, p, s[ev.step].state, ev.at, ev.step))
	}
}

// event is the PAYMENT_STATE_TRANSITION notification of a state change.
func (w *World) event(seq uint32, p *pay, st payments.State, at int64, stepIdx uint8) webhook.Event {
	c := w.corridorOf(p)
	return webhook.Event{
		ID: simkit.UUIDOf(w.seed, simkit.Key("event"), uint64(seq), uint64(stepIdx)), EventType: webhook.EventPaymentStateTransition,
		EventVersion: webhook.EventVersion, CreateDate: ms(at),
		EventData: webhook.EventData{
			PaymentID: w.paymentID(seq), ExpiresAt: ms(p.created).Add(expiry), CreatedAt: ms(p.created),
			SourceCurrency: c.src, SourceAmount: money.N(minor(p.amount)), DestinationCurrency: c.dst,
			PayoutAmount: money.N(w.destAmount(p)), PaymentState: st, BeneficiaryToken: w.bens[p.ben].id,
		},
	}
}
