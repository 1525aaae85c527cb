package site

import (
	"context"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// The platform's past that the poller read back on its first start (a
// history file's backfill: rates, balances) is kept in one stream, for
// every process of the site to keep in its own history: a bastion that
// follows charts what the poller charts, and reads none of it from the
// platform. A piece is kept as long as history reaches back (a week),
// and a day more; no bound in bytes (a first start's past is a few
// megabytes at most), which a node would reserve on its disk.
const (
	PastStream  = "TREASURY_PAST"
	pastSubject = "treasury.past"
	pastAge     = 8 * 24 * time.Hour
	procHeader  = "Treasury-Proc"
	pastBatch   = 64
)

func (s *Site) past(ctx context.Context) (jetstream.Stream, error) {
	return s.stream(ctx, jetstream.StreamConfig{Name: PastStream, Subjects: []string{pastSubject},
		Description: "treasury: the platform's past the poller read back, for every bastion's history",
		Storage:     jetstream.FileStorage, Replicas: s.opts.Replicas, MaxAge: pastAge})
}

// SharePast gives the site a piece of the platform's past this process
// read (JSON, under the site's message size).
func (s *Site) SharePast(b []byte) error {
	ctx, cancel := context.WithTimeout(context.Background(), replicaWaitSite)
	defer cancel()
	if _, err := s.past(ctx); err != nil {
		return err
	}
	m := nats.NewMsg(pastSubject)
	m.Data = b
	m.Header.Set(procHeader, s.id)
	if _, err := s.js.PublishMsg(ctx, m); err != nil {
		return fmt.Errorf("site: the platform's past: %w", err)
	}
	return nil
}

// FollowPast applies, until stop, each piece of the platform's past that
// another process shared, the oldest first: those kept before this
// process started, then each as it is shared.
func (s *Site) FollowPast(apply func([]byte)) (stop func()) {
	return s.follow(s.past, jetstream.OrderedConsumerConfig{DeliverPolicy: jetstream.DeliverAllPolicy}, pastBatch,
		func(msgs []jetstream.Msg) {
			for _, m := range msgs {
				if m.Headers().Get(procHeader) != s.id {
					apply(m.Data())
				}
			}
		})
}
