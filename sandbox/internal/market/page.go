package market

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"treasury/sandbox/internal/simkit"
	"treasury/wire/liquidity"
)

// query is a parsed list request: a page and a time window in unix
// milliseconds, both ends inclusive, already clamped to history and now.
type query struct {
	size, number int
	startMs      int64
	endMs        int64
	nowMs        int64
}

// badRequest is a query the interface refuses with 400.
type badRequest string

func (b badRequest) Error() string { return string(b) }

// parseQuery reads pageSize, pageNumber, startTime and endTime.
func (s *Sim) parseQuery(v url.Values, now time.Time) (query, error) {
	q := query{size: liquidity.DefaultPageSize, nowMs: now.UnixMilli()}
	if raw := v.Get("pageSize"); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil || n < 1 {
			return q, badRequest(fmt.Sprintf("pageSize must be an integer from 1 to %d, got %q", liquidity.MaxPageSize, raw))
		}
		if n > liquidity.MaxPageSize {
			return q, badRequest(fmt.Sprintf("pageSize %d is above the maximum %d", n, liquidity.MaxPageSize))
		}
		q.size = n
	}
	if raw := v.Get("pageNumber"); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil || n < 0 {
			return q, badRequest(fmt.Sprintf("pageNumber must be an integer from 0, got %q", raw))
		}
		q.number = n
	}
	q.startMs, q.endMs = s.histMs, q.nowMs
	if raw := v.Get("startTime"); raw != "" {
		t, err := parseTime(raw)
		if err != nil {
			return q, badRequest(fmt.Sprintf("startTime %q is not an ISO 8601 date-time", raw))
		}
		q.startMs = max(t.UnixMilli(), s.histMs)
	}
	if raw := v.Get("endTime"); raw != "" {
		t, err := parseTime(raw)
		if err != nil {
			return q, badRequest(fmt.Sprintf("endTime %q is not an ISO 8601 date-time", raw))
		}
		if st := v.Get("startTime"); st != "" {
			if s0, _ := parseTime(st); t.Before(s0) {
				return q, badRequest("endTime is before startTime")
			}
		}
		q.endMs = min(t.UnixMilli(), q.nowMs)
	}
	return q, nil
}

// parseTime accepts RFC 3339 with or without fractional seconds, and a
// date-time without zone as UTC.
func parseTime(s string) (time.Time, error) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("not a date-time: %q", s)
}

// window returns the indexes [from, to) of the page's items among total
// items, and the envelope of the page (spec 2.1). A page past the last is
// empty and last.
func (q query) window(total int64) (from, to int64, info liquidity.PageInfo) {
	size := int64(q.size)
	pages := (total + size - 1) / size
	info = liquidity.PageInfo{First: q.number == 0, TotalElements: int(total), TotalPages: int(pages)}
	from = int64(q.number) * size
	if from >= total {
		info.Last = true
		return 0, 0, info
	}
	to = min(from+size, total)
	info.Last = to >= total
	return from, to, info
}

// serve answers a list: the page that page builds for the request's query,
// or 400 when the query does not parse.
func serve[P any](s *Sim, page func(query) P) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		q, err := s.parseQuery(r.URL.Query(), s.env.Clock.Now())
		if err != nil {
			simkit.PlainError(w, http.StatusBadRequest, err.Error())
			return
		}
		simkit.WriteJSON(w, http.StatusOK, page(q))
	}
}
