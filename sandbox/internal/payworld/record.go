package payworld

import (
	"time"

	"github.com/shopspring/decimal"

	"treasury/sandbox/internal/simkit"
	"treasury/wire/payments"
)

// Kinds of record of a payment.
type recordKind uint8

const (
	// inList is a record of the filter: PaymentV2, no errors and no payout
	// execution details (the document's search answers PaymentV2).
	inList recordKind = iota
	// inListWithErrors is a record of the filter as the spec words it: the
	// errors of a terminal failure on the record (the variant face).
	inListWithErrors
	// byID is GET /v3/payments/{id}: PaymentWithDetailsV2, errors and
	// payout execution details included.
	byID
)

// record builds the wire payment of seq as of unix ms t (which must be at
// or after its creation). w.mu must be held.
func (w *World) record(seq uint32, t int64, kind recordKind) paymentRecord {
	p := w.payment(seq)
	st := p.stateAt(t)
	c := w.corridorOf(p)
	ben := &w.bens[p.ben]
	orig := &w.origs[w.currencyIndex(c.src)]
	hostile := w.hostile()
	hk := simkit.Mix(w.seed, uint64(seq))
	instr := w.instrumentOf(seq)
	labels := labelsFor(hk)
	if ci := w.created[seq]; ci != nil {
		labels = ci.labels
	}
	outLabels := make([]string, len(labels))
	for i, l := range labels {
		outLabels[i] = simkit.Decorate(l, hostile, hk+uint64(i)+2)
	}
	rate := w.appliedRate(p)
	rec := paymentRecord{
		PaymentID: w.paymentID(seq), PaymentState: st.state,
		ExpiresAt: ms(p.created).Add(expiry), LastStateUpdatedAt: ms(st.at),
		Originator: originatorRecord{
			OriginatorIdentityID: orig.id, OriginatorIdentityIDVersion: 1,
			OriginatorIdentityNickName: simkit.Decorate(orig.nick, hostile, hk),
			InternalID:                 w.internalID(seq), SourceCurrency: c.src, SourceAmount: D(minor(p.amount)),
			Payin: w.payinOf(seq, p),
		},
		Destination: destinationRecord{
			BeneficiaryFinancialInstrumentID: ben.instruments[instr].id, DestinationAmount: D(w.destAmount(p)),
			DestinationCountry: c.country, DestinationCurrency: c.dst, DestinationBlockchainNetwork: c.rail.network,
			BeneficiaryIdentityID: ben.id, BeneficiaryIdentityVersion: ben.version,
			BeneficiaryIdentityNickName: simkit.Decorate(ben.nick, hostile, hk+1), Payout: c.payout,
			SelectedPaymentRail: c.rail.selected,
		},
		AdjustedExchangeRate: &rateRecord{AdjustedRate: D(rate)},
		Fees:                 []feeRecord{w.feeOf(p, c)},
		Taxes:                taxesOf(p, c, w.fee(p)),
		TransactionDetails:   txDetails(ben, c),
		PaymentLabels:        outLabels,
	}
	if p.initiated() {
		at := ms(p.created)
		rec.InitiatedAt = &at
	} else {
		rec.ExpiresAt = ms(p.created).Add(quoteLifetime)
	}
	if p.flags&fJIT != 0 {
		exp := ms(p.created).Add(jitWindow)
		rec.JITFundingExpiresAt = &exp
	}
	optionalText(&rec, hk, outLabels)
	if kind != inList && st.state.FailedTerminal() {
		for i, r := range reasonsOf(seq, p, w.seed) {
			rec.Errors = append(rec.Errors, errorRecord{Code: r.code, Type: r.typ, Title: r.title,
				Description: simkit.Decorate(r.desc, hostile, hk+7+uint64(i)), Timestamp: ms(st.at).Format(time.RFC3339Nano)})
		}
	}
	if c.rail.network != "" {
		if _, done := p.reached(payments.Completed, t); done {
			// The same hash as its TX_HASH tracking reference: both are
			// the payout's transaction on the destination network.
			rec.CryptoTransactionHash = cryptoHash(trackingKey(hk, 0))
		}
	}
	if kind == byID {
		rec.PayoutExecutionDetails = w.payoutDetails(p, c, hk, t)
	}
	return rec
}

// payinOf is how payment seq says it is funded: the payinCategory of the
// quote it was created from, else, in the default face, the document's
// values (PRE_FUNDING, JIT_FUNDING, CREDIT_FUNDING; on some payments the
// deprecated FUNDED and T_PLUS_ONE); the variant face writes the
// deprecated ones and JIT, as a server built from the document does (the
// payment's payin is a free string there).
func (w *World) payinOf(seq uint32, p *pay) string {
	if ci := w.created[seq]; ci != nil && ci.payin != "" {
		return ci.payin
	}
	old := w.spec || p.flags&fDeprecated != 0
	switch {
	case p.flags&fJIT != 0 && w.spec:
		return "JIT"
	case p.flags&fJIT != 0:
		return "JIT_FUNDING"
	case p.flags&fCredit != 0 && old:
		return "T_PLUS_ONE"
	case p.flags&fCredit != 0:
		return "CREDIT_FUNDING"
	case old:
		return "FUNDED"
	}
	return "PRE_FUNDING"
}

