package payworld

import (
	"fmt"
	"net/http"
	"strconv"
	"time"

	"treasury/sandbox/internal/authsim"
	"treasury/sandbox/internal/simkit"
	"treasury/wire/payments"
)

// queryPage reads limit and next-token (query token style, 2.1): limit
// default 10, maximum 100. A token continues only the list (list, a key of
// the list and its parameters) and limit it was issued for (spec 4.3 rule
// 1). It answers 400 itself and returns ok false.
func (w *World) queryPage(rw http.ResponseWriter, r *http.Request, list uint64) (limit, start int, fkey uint64, ok bool) {
	q := r.URL.Query()
	limit = payments.IdentitiesDefaultLimit
	if s := q.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > payments.IdentitiesMaxLimit {
			w.badRequest(rw, r, fmt.Sprintf("limit must be an integer between 1 and %d.", payments.IdentitiesMaxLimit))
			return 0, 0, 0, false
		}
		limit = n
	}
	fkey = simkit.Mix(list, uint64(limit))
	if tok := q.Get("next-token"); tok != "" {
		pos, good := w.decodeToken(tok, fkey)
		if !good {
			w.badRequest(rw, r, "next-token is not a token of this list and limit.")
			return 0, 0, 0, false
		}
		start = pos
	}
	return limit, start, fkey, true
}

// identities answers GET /v3/identities: originators, then beneficiaries,
// narrowed by payment-role and nick-name (an exact match) when given.
func (w *World) identities(rw http.ResponseWriter, r *http.Request, _ authsim.Claims) {
	q := r.URL.Query()
	role, nick := q.Get("payment-role"), q.Get("nick-name")
	limit, start, fkey, ok := w.queryPage(rw, r, simkit.Key("identities|"+role+"|"+nick))
	if !ok {
		return
	}
	hostile := w.hostile()
	total := len(w.origs) + len(w.bens)
	out := identitiesResponse{Data: []identityRecord{}}
	i := start
	for ; i < total && len(out.Data) < limit; i++ {
		id := w.identityAt(i)
		if role != "" && id.role != role || nick != "" && id.nick != nick {
			continue
		}
		out.Data = append(out.Data, id.record(hostile, simkit.Mix(w.seed, simkit.Key("identity"), uint64(i))))
	}
	if i < total {
		out.NextToken = w.encodeToken(i, fkey)
	}
	simkit.WriteJSON(rw, http.StatusOK, out)
}

func (w *World) identityAt(i int) *identity {
	if i < len(w.origs) {
		return &w.origs[i]
	}
	return &w.bens[i-len(w.origs)]
}

// instruments answers GET /v3/identities/{id}/financial-instruments. An
// identity without instruments (an originator) answers as the document
// says: 404 "No identity or financial instruments found"; the spec face
// answers an empty list.
func (w *World) instruments(rw http.ResponseWriter, r *http.Request, _ authsim.Claims) {
	id := r.PathValue("id")
	// The page query is checked before the identity is looked up, so that
	// a limit above the maximum is a 400 for every identity (spec 4.3 rule
	// 3), including originators, which hold no instruments.
	limit, start, fkey, ok := w.queryPage(rw, r, simkit.Key("instruments|"+id))
	if !ok {
		return
	}
	bi, ok := w.benIndex[id]
	if !ok {
		for _, o := range w.origs {
			if o.id != id {
				continue
			}
			if w.spec {
				simkit.WriteJSON(rw, http.StatusOK, instrumentsResponse{Data: []instrumentRecord{}})
				return
			}
			w.notFound(rw, r, "financial instruments of identity "+simkit.Quoted(id))
			return
		}
		w.notFound(rw, r, "identity with id "+simkit.Quoted(id))
		return
	}
	hostile := w.hostile()
	ins := w.bens[bi].instruments
	out := instrumentsResponse{Data: []instrumentRecord{}}
	for i := start; i < len(ins) && len(out.Data) < limit; i++ {
		out.Data = append(out.Data, ins[i].record(hostile, simkit.Mix(w.seed, simkit.Key("instrument"), uint64(bi), uint64(i))))
	}
	if end := start + len(out.Data); end < len(ins) {
		out.NextToken = w.encodeToken(end, fkey)
	}
	simkit.WriteJSON(rw, http.StatusOK, out)
}

