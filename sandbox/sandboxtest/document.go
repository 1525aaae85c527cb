package sandboxtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"treasury/sandbox"
	"treasury/sandbox/contract"
	"treasury/wire/payments"
)

// DocumentServer stands in front of a sandbox as a payments server built
// from the vendor's document (not by us) would answer: its payments are a
// fixture in the document's shape (PaymentV2), with the payin values such
// a server sends (FUNDED, and JIT for the just-in-time ones, where our
// sandbox writes JIT_FUNDING), just-in-time payments AWAITING_FUNDING of
// which some are past their jitFundingExpiresAt. Everything but the
// payments (tokens, balances, ledger, the other interfaces) is the
// sandbox's. Every answer of its own is checked against the document.
type DocumentServer struct {
	// URL is the server's root: a profile of the sandbox with this URL
	// (sandbox.ProfileAt) reaches the fixture.
	URL string
	// Payments are the fixture's records, as the client decodes them.
	Payments []payments.Payment
	// Owed are, per source currency, the sum and count of the payments
	// awaiting their funds: what every surface must say is owed.
	Owed map[string]Owed
	// PastDue counts the payments awaiting funds past their due time.
	PastDue int
}

// Owed is an amount owed and how many payments owe it.
type Owed struct {
	Amount decimal.Decimal
	Count  int
}

// docPayment is one payment of the fixture, before it is written.
type docPayment struct {
	state  payments.State
	payin  string
	src    string
	amount string
	dst    string
	dstAmt string
	// age is how long ago it was initiated; due, when set, its
	// jitFundingExpiresAt relative to now.
	age time.Duration
	due *time.Duration
}

func dur(d time.Duration) *time.Duration { return &d }

// documentFixture is the payments of the fixture: the figures of the
// issue that found the gap (USD 224,564.95 in four, EUR 204,636.60 in
// five, GBP 37,231.69 in four, RLUSD 7,601.687487 in one owed just in
// time, ten of them past due), and prefunded payments (FUNDED) in flight
// and finished beside them.
func documentFixture() []docPayment {
	past, ahead := -30*time.Minute, 45*time.Minute
	jit := func(src, amt string, due time.Duration) docPayment {
		return docPayment{state: payments.AwaitingFunding, payin: "JIT", src: src, amount: amt, dst: "MXN", dstAmt: "1000.00",
			age: 3 * time.Hour, due: dur(due)}
	}
	return []docPayment{
		jit("USD", "100000.00", past), jit("USD", "80000.00", past), jit("USD", "40000.00", past), jit("USD", "4564.95", ahead),
		jit("EUR", "100000.00", past), jit("EUR", "50000.00", past), jit("EUR", "30000.00", past), jit("EUR", "20000.00", ahead),
		jit("EUR", "4636.60", ahead),
		jit("GBP", "20000.00", past), jit("GBP", "10000.00", past), jit("GBP", "5000.00", past), jit("GBP", "2231.69", 20*time.Minute),
		jit("RLUSD", "7601.687487", past),
		// Funded just in time: moving on, owed no more.
		{state: payments.Validating, payin: "JIT", src: "USD", amount: "777.00", dst: "MXN", dstAmt: "13000.00", age: 2 * time.Hour, due: dur(-time.Hour)},
		// Prefunded (the document's example payin), in flight and done.
		{state: payments.Transferring, payin: "FUNDED", src: "USD", amount: "1500.00", dst: "MXN", dstAmt: "25000.00", age: 20 * time.Minute},
		{state: payments.Initiated, payin: "FUNDED", src: "EUR", amount: "250.50", dst: "GBP", dstAmt: "215.00", age: 5 * time.Minute},
		{state: payments.Completed, payin: "FUNDED", src: "USD", amount: "999.00", dst: "MXN", dstAmt: "17000.00", age: 5 * time.Hour},
	}
}

// ServeDocument starts a DocumentServer in front of srv, its times
// relative to srv's clock now.
func ServeDocument(tb testing.TB, srv *sandbox.Server) *DocumentServer {
	tb.Helper()
	return ServeDocumentAt(tb, srv.URL, srv.Clock().Now)
}

