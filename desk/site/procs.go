package site

import (
	"context"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// ProcsBucket is where each process that writes the site's record says
// it runs: a key per process, put again every procBeat, gone ProcTTL
// after its last put. Another bastion's attempt without an outcome is on
// its way while its process's key is fresh, interrupted once it is not
// (what procs/<id>.lock says on one host).
const ProcsBucket = "TREASURY_PROCS"

const procBeat = 3 * time.Second

// ProcTTL is how long after its last put a process's key lasts: its
// attempts are in flight (refused to another bastion's operator, not
// retried) until then.
const ProcTTL = 10 * time.Second

// lives is what this host knows of the site's processes: when each last
// said it runs, as the bucket's watcher saw it.
type lives struct {
	once sync.Once
	mu   sync.Mutex
	seen map[string]time.Time
}

func (s *Site) procsBucket(ctx context.Context) (jetstream.KeyValue, error) {
	if err := s.connected(); err != nil {
		return nil, err
	}
	// On file, as the lease's bucket (pollerBucket says why).
	return s.fileBucket(ctx, jetstream.KeyValueConfig{Bucket: ProcsBucket,
		Description: "treasury: the processes that write the site's record, each while it runs", History: 1,
		TTL: ProcTTL, Storage: jetstream.FileStorage, Replicas: s.opts.Replicas})
}

// Register says, until stop, that the process procID runs.
func (r *Record) Register(procID string) (stop func()) {
	r.s.lives.once.Do(func() { go r.s.watchProcs() }) // a writer asks of the others: know them from now
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		var kv jetstream.KeyValue
		for {
			if kv == nil {
				wctx, c := context.WithTimeout(ctx, replicaWaitSite)
				kv, _ = r.s.procsBucket(wctx)
				c()
			}
			if kv != nil {
				wctx, c := context.WithTimeout(ctx, replicaWaitSite)
				_, _ = kv.Put(wctx, procID, []byte(r.s.opts.Node))
				c()
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(procBeat):
			}
		}
	}()
	return func() {
		cancel()
		<-done
		ctx, c := context.WithTimeout(context.Background(), time.Second)
		defer c()
		if kv, err := r.s.procsBucket(ctx); err == nil {
			_ = kv.Delete(ctx, procID) // ended: its attempts are interrupted at once
		}
	}
}

// Alive says whether the process procID said it runs within ProcTTL
// (alive), and whether this host has heard of it at all (known).
func (r *Record) Alive(procID string) (alive, known bool) {
	l := &r.s.lives
	l.once.Do(func() { go r.s.watchProcs() })
	l.mu.Lock()
	defer l.mu.Unlock()
	at, known := l.seen[procID]
	return known && time.Since(at) < ProcTTL, known
}

// watchProcs keeps lives current until the site closes.
func (s *Site) watchProcs() {
	for !s.closed() {
		ctx, cancel := context.WithTimeout(context.Background(), replicaWaitSite)
		kv, err := s.procsBucket(ctx)
		cancel()
		if err == nil {
			s.followProcs(kv)
		}
		time.Sleep(watchRetry)
	}
}

func (s *Site) followProcs(kv jetstream.KeyValue) {
	w, err := kv.WatchAll(context.Background())
	if err != nil {
		return
	}
	defer w.Stop()
	for {
		var e jetstream.KeyValueEntry
		select {
		case <-s.done:
			return
		case x, ok := <-w.Updates():
			if !ok {
				return
			}
			e = x
		}
		if e == nil {
			continue // the end of the keys set when the watch began
		}
		s.lives.mu.Lock()
		if s.lives.seen == nil {
			s.lives.seen = map[string]time.Time{}
		}
		if e.Operation() == jetstream.KeyValuePut {
			s.lives.seen[e.Key()] = e.Created()
		} else {
			s.lives.seen[e.Key()] = time.Time{} // deleted: it ended
		}
		s.lives.mu.Unlock()
	}
}
