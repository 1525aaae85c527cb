package sandbox_test

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"treasury/figures"
	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
	"treasury/wire/money"
	"treasury/wire/payments"
)

// payEnv is a served sandbox with a full-scope payments token.
type payEnv struct {
	srv  *sandbox.Server
	base string
	tok  string
}

func payStart(t *testing.T, mutate func(*sandbox.Options)) payEnv {
	t.Helper()
	opts := sandboxtest.Options()
	if mutate != nil {
		mutate(&opts)
	}
	srv := sandboxtest.Listen(t, opts)
	return payEnv{srv: srv, base: srv.Endpoints().Payments, tok: sandboxtest.PaymentsToken(t, srv)}
}

// payFilterAll walks every page of a v3 filter and returns the payments.
func payFilterAll(t *testing.T, e payEnv, f payments.Filter, size int) []payments.Payment {
	t.Helper()
	var all []payments.Payment
	token := ""
	for pages := 0; ; pages++ {
		if pages > 1000 {
			t.Fatal("filter never reached its last page")
		}
		var resp payments.FilterResponse
		req := payments.FilterRequest{Filter: f, Page: &payments.PageIn{Size: size, LastPageToken: token}}
		if st := sandboxtest.PostJSON(t, e.base+payments.PathFilterV3, e.tok, req, &resp); st != 200 {
			t.Fatalf("filter: HTTP %d", st)
		}
		if len(resp.Data) > size {
			t.Fatalf("page of %d payments for size %d", len(resp.Data), size)
		}
		all = append(all, resp.Data...)
		if resp.Page.LastPageToken == "" {
			return all
		}
		token = resp.Page.LastPageToken
	}
}

func payFind(t *testing.T, e payEnv, st payments.State) payments.Payment {
	t.Helper()
	var resp payments.FilterResponse
	sandboxtest.PostJSON(t, e.base+payments.PathFilterV3, e.tok, payments.FilterRequest{Filter: payments.Filter{PaymentStates: []payments.State{st}}}, &resp)
	if len(resp.Data) == 0 {
		t.Fatalf("no %s payment in the world", st)
	}
	return resp.Data[0]
}

func payCheckErr(t *testing.T, name string, status int, body sandboxtest.PayErr, wantStatus int, wantCode string) {
	t.Helper()
	if status != wantStatus || body.Code != wantCode || body.Status != wantStatus || body.Type == "" || body.Timestamp == "" || body.Description == "" {
		t.Fatalf("%s: HTTP %d %+v, want %d %s with type, timestamp and description", name, status, body, wantStatus, wantCode)
	}
}