// trackingKey derives the value of a payment's i-th tracking reference.
func trackingKey(hk uint64, i int) uint64 { return simkit.Mix(hk, uint64(i), simkit.Key("tracking")) }

// jitWindow is how long a just-in-time funded payment waits for its funds.
const jitWindow = 2 * time.Hour

// feeOf is the fee of p: the corridor's flat service fee and a transfer fee
// of 0.1 % of the amount sent, in the source currency.
func (w *World) feeOf(p *pay, c corridor) feeRecord {
	return feeRecord{TotalFee: D(w.fee(p)), FeeCurrency: c.src, FeeBreakdown: []feeBreakdownEntry{
		{CalculatedFee: D(minor(c.feeMinor)), FeeName: "Service fee", FeeDescription: "The corridor's flat fee per payment."},
		{CalculatedFee: D(minor(p.amount / 1000)), FeeName: "Transfer fee", FeeDescription: "0.1% of the amount sent."},
	}}
}

// taxesOf is the corridor's tax on p, if it has one.
func taxesOf(p *pay, c corridor, fee decimal.Decimal) []taxRecord {
	t := c.rail.tax
	if t == nil {
		return nil
	}
	base := fee
	if t.onAmount {
		base = minor(p.amount)
	}
	pct := decimal.RequireFromString(t.percent)
	amount := base.Mul(pct).Div(decimal.NewFromInt(100)).Round(2)
	return []taxRecord{{TotalTaxes: D(amount), TaxCurrency: c.src, TaxBreakdown: []taxBreakdownEntry{
		{TaxAmount: D(amount), TaxName: t.name, TaxDescription: t.description, TaxRate: D(pct)},
	}}}
}

// txDetails is the payment's category: business to business or to an
// individual; a crypto payout is no fiat transfer (null use case).
func txDetails(ben *identity, c corridor) *txDetailsRecord {
	flow := "B2C"
	if ben.typ == payments.IdentityBusiness {
		flow = "B2B"
	}
	d := &txDetailsRecord{PaymentProduct: "LICENSED", FlowType: flow}
	if c.rail.network == "" {
		fiat := "FIAT_TRANSFER"
		d.BusinessUseCase = &fiat
	}
	return d
}

// optionalText fills the corridor-dependent free fields on some payments:
// source of cash, purpose code, relationship and memo.
func optionalText(rec *paymentRecord, hk uint64, labels []string) {
	if hk%3 == 0 {
		rec.SourceOfCash = []string{"BUSI", "EMIN", "SAVG"}[hk/3%3]
	}
	if hk%4 != 3 && len(labels) > 0 {
		rec.PurposeCode = purposeOf(labels[0])
	}
	if hk%5 == 1 {
		rec.ReceiverRelationship = []string{"SUPP", "SUBS", "EMPL"}[hk/5%3]
	}
	if hk%2 == 0 {
		rec.PaymentMemo = rec.Originator.InternalID + " " + rec.Destination.DestinationCurrency + " payout"
	}
}

// purposeOf is the purpose code of a payment label.
func purposeOf(label string) string {
	switch label {
	case "payroll":
		return "SALA"
	case "supplier-invoice":
		return "SUPP"
	case "refund":
		return "REFU"
	case "treasury":
		return "TREA"
	}
	return "GDDS"
}

// payoutDetails is what the payout partner reported of p's payout, once it
// started (TRANSFERRING): the rail used (a large payout may go on another
// rail than the one selected), when it started and ended, and the tracking
// references. Some partners report nothing (one payment in six): the
// document says not to rely on it.
func (w *World) payoutDetails(p *pay, c corridor, hk uint64, t int64) *payoutDetailsRecord {
	start, ok := p.reached(payments.Transferring, t)
	if !ok || hk%6 == 5 {
		return nil
	}
	used, refs := c.rail.selected, c.rail.refs
	if c.rail.large != "" && p.amount >= largePayoutMinor {
		used = c.rail.large
		if used == "FEDWIRE" {
			refs = fedwireRefs()
		}
	}
	d := &payoutDetailsRecord{PaymentRailUsed: used}
	s := ms(start)
	d.PayoutStartTime = &s
	end := p.stateAt(t).at
	if end > start {
		e := ms(end)
		d.PayoutEndTime = &e
	}
	for i, r := range refs {
		d.TrackingReferences = append(d.TrackingReferences, trackingRecord{ReferenceType: r.typ,
			Value: r.value(trackingKey(hk, i)), DisplayName: r.display, Description: r.description})
	}
	return d
}

// largePayoutMinor is the amount from which a payout goes on the corridor's
// large-value rail.
const largePayoutMinor = 10_000_00
