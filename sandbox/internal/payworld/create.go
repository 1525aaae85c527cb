package payworld

import (
	"net/http"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"treasury/sandbox/internal/authsim"
	"treasury/sandbox/internal/simkit"
	"treasury/wire/apierr"
)

// pathQuoteCollection is the document's quote operation.
const pathQuoteCollection = "/v2/quotes/quote-collection"

// quoteLifetime is how long a quote can create a payment.
const quoteLifetime = 5 * time.Minute

// maxQuoteMinor caps a quote; above the account's balance a payment gets 402.
const maxQuoteMinor = 100_000_000_00

type quote struct {
	corridor int
	amount   int64 // minor units
	expires  int64
	payin    string // the request's payinCategory
}

// quoteRequest is QuoteCollectionRequest, the fields the world uses.
type quoteRequest struct {
	QuoteAmount         decimal.Decimal `json:"quoteAmount"`
	QuoteAmountType     string          `json:"quoteAmountType"`
	SourceCurrency      string          `json:"sourceCurrency"`
	DestinationCurrency string          `json:"destinationCurrency"`
	PayoutCategory      string          `json:"payoutCategory"`
	PayinCategory       string          `json:"payinCategory"`
}

// quoteCollection is QuoteCollection.
type quoteCollection struct {
	QuoteCollectionID string        `json:"quoteCollectionId"`
	Quotes            []quoteRecord `json:"quotes"`
}

// quoteRecord is Quote.
type quoteRecord struct {
	QuoteID                      string      `json:"quoteId"`
	QuoteStatus                  string      `json:"quoteStatus"`
	QuoteAmountType              string      `json:"quoteAmountType"`
	SourceAmount                 Double      `json:"sourceAmount"`
	DestinationAmount            Double      `json:"destinationAmount"`
	SourceCurrency               string      `json:"sourceCurrency"`
	DestinationCurrency          string      `json:"destinationCurrency"`
	DestinationCountry           string      `json:"destinationCountry,omitempty"`
	PayoutCategory               string      `json:"payoutCategory"`
	PayinCategory                string      `json:"payinCategory"`
	AdjustedExchangeRate         *rateRecord `json:"adjustedExchangeRate,omitempty"`
	Fees                         []feeRecord `json:"fees,omitempty"`
	CreatedAt                    time.Time   `json:"createdAt"`
	ExpiresAt                    time.Time   `json:"expiresAt"`
	DestinationBlockchainNetwork string      `json:"destinationBlockchainNetwork,omitempty"`
	PaymentRail                  string      `json:"paymentRail,omitempty"`
}

