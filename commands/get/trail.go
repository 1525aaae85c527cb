package get

import (
	"context"

	"treasury/figures"
	"treasury/figures/ticket"
	"treasury/wire/paging"
	payclient "treasury/wire/payments/client"
)

// readTrail reads the ledger of s's payment's dates in its currency and
// sets its trail (figures.TrailOf: did its funds come back); a ledger
// that cannot be read is said in the summary, never passed over.
func readTrail(ctx context.Context, c *payclient.Client, s *ticket.Summary) {
	p := s.Payment
	if !figures.ReadsLedger(p) {
		t := figures.TrailOf(p, nil, s.History, s.ReadAt)
		s.Trail = &t
		return
	}
	from, to, _ := figures.TrailSpan(p, s.ReadAt)
	txs, err := paging.Collect(c.LedgerOf(ctx, p.Originator.SourceCurrency, from, to))
	if err != nil {
		s.Unread = append(s.Unread, "its ledger lines ("+p.Originator.SourceCurrency+", "+figures.Stamp(from)+" to "+figures.Stamp(to)+"): "+err.Error())
		return
	}
	t := figures.TrailOf(p, txs, s.History, to)
	s.Trail = &t
}
