package payworld

import (
	"cmp"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"treasury/sandbox/internal/authsim"
	"treasury/sandbox/internal/simkit"
	"treasury/wire/payments"
)

// filterRequest is SearchPaymentsRequestV2.
type filterRequest struct {
	Filter filterEcho `json:"filter"`
	Sort   *struct {
		SortField     string `json:"sortField"`
		SortDirection string `json:"sortDirection"`
	} `json:"sort"`
	Page *struct {
		Size          *int   `json:"size"`
		LastPageToken string `json:"lastPageToken"`
	} `json:"page"`
}

// filterEcho is PaymentFilterV2, read from the request and echoed back.
type filterEcho struct {
	PaymentIDs                  []string         `json:"paymentIds,omitempty"`
	PaymentStates               []payments.State `json:"paymentStates,omitempty"`
	FilterRangeType             string           `json:"filterRangeType,omitempty"`
	BeforeTimestamp             *time.Time       `json:"beforeTimestamp,omitempty"`
	AfterTimestamp              *time.Time       `json:"afterTimestamp,omitempty"`
	BeneficiaryIdentityIDs      []string         `json:"beneficiaryIdentityIds,omitempty"`
	InternalID                  string           `json:"internalId,omitempty"`
	BeneficiaryIdentityNickname string           `json:"beneficiaryIdentityNickname,omitempty"`
	DestinationCurrencies       []string         `json:"destinationCurrencies,omitempty"`
	PaymentLabels               []string         `json:"paymentLabels,omitempty"`
}

// Sort fields of the document (PaymentSortFieldV2) and of the spec.
const (
	sortInitiatedAt = "initiatedAt"
	sortSpecCreated = "CREATED_AT"
)

// sortFields are the document's PaymentSortFieldV2 values; any other is a
// validation error.
func sortFields() []string {
	return []string{"internalId", "paymentState", "sourceCurrency", "sourceAmount", "destinationCurrency",
		"destinationCountry", "destinationAmount", sortInitiatedAt, "expiresAt", "lastStateUpdatedAt", "paymentLabel"}
}

// Range types of the document's time filter.
const (
	rangeCreation    = "PAYMENT_CREATION"
	rangeExpiry      = "PAYMENT_EXPIRY"
	rangeLastUpdated = "PAYMENT_STATUS_LAST_UPDATED"
)

// filter answers POST /v3/payments/filter with body-token pagination:
// page.size 1 to 100, default 20; page.lastPageToken absent on the last
// page. The document's face sorts by any PaymentSortFieldV2 (initiatedAt,
// DESC by default) and refuses the spec's CREATED_AT; the spec face sorts
// only by CREATED_AT and refuses the rest (a strict reading of the spec's
// one value). Payments that were never initiated (QUOTED) sort by the time
// of their quote.
func (w *World) filter(rw http.ResponseWriter, r *http.Request, _ authsim.Claims) {
	var req filterRequest
	if err := simkit.ReadJSON(r, &req); err != nil {
		w.badRequest(rw, r, "The body must be a JSON search request: "+err.Error())
		return
	}
	size, token := payments.FilterDefaultSize, ""
	if req.Page != nil {
		if req.Page.Size != nil {
			if *req.Page.Size < 1 || *req.Page.Size > payments.FilterMaxSize {
				w.badRequest(rw, r, fmt.Sprintf("page.size must be between 1 and %d.", payments.FilterMaxSize))
				return
			}
			size = *req.Page.Size
		}
		token = req.Page.LastPageToken
	}
	srt := sortEcho{SortField: sortInitiatedAt, SortDirection: payments.SortDesc}
	if w.spec {
		srt.SortField = sortSpecCreated
	}
	if req.Sort != nil {
		if req.Sort.SortField != "" {
			srt.SortField = req.Sort.SortField
		}
		if req.Sort.SortDirection != "" {
			srt.SortDirection = req.Sort.SortDirection
		}
	}
	switch {
	case w.spec && srt.SortField != sortSpecCreated:
		w.badRequest(rw, r, "Invalid sort.sortField "+simkit.Quoted(srt.SortField)+": the only sort field is CREATED_AT.")
		return
	case !w.spec && !slices.Contains(sortFields(), srt.SortField):
		w.badRequest(rw, r, "Invalid sort.sortField "+simkit.Quoted(srt.SortField)+": use one of "+strings.Join(sortFields(), ", ")+".")
		return
	case srt.SortDirection != payments.SortDesc && srt.SortDirection != payments.SortAsc:
		w.badRequest(rw, r, "Invalid sort.sortDirection "+simkit.Quoted(srt.SortDirection)+": use ASC or DESC.")
		return
	}
	if msg := w.checkFilter(req.Filter); msg != "" {
		w.badRequest(rw, r, msg)
		return
	}
	fkey := filterKey(req.Filter, srt, size)

	w.mu.RLock()
	defer w.mu.RUnlock()
	kind := inList
	if w.spec {
		kind = inListWithErrors
	}
	out := filterResponse{Data: make([]paymentRecord, 0, size), Filter: req.Filter, Sort: srt, Page: pageEcho{Size: size}}
	page, next, ok := w.searchPage(req.Filter, srt, size, token, fkey)
	if !ok {
		w.badRequest(rw, r, "page.lastPageToken is not a token of this search.")
		return
	}
	for _, seq := range page {
		out.Data = append(out.Data, w.record(seq, w.processed, kind))
	}
	out.Page.LastPageToken = next
	simkit.WriteJSON(rw, http.StatusOK, out)
}

