package site

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"treasury/data/webhook"
)

// The notifications the platform posted to any bastion of the site: one
// stream, each event once (its id is the message id, within the
// duplicate window), kept for an hour.
const (
	EventsStream  = "TREASURY_WEBHOOKS"
	EventsSubject = "treasury.webhooks"
	nodeHeader    = "Treasury-Node"
)

func (s *Site) events(ctx context.Context) (jetstream.Stream, error) {
	return s.stream(ctx, jetstream.StreamConfig{Name: EventsStream, Subjects: []string{EventsSubject},
		Description: "treasury: the payment notifications any bastion received, for every bastion",
		Storage:     jetstream.FileStorage, Replicas: s.opts.Replicas, MaxAge: time.Hour, Duplicates: 10 * time.Minute})
}

// ShareEvents gives the site the notifications this node received
// (verified): every other node applies them once.
func (s *Site) ShareEvents(evs []webhook.Event) error {
	ctx, cancel := context.WithTimeout(context.Background(), replicaWaitSite)
	defer cancel()
	if _, err := s.events(ctx); err != nil {
		return err
	}
	for _, ev := range evs {
		b, err := json.Marshal(ev)
		if err != nil {
			return err
		}
		m := nats.NewMsg(EventsSubject)
		m.Data = b
		m.Header.Set(nodeHeader, s.opts.Node)
		if _, err := s.js.PublishMsg(ctx, m, jetstream.WithMsgID(ev.ID)); err != nil {
			return fmt.Errorf("site: notification %s: %w", ev.ID, err)
		}
	}
	return nil
}

// FollowEvents applies, until stop, the notifications the other nodes
// received, from now on, each once and in the order the site took them.
func (s *Site) FollowEvents(apply func([]webhook.Event)) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	start := time.Now()
	go func() {
		defer close(done)
		var last uint64 // the last stream sequence applied: a watch started again resumes after it
		for ctx.Err() == nil {
			last = s.followEvents(ctx, start, last, apply)
			select {
			case <-ctx.Done():
			case <-time.After(watchRetry):
			}
		}
	}()
	return func() { cancel(); <-done }
}

// followEvents consumes the stream until ctx ends or the consumer fails;
// it returns the last sequence applied.
func (s *Site) followEvents(ctx context.Context, start time.Time, last uint64, apply func([]webhook.Event)) uint64 {
	wctx, cancel := context.WithTimeout(ctx, replicaWaitSite)
	st, err := s.events(wctx)
	cancel()
	if err != nil {
		return last
	}
	cfg := jetstream.OrderedConsumerConfig{DeliverPolicy: jetstream.DeliverByStartTimePolicy, OptStartTime: &start, MaxResetAttempts: consumerResets}
	if last > 0 {
		cfg = jetstream.OrderedConsumerConfig{DeliverPolicy: jetstream.DeliverByStartSequencePolicy, OptStartSeq: last + 1,
			MaxResetAttempts: consumerResets}
	}
	c, err := st.OrderedConsumer(ctx, cfg)
	if err != nil {
		return last
	}
	for ctx.Err() == nil {
		batch, err := c.Fetch(webhook.MaxBatch, jetstream.FetchMaxWait(time.Second))
		if err != nil {
			return last
		}
		var evs []webhook.Event
		for m := range batch.Messages() {
			if meta, err := m.Metadata(); err == nil {
				last = meta.Sequence.Stream
			}
			if m.Headers().Get(nodeHeader) == s.opts.Node {
				continue // this node applied it when it came
			}
			var ev webhook.Event
			if json.Unmarshal(m.Data(), &ev) == nil {
				evs = append(evs, ev)
			}
		}
		if len(evs) > 0 {
			apply(evs)
		}
		if batch.Error() != nil && ctx.Err() == nil {
			continue // a batch that waited for nothing: ask again
		}
	}
	return last
}