// TestPayGetByIDVersionsAndStates covers GET /v3/payments/{id} with the
// errors of a terminal failure state (which the filter's records do not
// carry), state history, the lookup by internalId through the filter's
// prefix match, and the operations the document does not have.
func TestPayGetByIDVersionsAndStates(t *testing.T) {
	e := payStart(t, nil)
	for _, st := range []payments.State{payments.Failed, payments.Declined, payments.Returned} {
		p := payFind(t, e, st)
		if len(p.Errors) != 0 {
			t.Fatalf("filter record of a %s payment carries errors %v: PaymentV2 has none", st, p.Errors)
		}
		var v3 payments.Payment
		if s := sandboxtest.Get(t, e.base+payments.PathPaymentV3+p.PaymentID, e.tok, &v3); s != 200 || len(v3.Errors) == 0 || v3.Errors[0].Code == "" {
			t.Fatalf("v3 %s: HTTP %d errors %v", st, s, v3.Errors)
		}
		if st == payments.Declined {
			if c := v3.Errors[0].Code; c < "USR_062" || c > "USR_067" {
				t.Fatalf("DECLINED code %s outside USR_062..USR_067", c)
			}
		}
		var hist payments.StateTransitions
		sandboxtest.Get(t, e.base+payments.PathPaymentV3+p.PaymentID+payments.SuffixStates, e.tok, &hist)
		h := hist.StateTransitions
		if len(h) < 3 || h[0].UpdatedTo != payments.Initiated || h[len(h)-1].UpdatedTo != st || !h[len(h)-1].UpdatedAt.Equal(v3.LastStateUpdatedAt) {
			t.Fatalf("%s history %+v", st, h)
		}
		for i := 1; i < len(h); i++ {
			if h[i].UpdatedFrom != h[i-1].UpdatedTo || h[i].UpdatedAt.Before(h[i-1].UpdatedAt) {
				t.Fatalf("history not a chain: %+v", h)
			}
		}
		if st == payments.Returned && h[len(h)-2].UpdatedTo != payments.Completed {
			t.Fatalf("RETURNED must follow COMPLETED: %+v", h)
		}
		// The document's lookup by internalId: the filter's prefix match.
		got := payFilterAll(t, e, payments.Filter{InternalID: p.InternalID()}, 100)
		if len(got) == 0 || got[0].InternalID() != p.InternalID() && got[len(got)-1].InternalID() != p.InternalID() {
			t.Fatalf("filter.internalId %s: %d payments", p.InternalID(), len(got))
		}
		for _, q := range got {
			if !strings.HasPrefix(q.InternalID(), p.InternalID()) {
				t.Fatalf("filter.internalId %s matched %s: not a prefix match", p.InternalID(), q.InternalID())
			}
		}
	}
	prefix := payFilterAll(t, e, payments.Filter{InternalID: "INV-000010"}, 100)
	if len(prefix) != 10 {
		t.Fatalf("filter.internalId INV-000010 matched %d payments, want the 10 of INV-0000100..109", len(prefix))
	}
	var body sandboxtest.PayErr
	s := sandboxtest.Get(t, e.base+payments.PathPaymentV3+"00000000-0000-4000-8000-000000000000", e.tok, &body)
	payCheckErr(t, "unknown payment", s, body, 404, "USR_002")
	// paymentId is a uuid: anything else is a 400, not a 404.
	s = sandboxtest.Get(t, e.base+payments.PathPaymentV3+"INV-0000001", e.tok, &body)
	payCheckErr(t, "payment id not a uuid", s, body, 400, "USR_001")
	// The document has no GET /v3/payments and no /v2 payment paths.
	st, h, _ := sandboxtest.Send(t, "GET", e.base+payments.PathPayments+"?internalId=INV-0000001", e.tok, nil)
	if st != 405 || h.Get("Allow") != "POST" {
		t.Fatalf("GET /v3/payments: HTTP %d Allow %q, want 405 Allow POST", st, h.Get("Allow"))
	}
	if st, _, _ := sandboxtest.Send(t, "GET", e.base+payments.PathPaymentV2+prefix[0].PaymentID, e.tok, nil); st != 404 {
		t.Fatalf("GET /v2/payments/{id}: HTTP %d, want 404", st)
	}
}

