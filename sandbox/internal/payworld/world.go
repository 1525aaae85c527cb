package payworld

import (
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/shopspring/decimal"

	"treasury/sandbox/internal/authsim"
	"treasury/sandbox/internal/simkit"
	"treasury/wire/webhook"
)

// expiry is how long after creation a payment expires (expiresAt).
const expiry = 72 * time.Hour

// beneficiaryCount is the size of the org's beneficiary directory.
const beneficiaryCount = 240

// World is the payments world. It is safe for concurrent use.
type World struct {
	env           *simkit.Env
	auth          authorizer
	org           string
	seed          uint64
	kPay          uint64 // simkit.Key("payment")
	livePerMinute float64
	spec          bool
	notify        func(webhook.Event)
	startMs       int64
	from          int64 // unix ms of the first history instant
	corr          []corridor
	sources       []string // the prefunded accounts' currencies
	origs, bens   []identity
	benIndex      map[string]int

	mu          sync.RWMutex
	pays        []pay             // payments base, base+1, ... (the older ones are pruned)
	base        int               // the sequence number of pays[0]
	held        map[uint32]*pay   // pruned from pays but still moving (a return due)
	byID        map[uint64]uint32 // first 64 bits of the payment id -> seq
	created     map[uint32]*createdInfo
	byInternal  map[string]uint32 // internalIds of created payments
	quotes      map[string]*quote
	accounts    []account // one per source currency
	queue       queue
	nextArrival int // next payment whose INITIATED is not applied
	retain      time.Duration
	nextPrune   int64 // unix ms of the next pruning
	processed   int64 // unix ms up to which state changes are applied
	nextLive    int64 // unix ms of the next live arrival
	liveCount   uint64
	quoteCount  uint64

	stop chan struct{}
	done chan struct{}
}

// New builds the payments world: the directory, the history before the
// clock's start (with its ledger), and, unless the clock is frozen, a
// ticker that keeps the world moving so notifications flow without
// requests. Requests also bring the world up to the clock first.
func New(env *simkit.Env, opts Options) (*World, error) {
	if env == nil || env.Clock == nil {
		return nil, errors.New("payworld: an env with a clock is required")
	}
	if opts.Accounts < 0 || opts.Accounts > MaxAccounts {
		return nil, fmt.Errorf("payworld: accounts must be 1 to %d (0: %d)", MaxAccounts, DefaultAccounts)
	}
	if opts.HistoryPayments < 0 || opts.LivePerMinute < 0 {
		return nil, fmt.Errorf("payworld: history payments and live rate must not be negative")
	}
	if opts.Org == "" {
		opts.Org = "sandbox-org"
	}
	start := env.Clock.Now()
	w := &World{
		env: env, org: opts.Org, seed: env.Seed, kPay: simkit.Key("payment"),
		livePerMinute: opts.LivePerMinute, spec: opts.Spec, notify: opts.Notify, startMs: start.UnixMilli(),
		sources: sourceCurrencies(opts.Accounts), byID: map[uint64]uint32{}, created: map[uint32]*createdInfo{},
		byInternal: map[string]uint32{}, quotes: map[string]*quote{}, held: map[uint32]*pay{}, retain: opts.Retain,
		stop: make(chan struct{}), done: make(chan struct{}),
	}
	if opts.Auth != nil {
		w.auth = opts.Auth
	}
	w.corr, w.accounts = corridorTable(w.sources), make([]account, len(w.sources))
	from := historyStart(start)
	w.from = from.UnixMilli()
	w.origs, w.bens = buildDirectory(w.seed, from, beneficiaryCount, w.sources, w.corr)
	w.benIndex = make(map[string]int, len(w.bens))
	for i, b := range w.bens {
		w.benIndex[b.id] = i
	}
	times := historyTimes(w.seed, opts.HistoryPayments, from, start)
	if len(times) == 0 {
		times = []int64{start.Add(-time.Hour).UnixMilli()}
	}
	w.pays = make([]pay, len(times), len(times)+len(times)/8+64)
	for i, t := range times {
		w.pays[i] = w.synthPay(uint32(i), t)
		w.indexID(uint32(i))
	}
	w.pays[len(w.pays)/2].flags |= fForeign
	for i := range w.accounts {
		w.accounts[i].add(entry{at: w.from, amount: openingMajor * 100, seq: bankSeq, op: opCredit})
	}
	if w.livePerMinute > 0 {
		w.nextLive = w.startMs + w.nextLiveGap(0)
	}
	w.processed = w.from - 1
	w.advanceLocked(w.startMs - 1)
	if env.Clock.Frozen() {
		close(w.done)
	} else {
		go w.tick()
	}
	return w, nil
}

// authorizer is the part of authsim.Issuer the world uses.
type authorizer interface {
	Authorize(w http.ResponseWriter, r *http.Request, scope string) (authsim.Claims, bool)
}

// tick advances the world about once a second of real time, so
// notifications go out while nobody asks.
func (w *World) tick() {
	defer close(w.done)
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-w.stop:
			return
		case <-t.C:
			w.Advance()
		}
	}
}

// Advance brings the world up to the sandbox clock.
func (w *World) Advance() {
	now := w.env.Clock.Now().UnixMilli()
	w.mu.RLock()
	done := now <= w.processed
	w.mu.RUnlock()
	if done {
		return
	}
	w.mu.Lock()
	w.advanceLocked(now)
	w.mu.Unlock()
}

