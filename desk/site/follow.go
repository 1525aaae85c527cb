package site

import (
	"context"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// follow hands apply, until stop, the messages of a stream (open makes
// it or finds it) from where cfg says, in the order the site took them,
// in batches of at most max. One consumer serves it for the process's
// life (made again only when it could not be made, or its stream's
// leader was lost, where it left off): a consumer made and dropped per
// wait is replicated churn between the nodes.
func (s *Site) follow(open func(context.Context) (jetstream.Stream, error), cfg jetstream.OrderedConsumerConfig, max int,
	apply func([]jetstream.Msg)) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ctx.Err() == nil {
			if consume(ctx, open, cfg, max, apply) {
				return
			}
			select {
			case <-ctx.Done():
			case <-time.After(watchRetry):
			}
		}
	}()
	return func() { cancel(); <-done }
}

// consume hands apply the stream's messages until ctx ends (true), or
// reports that its consumer could not be made (false: try again later).
func consume(ctx context.Context, open func(context.Context) (jetstream.Stream, error), cfg jetstream.OrderedConsumerConfig, max int,
	apply func([]jetstream.Msg)) bool {
	wctx, cancel := context.WithTimeout(ctx, replicaWaitSite)
	st, err := open(wctx)
	cancel()
	if err != nil {
		return false
	}
	c, err := st.OrderedConsumer(ctx, cfg)
	if err != nil {
		return false
	}
	msgs := make(chan jetstream.Msg, max)
	cc, err := c.Consume(func(m jetstream.Msg) {
		select {
		case msgs <- m:
		case <-ctx.Done():
		}
	})
	if err != nil {
		return false
	}
	defer cc.Stop()
	for {
		var m jetstream.Msg
		select {
		case <-ctx.Done():
			return true
		case m = <-msgs:
		}
		batch := []jetstream.Msg{m}
	more:
		for len(batch) < max {
			select {
			case m := <-msgs:
				batch = append(batch, m)
			default:
				break more
			}
		}
		apply(batch)
	}
}