// TestPayFilterPagination walks the body-token filter: limits, ordering,
// every payment once, tokens bound to their filter.
func TestPayFilterPagination(t *testing.T) {
	e := payStart(t, nil)
	var first payments.FilterResponse
	sandboxtest.PostJSON(t, e.base+payments.PathFilterV3, e.tok, payments.FilterRequest{}, &first)
	if len(first.Data) != payments.FilterDefaultSize || first.Page.Size != 20 || first.Page.LastPageToken == "" || first.Sort.SortDirection != "DESC" {
		t.Fatalf("default page: %d payments, page %+v sort %+v", len(first.Data), first.Page, first.Sort)
	}
	var body sandboxtest.PayErr
	s := sandboxtest.PostJSON(t, e.base+payments.PathFilterV3, e.tok, payments.FilterRequest{Page: &payments.PageIn{Size: 101}}, &body)
	payCheckErr(t, "page.size 101", s, body, 400, "USR_001")
	s = sandboxtest.PostJSON(t, e.base+payments.PathFilterV3, e.tok, payments.FilterRequest{Page: &payments.PageIn{Size: 5, LastPageToken: "garbage"}}, &body)
	payCheckErr(t, "forged token", s, body, 400, "USR_001")
	// A token of one filter does not continue another.
	s = sandboxtest.PostJSON(t, e.base+payments.PathFilterV3, e.tok, payments.FilterRequest{
		Filter: payments.Filter{PaymentStates: []payments.State{payments.Failed}},
		Page:   &payments.PageIn{LastPageToken: first.Page.LastPageToken}}, &body)
	payCheckErr(t, "token of another filter", s, body, 400, "USR_001")

	all := payFilterAll(t, e, payments.Filter{}, payments.FilterMaxSize)
	if len(all) < 590 || len(all) > 600 {
		t.Fatalf("filter walked %d payments, want the ~599 own of 600", len(all))
	}
	seen := map[string]bool{}
	for i, p := range all {
		if seen[p.PaymentID] {
			t.Fatalf("payment %s twice", p.PaymentID)
		}
		seen[p.PaymentID] = true
		if i > 0 && p.When().After(all[i-1].When()) {
			t.Fatalf("DESC order broken at %d", i)
		}
	}
	byState := map[payments.State]int{}
	for _, p := range all {
		byState[p.PaymentState]++
	}
	for _, st := range []payments.State{payments.Completed, payments.Failed, payments.Declined} {
		got := payFilterAll(t, e, payments.Filter{PaymentStates: []payments.State{st}}, 7)
		if len(got) != byState[st] || byState[st] == 0 {
			t.Fatalf("%s: filter gave %d, the full walk holds %d", st, len(got), byState[st])
		}
		for _, p := range got {
			if p.PaymentState != st {
				t.Fatalf("filter %s returned %s", st, p.PaymentState)
			}
		}
	}
	// ASC starts with the oldest; the spec's CREATED_AT is no sort field of
	// the document.
	var asc payments.FilterResponse
	sandboxtest.PostJSON(t, e.base+payments.PathFilterV3, e.tok, payments.FilterRequest{Sort: &payments.Sort{SortField: "initiatedAt", SortDirection: "ASC"}, Page: &payments.PageIn{Size: 3}}, &asc)
	if len(asc.Data) != 3 || asc.Data[0].PaymentID != all[len(all)-1].PaymentID {
		t.Fatalf("ASC does not start with the oldest payment")
	}
	s = sandboxtest.PostJSON(t, e.base+payments.PathFilterV3, e.tok, payments.FilterRequest{Sort: &payments.Sort{SortField: "CREATED_AT"}}, &body)
	payCheckErr(t, "sortField CREATED_AT", s, body, 400, "USR_001")
	if !strings.Contains(body.Description, "sortField") {
		t.Fatalf("the refusal of CREATED_AT does not name the field: %q", body.Description)
	}
	// Every other sort field of the document sorts.
	var bySource payments.FilterResponse
	sandboxtest.PostJSON(t, e.base+payments.PathFilterV3, e.tok, payments.FilterRequest{Sort: &payments.Sort{SortField: "sourceAmount", SortDirection: "DESC"}, Page: &payments.PageIn{Size: 50}}, &bySource)
	for i := 1; i < len(bySource.Data); i++ {
		if bySource.Data[i].Originator.SourceAmount.Decimal().GreaterThan(bySource.Data[i-1].Originator.SourceAmount.Decimal()) {
			t.Fatalf("sourceAmount DESC broken at %d", i)
		}
	}
	if len(bySource.Data) != 50 {
		t.Fatalf("sourceAmount sort: %d payments", len(bySource.Data))
	}
}

// TestPayForeignAndScopes covers AUTH_051 and the scopes of each operation.
func TestPayForeignAndScopes(t *testing.T) {
	e := payStart(t, nil)
	foreign := e.srv.Info().Samples["foreign_payment_id"]
	if foreign == "" {
		t.Fatal("no foreign_payment_id sample")
	}
	for _, path := range []string{payments.PathPaymentV3 + foreign, payments.PathPaymentV3 + foreign + payments.SuffixStates} {
		var body sandboxtest.PayErr
		s := sandboxtest.Get(t, e.base+path, e.tok, &body)
		payCheckErr(t, path, s, body, 403, "AUTH_051")
	}
	c := e.srv.Credentials()
	limited := sandboxtest.PaymentsTokenFor(t, e.srv, c.PaymentsLimitedClientID, c.PaymentsLimitedClientSecret)
	for _, path := range []string{payments.PathLedger + "?currency=USD", payments.PathBalances} {
		var body sandboxtest.PayErr
		s := sandboxtest.Get(t, e.base+path, limited, &body)
		payCheckErr(t, "limited "+path, s, body, 403, "AUTH_002")
		s = sandboxtest.Get(t, e.base+path, "", &body)
		payCheckErr(t, "no token "+path, s, body, 401, "AUTH_003")
	}
	var page payments.FilterResponse
	if s := sandboxtest.PostJSON(t, e.base+payments.PathFilterV3, limited, payments.FilterRequest{}, &page); s != 200 {
		t.Fatalf("limited client filter: HTTP %d", s)
	}
	var ids payments.IdentitiesPage
	if s := sandboxtest.Get(t, e.base+payments.PathIdentities, limited, &ids); s != 200 {
		t.Fatalf("limited client identities: HTTP %d", s)
	}
}

