package platform

import (
	"context"
	"encoding/json"
	"time"

	"treasury/desk/live"
	payclient "treasury/wire/payments/client"
)

// FullEvery is fullEvery, for the tests of the payments feed.
const FullEvery = fullEvery

// FoldHereAndThere polls the payments once with a feed on c, and folds
// the read into an empty set twice: as read here, and as another bastion
// of a site folds it once the read has travelled as JSON.
func FoldHereAndThere(ctx context.Context, c *payclient.Client, now func() time.Time) (here, there *live.PaymentSet, err error) {
	f := &paymentFeed{c: c, now: now, store: func() *live.Store { return nil }}
	read, err := f.fetch(ctx)
	if err != nil {
		return nil, nil, err
	}
	b, err := json.Marshal(read)
	if err != nil {
		return nil, nil, err
	}
	var travelled paymentRead
	if err := json.Unmarshal(b, &travelled); err != nil {
		return nil, nil, err
	}
	at := now()
	here, _ = foldPayments(nil, read, at)
	there, _ = foldPayments(nil, travelled, at)
	return here, there, nil
}
