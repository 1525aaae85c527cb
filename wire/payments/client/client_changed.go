package client

import (
	"context"
	"time"

	"treasury/wire/payments"
	"treasury/wire/transport"
)

// Changed reads every payment whose state changed at or after after (the
// document's filterRangeType PAYMENT_STATUS_LAST_UPDATED), newest first:
// what a poll needs when it already holds the rest. ok is false, and
// nothing is read, when the server cannot answer it: it refused the range
// type once (the refusal is learnt, Dialect.NoUpdateRange, and is not a
// failure), it was found to ignore it (UpdateRangeMissed), or it takes
// only the spec's filter (Dialect.NarrowFilter), where it would mean
// reading the whole history. The caller then reads what it needs another
// way.
func (c *Client) Changed(ctx context.Context, after time.Time) (ps []payments.Payment, ok bool, err error) {
	return c.changed(ctx, after, 0)
}

// ChangedFirst is Changed stopped after n payments (a probe of the read:
// the first page is enough).
func (c *Client) ChangedFirst(ctx context.Context, after time.Time, n int) (ps []payments.Payment, ok bool, err error) {
	return c.changed(ctx, after, max(n, 1))
}

// changed is Changed stopped after limit payments (0: all).
func (c *Client) changed(ctx context.Context, after time.Time, limit int) (ps []payments.Payment, ok bool, err error) {
	if d := c.dialect(); d.NoUpdateRange || d.NarrowFilter {
		return nil, false, nil
	}
	f := payments.Filter{FilterRangeType: payments.RangeLastUpdated, AfterTimestamp: &after}
	hctx, held := transport.Hold(ctx)
	first := true
	for p, err := range c.search(hctx, f) {
		if err != nil {
			if first && refusedField(err) {
				held.Drop()
				c.learn(func(d *Dialect) { d.NoUpdateRange = true })
				return nil, false, nil
			}
			held.Release()
			return nil, true, err
		}
		first = false
		if ps = append(ps, p); len(ps) == limit {
			break
		}
	}
	held.Release()
	return ps, true, nil
}

// UpdateRangeMissed records that the server left out of a Changed read a
// payment whose state had changed in its range: Changed is not asked again.
func (c *Client) UpdateRangeMissed() {
	c.learn(func(d *Dialect) { d.NoUpdateRange = true })
}
