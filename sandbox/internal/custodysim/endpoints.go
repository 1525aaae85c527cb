package custodysim

import (
	"cmp"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"treasury/sandbox/internal/simkit"
	"treasury/wire/custody"
)

// list answers GET /v1/domains/{domainId}/endpoints.
func (s *Sim) list(w http.ResponseWriter, r *http.Request) {
	if !s.domain(w, r) {
		return
	}
	q := r.URL.Query()
	limit, sorted, err := s.selection(q)
	if err != nil {
		simkit.PlainError(w, http.StatusBadRequest, err.Error())
		return
	}
	s.mu.Lock()
	s.settle(s.env.Clock.Now())
	all := s.filtered(q)
	s.mu.Unlock()
	sorted(all)
	from := 0
	after := q.Get("startingAfter")
	if after != "" {
		i := slices.IndexFunc(all, func(e custody.Endpoint) bool { return e.ID == after })
		if i < 0 {
			simkit.PlainError(w, http.StatusBadRequest, "startingAfter "+strconv.Quote(after)+" is not an endpoint of this listing")
			return
		}
		from = i + 1
	}
	to := min(from+limit, len(all))
	page := custody.EndpointsPage{Items: []custody.SignedEndpoint{}, CurrentStartingAfter: after}
	for _, e := range all[from:to] {
		page.Items = append(page.Items, s.present(e))
	}
	page.Count = len(page.Items)
	if to < len(all) {
		page.NextStartingAfter = all[to-1].ID
	}
	simkit.WriteJSON(w, http.StatusOK, page)
}

// get answers GET /v1/domains/{domainId}/endpoints/{endpointId} with the
// signed item.
func (s *Sim) get(w http.ResponseWriter, r *http.Request) {
	if !s.domain(w, r) {
		return
	}
	id := r.PathValue("endpointId")
	s.mu.Lock()
	s.settle(s.env.Clock.Now())
	e, ok := s.byID[id]
	var cp custody.Endpoint
	if ok {
		cp = clone(e)
	}
	s.mu.Unlock()
	if !ok {
		simkit.PlainError(w, http.StatusNotFound, "no endpoint "+id+" in this domain")
		return
	}
	simkit.WriteJSON(w, http.StatusOK, s.present(cp))
}

// selection reads limit, sortBy and sortOrder.
func (s *Sim) selection(q url.Values) (int, func([]custody.Endpoint), error) {
	limit := custody.DefaultLimit
	if raw := q.Get("limit"); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil || n < 1 || n > custody.MaxLimit {
			return 0, nil, fmt.Errorf("limit must be an integer from 1 to %d, got %q", custody.MaxLimit, raw)
		}
		limit = n
	}
	var key func(a, b custody.Endpoint) int
	switch by := q.Get("sortBy"); by {
	case "", "createdAt":
		key = func(a, b custody.Endpoint) int { return a.Metadata.CreatedAt.Compare(b.Metadata.CreatedAt) }
	case "alias":
		key = func(a, b custody.Endpoint) int { return cmp.Compare(a.Alias, b.Alias) }
	case "id":
		key = func(a, b custody.Endpoint) int { return 0 }
	default:
		return 0, nil, fmt.Errorf("sortBy must be createdAt, alias or id, got %q", by)
	}
	desc := false
	switch o := q.Get("sortOrder"); o {
	case "", "asc", "ASC":
	case "desc", "DESC":
		desc = true
	default:
		return 0, nil, fmt.Errorf("sortOrder must be asc or desc, got %q", o)
	}
	if l := q.Get("lock"); l != "" && l != custody.LockUnlocked && l != custody.LockLocked && l != custody.LockArchived {
		return 0, nil, fmt.Errorf("lock must be Unlocked, Locked or Archived, got %q", l)
	}
	return limit, func(es []custody.Endpoint) {
		slices.SortStableFunc(es, func(a, b custody.Endpoint) int {
			c := key(a, b)
			if c == 0 {
				c = cmp.Compare(a.ID, b.ID) // ties break by id: pages never overlap
			}
			if desc {
				c = -c
			}
			return c
		})
	}, nil
}

// filtered copies the endpoints that match alias, address and lock. The
// caller holds s.mu.
func (s *Sim) filtered(q url.Values) []custody.Endpoint {
	alias := strings.ToLower(q.Get("alias"))
	addr := q.Get("address")
	lock := q.Get("lock")
	out := make([]custody.Endpoint, 0, len(s.endpoints))
	for _, e := range s.endpoints {
		if alias != "" && !strings.Contains(strings.ToLower(e.Alias), alias) ||
			addr != "" && !strings.EqualFold(e.Address, addr) ||
			lock != "" && e.Lock != lock {
			continue
		}
		out = append(out, clone(e))
	}
	return out
}

// clone copies an endpoint so that it can leave the lock.
func clone(e *custody.Endpoint) custody.Endpoint {
	c := *e
	c.Metadata.CustomProperties = maps.Clone(e.Metadata.CustomProperties)
	if e.Parameters != nil {
		p := *e.Parameters
		c.Parameters = &p
	}
	return c
}

// present decorates an endpoint with hostile strings when that fault is on
// and signs it.
func (s *Sim) present(e custody.Endpoint) custody.SignedEndpoint {
	if s.env.Faults.Hostile() {
		k := simkit.Key(e.ID)
		e.Alias = simkit.Decorate(e.Alias, true, k)
		e.Metadata.Description = simkit.Decorate(e.Metadata.Description, true, k+1)
	}
	b, _ := json.Marshal(e)
	return custody.SignedEndpoint{Data: e,
		Signature:  s.Sign(b),
		SigningKey: base64.StdEncoding.EncodeToString(s.key.Public().(ed25519.PublicKey))}
}