// searchPage is the page of a search after token: the payments' indexes
// and the next page's token ("" on the last page). A search in creation
// order (initiatedAt, CREATED_AT) walks the world from the token's
// position, narrowed by the creation bounds, so a page costs what it
// holds; other orders sort every match. w.mu must be held.
func (w *World) searchPage(f filterEcho, s sortEcho, size int, token string, fkey uint64) ([]uint32, string, bool) {
	pos := -1
	if token != "" {
		n, ok := w.decodeToken(token, fkey)
		if !ok || n >= w.nextArrival {
			return nil, "", false
		}
		pos = n
	}
	if s.SortField != sortInitiatedAt && s.SortField != sortSpecCreated {
		order := w.searchOrder(f, s)
		start := pos + 1
		end := min(start+size, len(order))
		if start > end {
			return nil, "", false
		}
		next := ""
		if end < len(order) {
			next = w.encodeToken(end-1, fkey)
		}
		return order[start:end], next, true
	}
	// Creation order: pos is the index of the previous page's last payment.
	m := w.matcher(f)
	asc := s.SortDirection == payments.SortAsc
	i, stop, dir := w.nextArrival-1, w.base-1, -1
	if asc {
		i, stop, dir = w.base, w.nextArrival, 1
	}
	if pos >= 0 {
		i = pos + dir // a position pruned since is clamped below
	}
	byCreation := f.FilterRangeType == "" || f.FilterRangeType == rangeCreation
	if byCreation && asc && f.AfterTimestamp != nil {
		i = max(i, w.firstAtOrAfter(f.AfterTimestamp.UnixMilli()))
	}
	if byCreation && !asc && f.BeforeTimestamp != nil {
		i = min(i, w.firstAtOrAfter(f.BeforeTimestamp.UnixMilli()+1)-1)
	}
	if asc {
		i = max(i, w.base)
	}
	out := make([]uint32, 0, size)
	for ; i != stop && i >= w.base; i += dir {
		if !m(uint32(i)) {
			continue
		}
		if len(out) == size {
			return out, w.encodeToken(int(out[len(out)-1]), fkey), true
		}
		out = append(out, uint32(i))
	}
	return out, "", true
}

// searchOrder is every payment the filter selects, in the order asked.
// w.mu must be held.
func (w *World) searchOrder(f filterEcho, s sortEcho) []uint32 {
	m := w.matcher(f)
	var out []uint32
	for i := w.base; i < w.nextArrival; i++ {
		if m(uint32(i)) {
			out = append(out, uint32(i))
		}
	}
	desc := s.SortDirection == payments.SortDesc
	key := w.sortKey(s.SortField)
	slices.SortStableFunc(out, func(a, b uint32) int {
		c := key(a, b)
		if c == 0 {
			c = cmp.Compare(a, b)
		}
		if desc {
			return -c
		}
		return c
	})
	return out
}

// checkFilter refuses what the document refuses in a filter: a payment id
// that is not a uuid, an unknown range type, an internalId over 36
// characters.
func (w *World) checkFilter(f filterEcho) string {
	for _, id := range f.PaymentIDs {
		if !uuidPattern.MatchString(id) {
			return "filter.paymentIds must hold UUIDs, got " + simkit.Quoted(id) + "."
		}
	}
	switch f.FilterRangeType {
	case "", rangeCreation, rangeExpiry, rangeLastUpdated:
	default:
		return "Invalid filter.filterRangeType " + simkit.Quoted(f.FilterRangeType) + ": use PAYMENT_CREATION, PAYMENT_EXPIRY or PAYMENT_STATUS_LAST_UPDATED."
	}
	if len(f.InternalID) > 36 {
		return "filter.internalId must be at most 36 characters."
	}
	return ""
}

