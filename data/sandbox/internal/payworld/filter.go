package payworld

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"treasury/data/payments"
	"treasury/data/sandbox/internal/authsim"
	"treasury/data/sandbox/internal/simkit"
)

func (w *World) filterV2(rw http.ResponseWriter, r *http.Request, c authsim.Claims) {
	w.filter(rw, r, false)
}
func (w *World) filterV3(rw http.ResponseWriter, r *http.Request, c authsim.Claims) {
	w.filter(rw, r, true)
}

// filter answers POST /v{2,3}/payments/filter with body-token pagination
// (2.1): page.size default 20, maximum 100; page.lastPageToken absent on the
// last page. Sort: CREATED_AT, DESC (default) or ASC.
func (w *World) filter(rw http.ResponseWriter, r *http.Request, v3 bool) {
	var req payments.FilterRequest
	if err := simkit.ReadJSON(r, &req); err != nil {
		w.badRequest(rw, "The body must be a JSON filter request: "+err.Error())
		return
	}
	size := payments.FilterDefaultSize
	token := ""
	if req.Page != nil {
		if req.Page.Size < 0 || req.Page.Size > payments.FilterMaxSize {
			w.badRequest(rw, fmt.Sprintf("page.size must be between 1 and %d.", payments.FilterMaxSize))
			return
		}
		if req.Page.Size > 0 {
			size = req.Page.Size
		}
		token = req.Page.LastPageToken
	}
	srt := payments.Sort{SortField: payments.SortCreatedAt, SortDirection: payments.SortDesc}
	if req.Sort != nil {
		if req.Sort.SortField != "" {
			srt.SortField = req.Sort.SortField
		}
		if req.Sort.SortDirection != "" {
			srt.SortDirection = strings.ToUpper(req.Sort.SortDirection)
		}
	}
	if srt.SortField != payments.SortCreatedAt || (srt.SortDirection != payments.SortDesc && srt.SortDirection != payments.SortAsc) {
		w.badRequest(rw, "sort.sortField must be CREATED_AT and sort.sortDirection DESC or ASC.")
		return
	}
	asc := srt.SortDirection == payments.SortAsc
	fkey := filterKey(req.Filter, srt, size)

	w.mu.RLock()
	defer w.mu.RUnlock()
	cursor := -1 // index of the last payment of the previous page
	if token != "" {
		n, ok := w.decodeToken(token, fkey)
		if !ok || n >= w.nextArrival {
			w.badRequest(rw, "page.lastPageToken is not a token of this filter.")
			return
		}
		cursor = n
	}
	m := w.matcher(req.Filter)
	out := payments.FilterResponse{Data: make([]payments.Payment, 0, size), Filter: req.Filter, Sort: srt, Page: payments.PageIn{Size: size}}
	i, stop, dir := w.nextArrival-1, -1, -1
	if asc {
		i, stop, dir = 0, w.nextArrival, 1
	}
	if cursor >= 0 {
		i = cursor + dir
	}
	// Narrow the scan by the creation window when one is given.
	if asc && req.Filter.AfterTimestamp != nil {
		i = max(i, w.firstAtOrAfter(req.Filter.AfterTimestamp.UnixMilli()))
	}
	if !asc && req.Filter.BeforeTimestamp != nil {
		i = min(i, w.firstAtOrAfter(req.Filter.BeforeTimestamp.UnixMilli())-1)
	}
	last := -1
	for ; i != stop; i += dir {
		if !m(uint32(i)) {
			continue
		}
		if len(out.Data) == size {
			out.Page.LastPageToken = w.encodeToken(last, fkey)
			break
		}
		out.Data = append(out.Data, w.record(uint32(i), w.processed, v3))
		last = i
	}
	simkit.WriteJSON(rw, http.StatusOK, out)
}

// matcher returns the filter as a predicate on payment indexes.
func (w *World) matcher(f payments.Filter) func(uint32) bool {
	var ids map[uint32]bool
	if len(f.PaymentIDs) > 0 {
		ids = map[uint32]bool{}
		for _, id := range f.PaymentIDs {
			if seq, ok := w.lookup(id); ok {
				ids[seq] = true
			}
		}
	}
	internal, hasInternal := uint32(0), f.InternalID != ""
	if hasInternal {
		var ok bool
		if internal, ok = w.lookupInternal(f.InternalID); !ok {
			return func(uint32) bool { return false }
		}
	}
	var after, before int64 = -1 << 62, 1 << 62
	if f.AfterTimestamp != nil {
		after = f.AfterTimestamp.UnixMilli()
	}
	if f.BeforeTimestamp != nil {
		before = f.BeforeTimestamp.UnixMilli()
	}
	return func(seq uint32) bool {
		p := &w.pays[seq]
		if p.flags&fForeign != 0 || p.created < after || p.created >= before {
			return false
		}
		if ids != nil && !ids[seq] || hasInternal && seq != internal {
			return false
		}
		if len(f.DestinationCurrencies) > 0 && !slices.Contains(f.DestinationCurrencies, w.corridorOf(p).dst) {
			return false
		}
		if len(f.PaymentStates) > 0 {
			st := p.stateAt(w.processed)
			return slices.Contains(f.PaymentStates, st.state)
		}
		return true
	}
}

// filterKey fingerprints a filter, sort and page size, so a token only
// continues the search that issued it (spec 4.3 rule 1): with another
// filter, sort or size it is a 400.
func filterKey(f payments.Filter, s payments.Sort, size int) uint64 {
	b, _ := json.Marshal(struct {
		F    payments.Filter
		S    payments.Sort
		Size int
	}{f, s, size})
	return simkit.Key(string(b))
}

// Tokens are opaque to clients: the position and the filter's fingerprint,
// sealed with the seed.
func (w *World) encodeToken(pos int, fkey uint64) string {
	mac := simkit.Mix(w.seed, simkit.Key("page-token"), uint64(pos), fkey)
	return base64.RawURLEncoding.EncodeToString([]byte(fmt.Sprintf("%d.%x", pos, mac)))
}

func (w *World) decodeToken(tok string, fkey uint64) (int, bool) {
	raw, err := base64.RawURLEncoding.DecodeString(tok)
	if err != nil {
		return 0, false
	}
	a, b, ok := strings.Cut(string(raw), ".")
	if !ok {
		return 0, false
	}
	pos, err := strconv.Atoi(a)
	if err != nil || pos < 0 {
		return 0, false
	}
	if fmt.Sprintf("%x", simkit.Mix(w.seed, simkit.Key("page-token"), uint64(pos), fkey)) != b {
		return 0, false
	}
	return pos, true
}