// Close stops the ticker.
func (w *World) Close() error {
	select {
	case <-w.stop:
	default:
		close(w.stop)
	}
	<-w.done
	return nil
}

// Samples names records worth knowing for manual tests.
func (w *World) Samples() map[string]string {
	w.Advance()
	w.mu.RLock()
	defer w.mu.RUnlock()
	out := map[string]string{}
	for seq := w.base; seq < w.end(); seq++ {
		p := w.payment(uint32(seq))
		if p.flags&fForeign != 0 {
			out["foreign_payment_id"] = w.paymentID(uint32(seq))
			continue
		}
		st := p.stateAt(w.processed)
		key := strings.ToLower(string(st.state)) + "_payment_id"
		if _, ok := out[key]; !ok {
			out[key] = w.paymentID(uint32(seq))
		}
	}
	out["internal_id"] = internalIDOf(uint32(w.end() - 1))
	out["beneficiary_identity_id"] = w.bens[0].id
	out["originator_identity_id"] = w.origs[0].id
	return out
}

// paymentID is the id of payment seq.
func (w *World) paymentID(seq uint32) string { return simkit.UUIDOf(w.seed, w.kPay, uint64(seq)) }

// idKey is the map key of an id: its first 64 bits.
func idKey(id string) (uint64, bool) {
	if len(id) != 36 {
		return 0, false
	}
	b, err := hex.DecodeString(id[0:8] + id[9:13] + id[14:18])
	if err != nil {
		return 0, false
	}
	var k uint64
	for _, x := range b {
		k = k<<8 | uint64(x)
	}
	return k, true
}

func (w *World) indexID(seq uint32) { w.byID[idIndexKey(w.seed, w.kPay, seq)] = seq }

// idIndexKey is the byID key of payment seq: the first 64 bits of its id.
func idIndexKey(seed, kPay uint64, seq uint32) uint64 {
	h := simkit.Mix(seed, kPay, uint64(seq))
	return (h &^ 0xf000) | 0x4000
}

// lookup finds a payment by id. w.mu must be held.
func (w *World) lookup(id string) (uint32, bool) {
	k, ok := idKey(strings.ToLower(id))
	if !ok {
		return 0, false
	}
	seq, ok := w.byID[k]
	if !ok || int(seq) >= w.nextArrival || w.payment(seq) == nil || w.paymentID(seq) != strings.ToLower(id) {
		return 0, false
	}
	return seq, true
}

// internalIDOf is the client-assigned id of a generated payment.
func internalIDOf(seq uint32) string { return fmt.Sprintf("INV-%07d", seq+1) }

// lookupInternal finds a payment by internalId. w.mu must be held.
func (w *World) lookupInternal(id string) (uint32, bool) {
	if seq, ok := w.byInternal[id]; ok {
		return seq, true
	}
	if !strings.HasPrefix(id, "INV-") {
		return 0, false
	}
	n, err := strconv.ParseUint(id[4:], 10, 32)
	if err != nil || n == 0 || int(n-1) >= w.nextArrival || internalIDOf(uint32(n-1)) != id {
		return 0, false
	}
	if p := w.payment(uint32(n - 1)); p == nil || p.flags&fCreated != 0 {
		return 0, false
	}
	return uint32(n - 1), true
}

func (w *World) internalID(seq uint32) string {
	if c := w.created[seq]; c != nil {
		return c.internalID
	}
	return internalIDOf(seq)
}

// payment is payment seq, nil when it was pruned. w.mu must be held.
func (w *World) payment(seq uint32) *pay {
	if i := int(seq) - w.base; i >= 0 && i < len(w.pays) {
		return &w.pays[i]
	}
	return w.held[seq]
}

// end is the sequence number the next payment gets. w.mu must be held.
func (w *World) end() int { return w.base + len(w.pays) }

func (w *World) corridorOf(p *pay) corridor { return w.corr[w.bens[p.ben].corridor] }

// spotRate is the corridor's mid rate at unix ms t: a smooth random walk of
// about 1.5% around the base rate.
func (w *World) spotRate(ci int, t int64) decimal.Decimal {
	c := w.corr[ci]
	days := float64(t-w.from) / 86_400_000
	v := c.rate * (1 + 0.015*simkit.Walk(simkit.Mix(w.seed, simkit.Key("rate"), uint64(ci)), days/5, 3))
	return decimal.NewFromFloat(v).Round(6)
}

// quotedRate is the rate corridor ci converts at at unix ms t: spot less
// 0.4% spread.
func (w *World) quotedRate(ci int, t int64) decimal.Decimal {
	return w.spotRate(ci, t).Mul(decimal.RequireFromString("0.996")).Round(6)
}

// appliedRate is the rate the payment converts at: the quoted rate at its
// creation.
func (w *World) appliedRate(p *pay) decimal.Decimal {
	return w.quotedRate(w.bens[p.ben].corridor, p.created)
}

func (w *World) destAmount(p *pay) decimal.Decimal {
	return minor(p.amount).Mul(w.appliedRate(p)).Round(2)
}

func (w *World) fee(p *pay) decimal.Decimal {
	return minor(w.corridorOf(p).feeMinor + p.amount/1000)
}

func ms(t int64) time.Time { return time.UnixMilli(t).UTC() }