// sortKey compares two payments by a document sort field. w.mu must be
// held.
func (w *World) sortKey(field string) func(a, b uint32) int {
	t := w.processed
	rec := func(seq uint32) paymentRecord { return w.record(seq, t, inList) }
	switch field {
	case "sourceAmount":
		return func(a, b uint32) int { return cmp.Compare(w.payment(a).amount, w.payment(b).amount) }
	case "destinationAmount":
		return func(a, b uint32) int { return w.destAmount(w.payment(a)).Cmp(w.destAmount(w.payment(b))) }
	case "expiresAt":
		return func(a, b uint32) int { return rec(a).ExpiresAt.Compare(rec(b).ExpiresAt) }
	case "lastStateUpdatedAt":
		return func(a, b uint32) int { return cmp.Compare(w.payment(a).stateAt(t).at, w.payment(b).stateAt(t).at) }
	case "paymentState":
		return func(a, b uint32) int {
			return cmp.Compare(w.payment(a).stateAt(t).state, w.payment(b).stateAt(t).state)
		}
	case "internalId":
		return func(a, b uint32) int { return cmp.Compare(w.internalID(a), w.internalID(b)) }
	case "sourceCurrency":
		return func(a, b uint32) int {
			return cmp.Compare(w.corridorOf(w.payment(a)).src, w.corridorOf(w.payment(b)).src)
		}
	case "destinationCurrency":
		return func(a, b uint32) int {
			return cmp.Compare(w.corridorOf(w.payment(a)).dst, w.corridorOf(w.payment(b)).dst)
		}
	case "destinationCountry":
		return func(a, b uint32) int {
			return cmp.Compare(w.corridorOf(w.payment(a)).country, w.corridorOf(w.payment(b)).country)
		}
	default: // paymentLabel
		return func(a, b uint32) int {
			return cmp.Compare(strings.Join(rec(a).PaymentLabels, ","), strings.Join(rec(b).PaymentLabels, ","))
		}
	}
}

// matcher returns the filter as a predicate on payment indexes. Time
// bounds are inclusive at both ends, on the time filterRangeType names
// (creation by default).
func (w *World) matcher(f filterEcho) func(uint32) bool {
	var ids map[uint32]bool
	if len(f.PaymentIDs) > 0 {
		ids = map[uint32]bool{}
		for _, id := range f.PaymentIDs {
			if seq, ok := w.lookup(id); ok {
				ids[seq] = true
			}
		}
	}
	var after, before int64 = -1 << 62, 1 << 62
	if f.AfterTimestamp != nil {
		after = f.AfterTimestamp.UnixMilli()
	}
	if f.BeforeTimestamp != nil {
		before = f.BeforeTimestamp.UnixMilli()
	}
	t := w.processed
	when := func(p *pay) int64 { return p.created }
	switch f.FilterRangeType {
	case rangeExpiry:
		when = func(p *pay) int64 {
			if !p.initiated() {
				return p.created + quoteLifetime.Milliseconds()
			}
			return p.created + expiry.Milliseconds()
		}
	case rangeLastUpdated:
		when = func(p *pay) int64 { return p.stateAt(t).at }
	}
	return func(seq uint32) bool {
		p := w.payment(seq)
		if at := when(p); p.flags&fForeign != 0 || at < after || at > before {
			return false
		}
		if ids != nil && !ids[seq] {
			return false
		}
		if f.InternalID != "" && !strings.HasPrefix(w.internalID(seq), f.InternalID) {
			return false
		}
		ben := &w.bens[p.ben]
		if len(f.BeneficiaryIdentityIDs) > 0 && !slices.Contains(f.BeneficiaryIdentityIDs, ben.id) {
			return false
		}
		if f.BeneficiaryIdentityNickname != "" && ben.nick != f.BeneficiaryIdentityNickname {
			return false
		}
		if len(f.DestinationCurrencies) > 0 && !slices.Contains(f.DestinationCurrencies, w.corridorOf(p).dst) {
			return false
		}
		if len(f.PaymentLabels) > 0 && !w.hasLabel(seq, f.PaymentLabels) {
			return false
		}
		if len(f.PaymentStates) > 0 {
			return slices.Contains(f.PaymentStates, p.stateAt(t).state)
		}
		return true
	}
}

// hasLabel reports whether payment seq carries one of labels.
func (w *World) hasLabel(seq uint32, labels []string) bool {
	own := labelsFor(simkit.Mix(w.seed, uint64(seq)))
	if ci := w.created[seq]; ci != nil {
		own = ci.labels
	}
	for _, l := range own {
		if slices.Contains(labels, l) {
			return true
		}
	}
	return false
}

// filterKey fingerprints a filter, sort and page size, so a token only
// continues the search that issued it (spec 4.3 rule 1): with another
// filter, sort or size it is a 400.
func filterKey(f filterEcho, s sortEcho, size int) uint64 {
	b, _ := json.Marshal(struct {
		F    filterEcho
		S    sortEcho
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