// TestPayIdentitiesAndInstruments walks the query-token lists.
func TestPayIdentitiesAndInstruments(t *testing.T) {
	e := payStart(t, nil)
	var page payments.IdentitiesPage
	sandboxtest.Get(t, e.base+payments.PathIdentities, e.tok, &page)
	if len(page.Data) != payments.IdentitiesDefaultLimit || page.NextToken == "" {
		t.Fatalf("default identities page: %d, next %q", len(page.Data), page.NextToken)
	}
	var body sandboxtest.PayErr
	s := sandboxtest.Get(t, e.base+payments.PathIdentities+"?limit=101", e.tok, &body)
	payCheckErr(t, "limit 101", s, body, 400, "USR_001")
	s = sandboxtest.Get(t, e.base+payments.PathIdentities+"?next-token=forged", e.tok, &body)
	payCheckErr(t, "forged next-token", s, body, 400, "USR_001")
	var all []payments.Identity
	next := ""
	for {
		q := url.Values{"limit": {"100"}}
		if next != "" {
			q.Set("next-token", next)
		}
		var p payments.IdentitiesPage
		if s := sandboxtest.Get(t, e.base+payments.PathIdentities+"?"+q.Encode(), e.tok, &p); s != 200 {
			t.Fatalf("identities: HTTP %d", s)
		}
		all = append(all, p.Data...)
		if p.NextToken == "" {
			break
		}
		next = p.NextToken
	}
	ids := map[string]payments.Identity{}
	for _, id := range all {
		ids[id.IdentityID] = id
	}
	if len(all) < 100 || len(ids) != len(all) {
		t.Fatalf("%d identities, %d distinct", len(all), len(ids))
	}
	// Every payment's beneficiary and instrument are in the directory.
	for _, p := range payFilterAll(t, e, payments.Filter{}, 100)[:50] {
		ben, ok := ids[p.Destination.BeneficiaryIdentityID]
		if !ok || ben.PaymentRole != payments.RoleBeneficiary {
			t.Fatalf("payment %s: beneficiary %s not listed", p.PaymentID, p.Destination.BeneficiaryIdentityID)
		}
		var ins payments.InstrumentsPage
		if s := sandboxtest.Get(t, e.base+payments.PathIdentities+"/"+ben.IdentityID+payments.SuffixInstruments, e.tok, &ins); s != 200 || len(ins.Data) == 0 {
			t.Fatalf("instruments of %s: HTTP %d", ben.IdentityID, s)
		}
		found := false
		for _, in := range ins.Data {
			found = found || in.FinancialInstrumentID == p.Destination.BeneficiaryFinancialInstrumentID && in.Currency == p.Destination.DestinationCurrency
		}
		if !found {
			t.Fatalf("payment %s: instrument %s not among its beneficiary's", p.PaymentID, p.Destination.BeneficiaryFinancialInstrumentID)
		}
	}
	s = sandboxtest.Get(t, e.base+payments.PathIdentities+"/nope"+payments.SuffixInstruments, e.tok, &body)
	payCheckErr(t, "unknown identity", s, body, 404, "USR_002")
}

// payLedger reads a whole window of the ledger with record-offset paging.
func payLedger(t *testing.T, e payEnv, cur string, from, to time.Time) []payments.LedgerTransaction {
	t.Helper()
	var all []payments.LedgerTransaction
	for offset := 0; ; {
		q := url.Values{"currency": {cur}, "start-dttm": {from.Format(time.RFC3339)}, "end-dttm": {to.Format(time.RFC3339)},
			"page-size": {"50"}, "offset": {fmt.Sprint(offset)}}
		var page payments.LedgerPage
		if s := sandboxtest.Get(t, e.base+payments.PathLedger+"?"+q.Encode(), e.tok, &page); s != 200 {
			t.Fatalf("ledger: HTTP %d", s)
		}
		if page.Offset != offset || page.PageSize != 50 || page.PageElements != len(page.StatementTransactions) {
			t.Fatalf("ledger envelope %+v", page)
		}
		all = append(all, page.StatementTransactions...)
		if page.Offset+page.PageElements >= page.Total {
			if len(all) != page.Total {
				t.Fatalf("read %d ledger records, total says %d", len(all), page.Total)
			}
			return all
		}
		offset += page.PageSize
	}
}