// createQuotes answers POST /v2/quotes/quote-collection for a source
// amount: one ACTIVE quote of the corridor, valid quoteLifetime. A pair the
// org has no corridor for is a configuration matter: 500 CFG_002.
func (w *World) createQuotes(rw http.ResponseWriter, r *http.Request, _ authsim.Claims) {
	var req quoteRequest
	if err := simkit.ReadJSON(r, &req); err != nil {
		w.badRequest(rw, r, "The body must be a JSON quote collection request: "+err.Error())
		return
	}
	if req.QuoteAmountType == "" {
		req.QuoteAmountType = "SOURCE_AMOUNT"
	}
	amt := req.QuoteAmount.Shift(2)
	if req.SourceCurrency == "" || req.DestinationCurrency == "" || req.PayoutCategory == "" || req.PayinCategory == "" ||
		req.QuoteAmountType != "SOURCE_AMOUNT" || !amt.IsInteger() || !amt.IsPositive() || amt.IntPart() > maxQuoteMinor {
		w.badRequest(rw, r, "quoteAmount (a source amount with at most two decimals, up to 100000000.00), quoteAmountType SOURCE_AMOUNT, sourceCurrency, destinationCurrency, payoutCategory and payinCategory are required.")
		return
	}
	ci := -1
	for i, c := range w.corr {
		if strings.EqualFold(c.src, req.SourceCurrency) && strings.EqualFold(c.dst, req.DestinationCurrency) {
			ci = i
		}
	}
	if ci < 0 {
		w.fail(rw, r, http.StatusInternalServerError, "CFG_002", apierr.TypeConfiguration, "Configuration Error",
			"The corridor "+simkit.Quoted(req.SourceCurrency)+" to "+simkit.Quoted(req.DestinationCurrency)+" is not configured for your organization; contact support.")
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	now := w.processed
	c := w.corr[ci]
	rate := w.quotedRate(ci, now)
	src := minor(amt.IntPart())
	q := &quote{corridor: ci, amount: amt.IntPart(), expires: now + quoteLifetime.Milliseconds(), payin: req.PayinCategory}
	id := simkit.UUIDOf(w.seed, simkit.Key("quote"), w.quoteCount)
	w.quoteCount++
	for id, old := range w.quotes {
		if old.expires < now {
			delete(w.quotes, id)
		}
	}
	w.quotes[id] = q
	out := quoteCollection{QuoteCollectionID: simkit.UUIDOf(w.seed, simkit.Key("quote-collection"), w.quoteCount),
		Quotes: []quoteRecord{{
			QuoteID: id, QuoteStatus: "ACTIVE", QuoteAmountType: req.QuoteAmountType,
			SourceAmount: D(src), DestinationAmount: D(src.Mul(rate).Round(2)),
			SourceCurrency: c.src, DestinationCurrency: c.dst, DestinationCountry: c.country,
			PayoutCategory: c.payout, PayinCategory: req.PayinCategory, AdjustedExchangeRate: &rateRecord{AdjustedRate: D(rate)},
			CreatedAt: ms(now), ExpiresAt: ms(q.expires), DestinationBlockchainNetwork: c.rail.network, PaymentRail: c.rail.selected,
		}}}
	simkit.WriteJSON(rw, http.StatusCreated, out)
}

// fundingFlags are the flags of a payment of a quote's payinCategory, as
// the vendor's document names them: just in time (JIT_FUNDING), on credit
// (CREDIT_FUNDING, T_PLUS_ONE), else prefunded.
func fundingFlags(payin string) uint8 {
	switch strings.ToUpper(payin) {
	case "JIT_FUNDING", "JIT":
		return fJIT
	case "CREDIT_FUNDING", "T_PLUS_ONE":
		return fCredit
	}
	return 0
}

// createRequest is PaymentRequestV2, the fields the world uses.
type createRequest struct {
	QuoteID                          string   `json:"quoteId"`
	BeneficiaryIdentityID            string   `json:"beneficiaryIdentityId"`
	BeneficiaryFinancialInstrumentID string   `json:"beneficiaryFinancialInstrumentId"`
	OriginatorIdentityID             string   `json:"originatorIdentityId"`
	InternalID                       string   `json:"internalId"`
	PaymentLabels                    []string `json:"paymentLabels"`
}

// create answers POST /v3/payments: 201 with the payment (PaymentV2); the
// same internalId again answers the existing payment; 402 USR_067 when the
// prefunded account cannot cover the amount.
func (w *World) create(rw http.ResponseWriter, r *http.Request, c authsim.Claims) {
	var req createRequest
	if err := simkit.ReadJSON(r, &req); err != nil {
		w.badRequest(rw, r, "The body must be a JSON payment request: "+err.Error())
		return
	}
	if req.QuoteID == "" || req.BeneficiaryIdentityID == "" || req.BeneficiaryFinancialInstrumentID == "" {
		w.badRequest(rw, r, "quoteId, beneficiaryIdentityId and beneficiaryFinancialInstrumentId are required.")
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if req.InternalID != "" {
		if seq, ok := w.lookupInternal(req.InternalID); ok {
			simkit.WriteJSON(rw, http.StatusCreated, w.record(seq, w.processed, inList))
			return
		}
	}
	now := w.processed
	q := w.quotes[req.QuoteID]
	if q == nil || q.expires < now {
		w.badRequest(rw, r, "quoteId "+simkit.Quoted(req.QuoteID)+" is unknown or expired; request a new quote.")
		return
	}
	bi, ok := w.benIndex[req.BeneficiaryIdentityID]
	if !ok {
		w.notFound(rw, r, "beneficiary identity with id "+simkit.Quoted(req.BeneficiaryIdentityID))
		return
	}
	ben := &w.bens[bi]
	instr := -1
	for i, in := range ben.instruments {
		if in.id == req.BeneficiaryFinancialInstrumentID {
			instr = i
		}
	}
	if instr < 0 || ben.corridor != q.corridor {
		w.badRequest(rw, r, "The financial instrument does not belong to the beneficiary or does not match the quote's corridor.")
		return
	}
	seq := uint32(w.end())
	p := w.synthPay(seq, now)
	if p.flags&fUnfunded != 0 || p.outcome == oQuoted {
		// Its quote was just accepted, and its funding is the quote's.
		p.outcome, p.at = oCompleted, [4]uint32{5_000, 60_000, 8 * 60_000, 0}
	}
	p.amount, p.ben, p.flags = q.amount, uint16(bi), fCreated|fundingFlags(q.payin)
	a := &w.accounts[w.currencyIndex(w.corr[q.corridor].src)]
	if p.prefunded() && a.available() < q.amount {
		w.fail(rw, r, http.StatusPaymentRequired, "USR_067", apierr.TypeUser, "Insufficient balance",
			"Payment failed due to insufficient balance. Add funds to your account and try again.")
		return
	}
	if p.flags&fJIT != 0 {
		for i := range p.at { // its funds arrive two minutes later
			if p.at[i] != 0 {
				p.at[i] += 2 * 60_000
			}
		}
	}
	labels := req.PaymentLabels
	if labels == nil {
		labels = []string{}
	}
	w.pays = append(w.pays, p)
	w.indexID(seq)
	w.created[seq] = &createdInfo{internalID: req.InternalID, labels: labels, instrument: instr, payin: q.payin}
	if req.InternalID != "" {
		w.byInternal[req.InternalID] = seq
	}
	delete(w.quotes, req.QuoteID)
	w.nextArrival++
	w.apply(pending{at: now, seq: seq})
	simkit.WriteJSON(rw, http.StatusCreated, w.record(seq, now, inList))
}
