// Package hooksim delivers the sandbox's PAYMENT_STATE_TRANSITION
// notifications as spec 6.1 says: POSTed to the registered https callback,
// signed over timestamp + "." + raw body, a success being any 2xx; on any
// other outcome retried 30 s after the first failure and then at doubling
// intervals capped at one hour, up to 75 attempts or 72 hours. Retry delays
// and the signature timestamp are sandbox time, so --speed shortens the
// delays and a frozen clock holds them, and the timestamp is on the
// platform's clock as a real platform's is.
//
// To exercise clients, a configurable share of notifications is delivered
// twice (same id) and a share is held back and delivered after the next one.
package hooksim

import (
	"bytes"
	"context"
	"crypto"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"net/http"
	"sort"
	"sync"
	"time"

	"treasury/sandbox/internal/simkit"
	"treasury/wire/webhook"
)

// Retry schedule of spec 6.1 and part 8.
const (
	FirstRetryDelay = 30 * time.Second
	MaxRetryDelay   = time.Hour
	MaxAttempts     = 75
	MaxRetrySpan    = 72 * time.Hour
	// MaxPending bounds the queue; beyond it the oldest delivery is dropped
	// (and logged) so a dead callback cannot grow memory without bound.
	MaxPending = 10000
	// holdLimit is how long a held-back notification waits for a successor.
	holdLimit = 30 * time.Second
)

// Settings say where and how to deliver.
type Settings struct {
	URL           string
	RootCAs       *x509.CertPool
	HeaderPrefix  string
	DuplicateRate float64
	ReorderRate   float64
}

// Stats count what happened to notifications.
type Stats struct {
	Enqueued  int // events accepted (a duplicate counts once more)
	Delivered int // deliveries answered 2xx
	Failed    int // attempts answered otherwise or not answered
	Abandoned int // deliveries given up after MaxAttempts or MaxRetrySpan
	Dropped   int // deliveries dropped because the queue was full
	Pending   int
}

type delivery struct {
	id       string
	body     []byte
	due      time.Time // sandbox time
	first    time.Time // sandbox time of the first attempt, zero before
	attempts int
	seq      uint64 // enqueue order, breaks ties on due
}

// Deliverer queues and delivers notifications. It is safe for concurrent use.
type Deliverer struct {
	env *simkit.Env
	key crypto.Signer

	mu      sync.Mutex
	set     Settings
	client  *http.Client
	queue   []*delivery
	held    *delivery
	heldAt  time.Time
	seq     uint64
	stats   Stats
	wake    chan struct{}
	stop    chan struct{}
	stopped chan struct{}
	once    sync.Once
}

// New returns a deliverer signing with key; it delivers until Close.
func New(env *simkit.Env, key crypto.Signer, s Settings) *Deliverer {
	d := &Deliverer{env: env, key: key, wake: make(chan struct{}, 1), stop: make(chan struct{}), stopped: make(chan struct{})}
	d.Set(s)
	go d.run()
	return d
}

// Set changes the settings; pending deliveries go to the new URL.
func (d *Deliverer) Set(s Settings) {
	if s.HeaderPrefix == "" {
		s.HeaderPrefix = webhook.DefaultHeaderPrefix
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig = &tls.Config{RootCAs: s.RootCAs, MinVersion: tls.VersionTLS12}
	d.mu.Lock()
	d.set = s
	d.client = &http.Client{Transport: tr, Timeout: 5 * time.Second}
	d.mu.Unlock()
	d.poke()
}

// Stats returns the counters.
func (d *Deliverer) Stats() Stats {
	d.mu.Lock()
	defer d.mu.Unlock()
	s := d.stats
	s.Pending = len(d.queue)
	if d.held != nil {
		s.Pending++
	}
	return s
}

// Enqueue queues ev for delivery now; it never blocks. Without a callback
// URL the event is not kept: notifications go to a registered address only.
func (d *Deliverer) Enqueue(ev webhook.Event) {
	d.mu.Lock()
	none := d.set.URL == ""
	d.mu.Unlock()
	if none {
		return // nothing to encode either
	}
	body, err := json.Marshal(ev)
	if err != nil {
		d.env.Log("webhook: encode %s: %v", ev.ID, err)
		return
	}
	now := d.env.Clock.Now()
	d.mu.Lock()
	if d.set.URL == "" {
		d.mu.Unlock()
		return
	}
	it := &delivery{id: ev.ID, body: body, due: now}
	dup := simkit.Roll(d.set.DuplicateRate)
	hold := simkit.Roll(d.set.ReorderRate)
	if d.held != nil {
		// The held notification goes after this one: out of order.
		d.push(it)
		d.held.due = now
		d.push(d.held)
		d.held = nil
	} else if hold {
		d.held, d.heldAt = it, now
	} else {
		d.push(it)
	}
	d.stats.Enqueued++
	if dup {
		d.push(&delivery{id: ev.ID, body: body, due: now})
		d.stats.Enqueued++
	}
	d.mu.Unlock()
	d.poke()
}

// push appends under d.mu, dropping the oldest when full.
func (d *Deliverer) push(it *delivery) {
	d.seq++
	it.seq = d.seq
	if len(d.queue) >= MaxPending {
		d.env.Log("webhook: queue full, dropping notification %s", d.queue[0].id)
		d.queue = d.queue[1:]
		d.stats.Dropped++
	}
	d.queue = append(d.queue, it)
}

func (d *Deliverer) poke() {
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// Close stops delivery; pending notifications are dropped.
func (d *Deliverer) Close() error {
	d.once.Do(func() { close(d.stop) })
	<-d.stopped
	return nil
}

func (d *Deliverer) run() {
	defer close(d.stopped)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-d.stop:
			return
		case <-d.wake:
		case <-tick.C:
		}
		for {
			it, set, client := d.next()
			if it == nil {
				break
			}
			ok := d.send(it, set, client)
			d.done(it, ok)
			select {
			case <-d.stop:
				return
			default:
			}
		}
	}
}