// TestPayLedgerAndBalances checks that the ledger is a chain of balances
// that ends at the balance, and that every payment movement matches its
// payment.
func TestPayLedgerAndBalances(t *testing.T) {
	e := payStart(t, nil)
	var body sandboxtest.PayErr
	s := sandboxtest.Get(t, e.base+payments.PathLedger+"?currency=USD&page-size=51", e.tok, &body)
	payCheckErr(t, "page-size 51", s, body, 400, "USR_001")
	s = sandboxtest.Get(t, e.base+payments.PathLedger+"?page-size=10", e.tok, &body)
	payCheckErr(t, "no currency", s, body, 400, "USR_001")
	s = sandboxtest.Get(t, e.base+payments.PathLedger+"?currency=XYZ&page-size=10"+ledgerWindow, e.tok, &body)
	payCheckErr(t, "unconfigured currency", s, body, 500, "CFG_001")
	var def payments.LedgerPage
	if sandboxtest.Get(t, e.base+payments.PathLedger+"?currency=USD&page-size=25"+ledgerWindow, e.tok, &def); def.PageSize != 25 || def.Offset != 0 || def.PageElements != 25 {
		t.Fatalf("ledger defaults: %+v", def)
	}

	from, to := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), sandboxtest.Start().Add(time.Hour)
	var bal payments.Balances
	sandboxtest.Get(t, e.base+payments.PathBalances, e.tok, &bal)
	if len(bal.Balances) != 3 {
		t.Fatalf("balances: %+v", bal)
	}
	payByID := map[string]payments.Payment{}
	for _, p := range payFilterAll(t, e, payments.Filter{}, 100) {
		payByID[p.PaymentID] = p
	}
	for _, b := range bal.Balances {
		txns := payLedger(t, e, b.Currency, from, to)
		reserved := decimal.Zero
		for i, x := range txns {
			if i > 0 && !x.AvailableBalanceBefore.Equal(txns[i-1].AvailableBalanceAfter.Decimal()) {
				t.Fatalf("%s ledger %d: before %s != previous after %s", b.Currency, i, x.AvailableBalanceBefore, txns[i-1].AvailableBalanceAfter)
			}
			if x.AvailableBalanceAfter.Decimal().IsNegative() {
				t.Fatalf("%s ledger overdrawn at %d", b.Currency, i)
			}
			switch x.Operation {
			case payments.OpReserve:
				reserved = reserved.Add(x.Amount.Decimal())
			case payments.OpDebit, payments.OpRelease:
				reserved = reserved.Sub(x.Amount.Decimal())
			}
			// The document: txnReference is the payment id on RESERVE and
			// DEBIT, null on every other operation.
			ref := x.Reference()
			if (ref != "") != (x.Operation == payments.OpReserve || x.Operation == payments.OpDebit) {
				t.Fatalf("ledger %s with txnReference %q", x.Operation, ref)
			}
			if ref == "" {
				continue
			}
			p, ok := payByID[ref]
			if !ok || p.Originator.SourceCurrency != x.Currency || !p.Originator.SourceAmount.Equal(x.Amount.Decimal()) {
				t.Fatalf("ledger %s %s of %s does not match its payment %+v", x.Operation, x.Amount, ref, p.Originator)
			}
		}
		last := txns[len(txns)-1]
		if !last.AvailableBalanceAfter.Equal(b.AvailableBalance.Decimal()) || !reserved.Equal(b.ReservedBalance.Decimal()) {
			t.Fatalf("%s: ledger ends at %s reserved %s, balances say %s reserved %s", b.Currency, last.AvailableBalanceAfter, reserved, b.AvailableBalance, b.ReservedBalance)
		}
	}
	// Each state reached has its movement: a RESERVE for every payment
	// initiated, a DEBIT once COMPLETED and none when FAILED or DECLINED
	// (the document names the payment only on RESERVE and DEBIT).
	ops := map[string]map[string]bool{}
	for _, cur := range []string{"USD", "EUR", "GBP"} {
		for _, x := range payLedger(t, e, cur, from, to) {
			if ops[x.Reference()] == nil {
				ops[x.Reference()] = map[string]bool{}
			}
			ops[x.Reference()][x.Operation] = true
		}
	}
	// Only a prefunded payment moves the prefunded account (the vendor's
	// document: the customer owes a just-in-time one, a credit one is
	// invoiced): none reserves a just-in-time payment, before or after its
	// funds came.
	jit := 0
	for id, p := range payByID {
		o := ops[id]
		if f := figures.FundingOf(&p); p.PaymentState == payments.Quoted || f.Class != figures.Prefunded {
			if len(o) != 0 {
				t.Fatalf("%s payment %s (%s) has ledger operations %v", p.PaymentState, id, f.Name(), o)
			}
			if f.Class == figures.JustInTime {
				jit++
			}
			continue
		}
		debit := p.PaymentState == payments.Completed || p.PaymentState == payments.Returned
		if !o[payments.OpReserve] || o[payments.OpDebit] != debit {
			t.Fatalf("payment %s in %s has ledger operations %v", id, p.PaymentState, o)
		}
	}
	if jit == 0 {
		t.Fatal("no just-in-time payment in the window: nothing checked")
	}
}

