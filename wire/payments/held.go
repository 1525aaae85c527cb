package payments

import (
	"sync"

	"treasury/kit/intern"
	"treasury/wire"
)

// A Sharer hands the payments a client reads shared copies of what many
// of them repeat (Share): a set of 100,000 payments holds each currency,
// rail, name or category once, not once a payment. One is the client's,
// for its life; it is bounded, and safe for concurrent use.
type Sharer struct {
	texts *intern.Table
	mu    sync.Mutex
	// details are the categories (TransactionDetails) held, each once;
	// declared the codes (Codes).
	details  map[TransactionDetails]wire.Opt[TransactionDetails]
	declared map[Codes]*Codes
}

// Bounds of a Sharer: the texts and categories it shares.
const (
	sharedTexts   = 1 << 16
	sharedLen     = 256
	sharedDetails = 256
)

// NewSharer makes a Sharer.
func NewSharer() *Sharer {
	return &Sharer{texts: intern.New(sharedTexts, sharedLen), details: map[TransactionDetails]wire.Opt[TransactionDetails]{},
		declared: map[Codes]*Codes{}}
}

// detail is the shared copy of a category.
func (s *Sharer) detail(o wire.Opt[TransactionDetails]) wire.Opt[TransactionDetails] {
	td, ok := o.Get()
	if !ok {
		return o
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.details[td]; ok {
		return c
	}
	if len(s.details) < sharedDetails {
		s.details[td] = o
	}
	return o
}

// codes is the shared copy of a set of codes.
func (s *Sharer) codes(c Codes) *Codes {
	s.mu.Lock()
	defer s.mu.Unlock()
	if shared, ok := s.declared[c]; ok {
		return shared
	}
	p := &c
	if len(s.declared) < sharedDetails {
		s.declared[c] = p
	}
	return p
}

// Share has p hold the shared copies of the texts many payments repeat:
// its state, currencies, countries, rails and payout kinds, identities
// and their names, the names and descriptions of its fees and taxes, its
// category, labels and error texts. Ids, internalIds, hashes and memos,
// each a payment's own, are left as they are.
func (s *Sharer) Share(p *Payment) {
	if s == nil {
		return
	}
	of := s.texts.Of
	text := func(t *wire.Text) { *t = wire.Text(of(string(*t))) }
	p.PaymentState = State(of(string(p.PaymentState)))
	o, d := &p.Originator, &p.Destination
	for _, s := range []*string{&o.OriginatorIdentityID, &o.OriginatorIdentityNickName, &o.SourceCurrency, &o.Payin,
		&d.BeneficiaryFinancialInstrumentID, &d.DestinationCountry, &d.DestinationCurrency, &d.BeneficiaryIdentityID,
		&d.BeneficiaryIdentityNickName, &d.Payout, &d.DestinationBlockchainNetwork, &d.SelectedPaymentRail} {
		*s = of(*s)
	}
	if p.Codes != nil {
		c := *p.Codes
		text(&c.SourceOfCash)
		text(&c.PurposeCode)
		text(&c.ReceiverRelationship)
		p.Codes = s.codes(c)
	}
	if td, ok := p.TransactionDetails.Get(); ok {
		text(&td.PaymentProduct)
		text(&td.FlowType)
		text(&td.BusinessUseCase)
		p.TransactionDetails = s.detail(wire.Some(td))
	}
	for i := range p.Fees {
		f := &p.Fees[i]
		f.FeeCurrency = of(f.FeeCurrency)
		for j := range f.FeeBreakdown {
			text(&f.FeeBreakdown[j].FeeName)
			text(&f.FeeBreakdown[j].FeeDescription)
		}
	}
	for i := range p.Taxes {
		x := &p.Taxes[i]
		x.TaxCurrency = of(x.TaxCurrency)
		for j := range x.TaxBreakdown {
			text(&x.TaxBreakdown[j].TaxName)
			text(&x.TaxBreakdown[j].TaxDescription)
		}
	}
	for i := range p.PaymentLabels {
		p.PaymentLabels[i] = of(p.PaymentLabels[i])
	}
	for i := range p.Errors {
		e := &p.Errors[i]
		e.Code, e.Type, e.Title, e.Description = of(e.Code), of(e.Type), of(e.Title), of(e.Description)
	}
	if x, ok := p.PayoutExecutionDetails.Get(); ok {
		text(&x.PaymentRailUsed)
		for i := range x.TrackingReferences {
			r := &x.TrackingReferences[i]
			text(&r.ReferenceType)
			text(&r.DisplayName)
			text(&r.Description)
		}
		p.PayoutExecutionDetails = wire.Some(x)
	}
}