// ServeDocumentAt starts a DocumentServer in front of the sandbox served
// at root (its Server.URL) whose clock is now, the fixture's times
// relative to now at the start (a frozen clock's: a platform opened on a
// profile can be pointed at it before it opens).
func ServeDocumentAt(tb testing.TB, root string, clock func() time.Time) *DocumentServer {
	tb.Helper()
	doc, err := contract.Load()
	if err != nil {
		tb.Fatal(err)
	}
	now := clock().UTC().Truncate(time.Second)
	d := &DocumentServer{Owed: map[string]Owed{}}
	var records []json.RawMessage
	for i, x := range documentFixture() {
		at := now.Add(-x.age)
		id := fmt.Sprintf("7ea3399c-0000-4000-8000-%012d", i+1)
		rec := map[string]any{
			"paymentId": id, "paymentState": x.state, "initiatedAt": at, "expiresAt": at.Add(72 * time.Hour),
			"lastStateUpdatedAt": at.Add(time.Second),
			"originator": map[string]any{"originatorIdentityId": "7ea3399c-0000-4000-8000-0000000000aa", "internalId": fmt.Sprintf("DOC-%d", i+1),
				"sourceCurrency": x.src, "sourceAmount": json.Number(x.amount), "payin": x.payin},
			"destination": map[string]any{"destinationAmount": json.Number(x.dstAmt), "destinationCurrency": x.dst, "destinationCountry": "MX"},
		}
		if x.due != nil {
			rec["jitFundingExpiresAt"] = now.Add(*x.due)
		}
		b, err := json.Marshal(rec)
		if err != nil {
			tb.Fatal(err)
		}
		records = append(records, b)
		var p payments.Payment
		if err := json.Unmarshal(b, &p); err != nil {
			tb.Fatal(err)
		}
		d.Payments = append(d.Payments, p)
		if x.state == payments.AwaitingFunding {
			o := d.Owed[x.src]
			o.Amount, o.Count = o.Amount.Add(decimal.RequireFromString(x.amount)), o.Count+1
			d.Owed[x.src] = o
			if *x.due <= 0 {
				d.PastDue++
			}
		}
	}
	target, err := url.Parse(root)
	if err != nil {
		tb.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(target)
	filter := sandbox.PrefixPayments + payments.PathFilterV3
	byID := sandbox.PrefixPayments + payments.PathPaymentV3
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var status int
		var out []byte
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		switch id := strings.TrimPrefix(r.URL.Path, byID); {
		case r.Method == http.MethodPost && r.URL.Path == filter:
			status, out = d.filter(body, records)
		case r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, byID) && !strings.Contains(id, "/") && d.index(id) >= 0:
			status, out = http.StatusOK, records[d.index(id)]
		default:
			rp.ServeHTTP(w, r)
			return
		}
		// Its own answers are the document's: checked as the sandbox's are.
		x := contract.Exchange{Method: r.Method, Path: strings.TrimPrefix(r.URL.Path, sandbox.PrefixPayments), Header: r.Header, Body: body,
			Status: status, RespHeader: http.Header{"Content-Type": {"application/json"}}, RespBody: out}
		if err := doc.Check(x); err != nil {
			tb.Errorf("the document's server answers what the document refuses: %v", err)
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Date", clock().UTC().Format(http.TimeFormat))
		w.WriteHeader(status)
		w.Write(out)
	}))
	tb.Cleanup(proxy.Close)
	d.URL = proxy.URL
	return d
}

// index is the fixture's index of payment id, -1 when it has none.
func (d *DocumentServer) index(id string) int {
	return slices.IndexFunc(d.Payments, func(p payments.Payment) bool { return p.PaymentID == id })
}

// filter answers a filter request: the fixture's payments in the states
// and of the ids it names, on one page.
func (d *DocumentServer) filter(body []byte, records []json.RawMessage) (int, []byte) {
	var req payments.FilterRequest
	if err := json.Unmarshal(body, &req); err != nil {
		return http.StatusBadRequest, []byte(`{"status":"400","errors":{"code":"USR_001","type":"USER_ERROR","title":"Bad Request","description":"not JSON","timestamp":"2026-01-01T00:00:00Z"}}`)
	}
	page := []json.RawMessage{}
	for i, p := range d.Payments {
		if len(req.Filter.PaymentStates) > 0 && !slices.Contains(req.Filter.PaymentStates, p.PaymentState) ||
			len(req.Filter.PaymentIDs) > 0 && !slices.Contains(req.Filter.PaymentIDs, p.PaymentID) {
			continue
		}
		page = append(page, records[i])
	}
	out, _ := json.Marshal(map[string]any{"data": page, "page": map[string]any{"size": len(page)}})
	return http.StatusOK, out
}