// ledger answers GET /v2/ledger-transactions (record offset style): the
// account of currency (required) in [start-dttm, end-dttm), oldest first
// (sort-direction=DESC for newest first), narrowed by status and
// txnReference when given; page-size required, at most 50; offset default
// 0. The document makes start-dttm and end-dttm required; the spec face
// defaults them to the beginning of the history and now.
func (w *World) ledger(rw http.ResponseWriter, r *http.Request, _ authsim.Claims) {
	q := r.URL.Query()
	cur := q.Get("currency")
	if cur == "" {
		w.badRequest(rw, r, "The query parameter currency is required.")
		return
	}
	// page-size is required (spec 4.3 and 8), though the spec also gives
	// it a default of 25: a request without it is refused.
	s, hasSize := q["page-size"]
	if !hasSize {
		w.badRequest(rw, r, fmt.Sprintf("The query parameter page-size is required (an integer between 1 and %d).", payments.LedgerMaxPageSize))
		return
	}
	size, err := strconv.Atoi(s[0])
	if err != nil || size < 1 || size > payments.LedgerMaxPageSize {
		w.badRequest(rw, r, fmt.Sprintf("page-size must be an integer between 1 and %d, got %s.", payments.LedgerMaxPageSize, simkit.Quoted(s[0])))
		return
	}
	offset := 0
	if s := q.Get("offset"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			w.badRequest(rw, r, "offset must be a non-negative integer.")
			return
		}
		offset = n
	}
	from, to := int64(-1<<62), int64(1<<62)
	for _, b := range []struct {
		name string
		dst  *int64
	}{{"start-dttm", &from}, {"end-dttm", &to}} {
		s := q.Get(b.name)
		if s == "" {
			if w.spec {
				continue
			}
			w.badRequest(rw, r, "The query parameter "+b.name+" is required (an ISO 8601 date-time such as 2026-11-01T00:00:00Z).")
			return
		}
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			w.badRequest(rw, r, b.name+" must be an ISO 8601 date-time such as 2026-11-01T00:00:00Z.")
			return
		}
		*b.dst = t.UnixMilli()
	}
	if to < from {
		w.badRequest(rw, r, "end-dttm must not be before start-dttm.")
		return
	}
	desc := false
	switch d := q.Get("sort-direction"); d {
	case "", payments.SortAsc:
	case payments.SortDesc:
		desc = true
	default:
		w.badRequest(rw, r, "sort-direction must be ASC or DESC.")
		return
	}
	status, ref := q.Get("status"), q.Get("txnReference")
	if status != "" && status != payments.TxnSuccess && status != payments.TxnPending {
		w.badRequest(rw, r, "status must be SUCCESS or PENDING.")
		return
	}
	ci := w.currencyIndex(cur)
	if ci < 0 {
		w.noAccount(rw, r, cur)
		return
	}
	w.mu.RLock()
	defer w.mu.RUnlock()
	win := w.accounts[ci].window(from, min(to, w.processed+1))
	if status == payments.TxnPending || ref != "" {
		var kept []entry
		for _, e := range win {
			if status != payments.TxnPending && (ref == "" || w.reference(e) == ref) {
				kept = append(kept, e)
			}
		}
		win = kept
	}
	page := ledgerResponse{Offset: offset, PageSize: size, Total: len(win), StatementTransactions: []ledgerRecord{}}
	for i := offset; i < len(win) && i < offset+size; i++ {
		e := win[i]
		if desc {
			e = win[len(win)-1-i]
		}
		page.StatementTransactions = append(page.StatementTransactions, w.ledgerRecord(e, cur))
	}
	page.PageElements = len(page.StatementTransactions)
	simkit.WriteJSON(rw, http.StatusOK, page)
}
