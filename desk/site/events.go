package site

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"treasury/wire/webhook"
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
	start := time.Now()
	return s.follow(s.events, jetstream.OrderedConsumerConfig{DeliverPolicy: jetstream.DeliverByStartTimePolicy, OptStartTime: &start},
		webhook.MaxBatch, func(msgs []jetstream.Msg) {
			if evs := s.othersEvents(msgs); len(evs) > 0 {
				apply(evs)
			}
		})
}

// othersEvents are the notifications of msgs that another node received
// (this node applied its own when they came).
func (s *Site) othersEvents(msgs []jetstream.Msg) []webhook.Event {
	var evs []webhook.Event
	for _, m := range msgs {
		if m.Headers().Get(nodeHeader) == s.opts.Node {
			continue
		}
		var ev webhook.Event
		if json.Unmarshal(m.Data(), &ev) == nil {
			evs = append(evs, ev)
		}
	}
	return evs
}