// TestPayStateProgression advances the clock: live payments arrive and move
// through the states, and balances follow.
func TestPayStateProgression(t *testing.T) {
	e := payStart(t, func(o *sandbox.Options) { o.LivePaymentsPerMinute = 6 })
	inFlight := payments.Filter{PaymentStates: []payments.State{payments.Initiated, payments.Validating, payments.Transferring}}
	before := payFilterAll(t, e, payments.Filter{}, 100)
	var bal0 payments.Balances
	sandboxtest.Get(t, e.base+payments.PathBalances, e.tok, &bal0)

	e.srv.Clock().Advance(30 * time.Minute)
	tok := sandboxtest.PaymentsToken(t, e.srv)
	e.tok = tok
	after := payFilterAll(t, e, payments.Filter{}, 100)
	if n := len(after) - len(before); n < 100 || n > 260 {
		t.Fatalf("%d new payments in 30 minutes at 6 a minute", n)
	}
	if after[len(after)-1].PaymentID != before[len(before)-1].PaymentID {
		t.Fatal("history changed under the clock")
	}
	live := payFilterAll(t, e, inFlight, 100)
	if len(live) == 0 {
		t.Fatal("no payment in flight after 30 minutes of traffic")
	}
	watch := live[0]
	e.srv.Clock().Advance(8 * time.Hour)
	e.tok = sandboxtest.PaymentsToken(t, e.srv)
	var now payments.Payment
	sandboxtest.Get(t, e.base+payments.PathPaymentV3+watch.PaymentID, e.tok, &now)
	if now.PaymentState.Unfinished() || !now.LastStateUpdatedAt.After(watch.LastStateUpdatedAt) {
		t.Fatalf("payment %s still %s after 8 hours (was %s)", watch.PaymentID, now.PaymentState, watch.PaymentState)
	}
	var hist payments.StateTransitions
	sandboxtest.Get(t, e.base+payments.PathPaymentV3+watch.PaymentID+payments.SuffixStates, e.tok, &hist)
	if len(hist.StateTransitions) < 3 || hist.StateTransitions[len(hist.StateTransitions)-1].UpdatedTo != now.PaymentState {
		t.Fatalf("history %+v", hist)
	}
	var bal1 payments.Balances
	sandboxtest.Get(t, e.base+payments.PathBalances, e.tok, &bal1)
	if bal1.Balances[0].AvailableBalance.Equal(bal0.Balances[0].AvailableBalance.Decimal()) || !bal1.Timestamp.After(bal0.Timestamp) {
		t.Fatalf("USD balance did not move: %s", bal1.Balances[0].AvailableBalance)
	}
}