// next takes the earliest due delivery, if any is due.
func (d *Deliverer) next() (*delivery, Settings, *http.Client) {
	now := d.env.Clock.Now()
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.held != nil && now.Sub(d.heldAt) >= holdLimit {
		d.held.due = now
		d.queue = append(d.queue, d.held)
		d.held = nil
	}
	if len(d.queue) == 0 || d.set.URL == "" {
		return nil, d.set, nil
	}
	sort.SliceStable(d.queue, func(i, j int) bool {
		if !d.queue[i].due.Equal(d.queue[j].due) {
			return d.queue[i].due.Before(d.queue[j].due)
		}
		return d.queue[i].seq < d.queue[j].seq
	})
	if d.queue[0].due.After(now) {
		return nil, d.set, nil
	}
	it := d.queue[0]
	d.queue = d.queue[1:]
	return it, d.set, d.client
}

func (d *Deliverer) send(it *delivery, set Settings, client *http.Client) bool {
	// Signed at the platform's time, as a real platform signs on its own
	// clock: a sandbox running faster than real time, or started at
	// another time, signs ahead of or behind the receiver's host, and a
	// receiver judges the timestamp against the platform's clock.
	ts := webhook.Timestamp(d.env.Clock.Now())
	sig, err := webhook.Sign(d.key, ts, it.body)
	if err != nil {
		d.env.Log("webhook: sign %s: %v", it.id, err)
		return false
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-d.stop:
			cancel()
		case <-ctx.Done():
		}
	}()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, set.URL, bytes.NewReader(it.body))
	if err != nil {
		d.env.Log("webhook: request for %s: %v", it.id, err)
		return false
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(webhook.SignatureHeader(set.HeaderPrefix), sig)
	req.Header.Set(webhook.TimestampHeader(set.HeaderPrefix), ts)
	resp, err := client.Do(req)
	if err != nil {
		d.env.Log("webhook: deliver %s: %v", it.id, err)
		return false
	}
	resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		d.env.Log("webhook: deliver %s: HTTP %d", it.id, resp.StatusCode)
		return false
	}
	return true
}

// done records an attempt and schedules the retry of a failed one.
func (d *Deliverer) done(it *delivery, ok bool) {
	now := d.env.Clock.Now()
	d.mu.Lock()
	defer d.mu.Unlock()
	if ok {
		d.stats.Delivered++
		return
	}
	d.stats.Failed++
	if it.first.IsZero() {
		it.first = now
	}
	it.attempts++
	if it.attempts >= MaxAttempts || now.Sub(it.first) >= MaxRetrySpan {
		d.stats.Abandoned++
		d.env.Log("webhook: giving up on %s after %d attempts", it.id, it.attempts)
		return
	}
	it.due = now.Add(RetryDelay(it.attempts))
	d.push(it)
}

// RetryDelay is the wait after the n-th failed attempt (n >= 1): 30 s, then
// doubling, capped at one hour.
func RetryDelay(n int) time.Duration {
	delay := FirstRetryDelay
	for i := 1; i < n && delay < MaxRetryDelay; i++ {
		delay *= 2
	}
	if delay > MaxRetryDelay {
		delay = MaxRetryDelay
	}
	return delay
}