// TestPayCreate covers quote, create (201), idempotent internalId and 402.
func TestPayCreate(t *testing.T) {
	e := payStart(t, nil)
	ben := e.srv.Info().Samples["beneficiary_identity_id"]
	var ins payments.InstrumentsPage
	sandboxtest.Get(t, e.base+payments.PathIdentities+"/"+ben+payments.SuffixInstruments, e.tok, &ins)
	in := ins.Data[0]
	src := map[string]string{"MXN": "USD", "PHP": "USD", "INR": "USD", "BRL": "USD", "USD": "EUR", "EUR": "GBP", "RLUSD": "USD"}[in.Currency]
	// The document's quote: a collection of one quote for a source amount.
	type quotes struct {
		Quotes []struct {
			QuoteID, QuoteStatus string
		}
	}
	quoteReq := func(src, dst, amount string) map[string]any {
		return map[string]any{"quoteAmount": json.Number(amount), "quoteAmountType": "SOURCE_AMOUNT", "sourceCurrency": src,
			"destinationCurrency": dst, "payoutCategory": "BANK", "payinCategory": "PRE_FUNDING"}
	}
	quoteFor := func(amount string) (q struct{ QuoteID, QuoteStatus string }) {
		var qc quotes
		if s := sandboxtest.PostJSON(t, e.base+"/v2/quotes/quote-collection", e.tok, quoteReq(src, in.Currency, amount), &qc); s != 201 || len(qc.Quotes) != 1 || qc.Quotes[0].QuoteStatus != "ACTIVE" {
			t.Fatalf("quote: HTTP %d %+v", s, qc)
		}
		return qc.Quotes[0]
	}
	q := quoteFor("1250.00")
	req := payments.CreatePaymentRequest{QuoteID: q.QuoteID, BeneficiaryIdentityID: ben, BeneficiaryFinancialInstrumentID: in.FinancialInstrumentID, InternalID: "test-create-1"}
	var p, again payments.Payment
	if s := sandboxtest.PostJSON(t, e.base+payments.PathPayments, e.tok, req, &p); s != 201 || p.PaymentState != payments.Initiated || !p.Originator.SourceAmount.Equal(money.MustParse("1250")) {
		t.Fatalf("create: HTTP %d %+v", s, p)
	}
	if s := sandboxtest.PostJSON(t, e.base+payments.PathPayments, e.tok, req, &again); s != 201 || again.PaymentID != p.PaymentID {
		t.Fatalf("repeat with the same internalId: HTTP %d, id %s vs %s", s, again.PaymentID, p.PaymentID)
	}
	if got := payFilterAll(t, e, payments.Filter{InternalID: "test-create-1"}, 10); len(got) != 1 || got[0].PaymentID != p.PaymentID {
		t.Fatalf("lookup of the created payment: %+v", got)
	}
	big := quoteFor("90000000.00")
	req = payments.CreatePaymentRequest{QuoteID: big.QuoteID, BeneficiaryIdentityID: ben, BeneficiaryFinancialInstrumentID: in.FinancialInstrumentID}
	var body sandboxtest.PayErr
	s := sandboxtest.PostJSON(t, e.base+payments.PathPayments, e.tok, req, &body)
	payCheckErr(t, "beyond the balance", s, body, 402, "USR_067")
	s = sandboxtest.PostJSON(t, e.base+"/v2/quotes/quote-collection", e.tok, quoteReq("USD", "JPY", "10"), &body)
	payCheckErr(t, "corridor not configured", s, body, 500, "CFG_002")
}

// TestPayDeterminismAndHostile: one seed gives one world; hostile strings
// reach free-text fields only when switched on.
func TestPayDeterminismAndHostile(t *testing.T) {
	a, b := payStart(t, nil), payStart(t, nil)
	pa, pb := payFilterAll(t, a, payments.Filter{}, 100), payFilterAll(t, b, payments.Filter{}, 100)
	ja, _ := json.Marshal(pa)
	jb, _ := json.Marshal(pb)
	if string(ja) != string(jb) {
		t.Fatal("two sandboxes with one seed disagree")
	}
	c := payStart(t, func(o *sandbox.Options) { o.Seed = 2 })
	if pc := payFilterAll(t, c, payments.Filter{}, 100); pc[0].PaymentID == pa[0].PaymentID {
		t.Fatal("another seed gives the same payments")
	}
	if strings.ContainsRune(pa[0].Destination.BeneficiaryIdentityNickName, 0x1b) {
		t.Fatal("hostile strings without the fault")
	}
	if err := a.srv.SetFaults(sandbox.FaultSettings{Hostile: true}); err != nil {
		t.Fatal(err)
	}
	hostile := 0
	for _, p := range payFilterAll(t, a, payments.Filter{}, 100)[:24] {
		n := p.Destination.BeneficiaryIdentityNickName
		if strings.ContainsAny(n, "\x1b\x07\r\x7f\u202e\u200b\u009b") {
			hostile++
		}
	}
	if hostile == 0 {
		t.Fatal("hostile fault on, but no nickname carries a hostile fragment")
	}
}
