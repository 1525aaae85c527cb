package paging

import (
	"context"
	"strings"
	"sync"

	"treasury/wire/apierr"
	"treasury/wire/transport"
)

// Sizes remembers, per endpoint, the page size a server accepts, for the
// life of the process. Where the spec shows no maximum, a client starts at
// a conservative size; a server that caps lower answers 400, and First
// halves the size and asks again, so every later read of that endpoint
// uses the size that worked (spec 4.3 rule 3: a page size above the
// maximum is an invalid request). Safe for concurrent use.
type Sizes struct {
	mu sync.Mutex
	m  map[string]int
}

// MinSize is the smallest page First falls back to: a 400 that persists
// at it was not about the page size.
const MinSize = 10

// Size is the page size to use for endpoint: the one remembered, else
// start.
func (s *Sizes) Size(endpoint string, start int) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if n, ok := s.m[endpoint]; ok {
		return n
	}
	return start
}

// Known returns the size remembered for endpoint (0 when none), for
// `treasury doctor` and the errors view.
func (s *Sizes) Known() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]int, len(s.m))
	for k, v := range s.m {
		out[k] = v
	}
	return out
}

func (s *Sizes) set(endpoint string, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[string]int{}
	}
	s.m[endpoint] = n
}

// First reads the first page of endpoint with the remembered size (start
// when none). On a 400 that names or implies the page size (param is the
// query or body field that carries it), it halves the size, down to
// MinSize (or start when that is smaller), and asks again; the size that
// worked is remembered and returned with the page, for the pages that
// follow. When halving does not help, the first error is returned and
// nothing is remembered.
func First[P any](ctx context.Context, s *Sizes, endpoint, param string, start int, fetch func(ctx context.Context, size int) (P, error)) (P, int, error) {
	size := s.Size(endpoint, start)
	hctx, held := transport.Hold(ctx) // a refused size is the server's cap, not a failure
	p, err := fetch(hctx, size)
	if err == nil || !ImpliesPageSize(err, param) {
		held.Release()
		return p, size, err
	}
	first := err
	floor := min(MinSize, start)
	for size > floor {
		size = max(size/2, floor)
		p, err = fetch(hctx, size)
		if err == nil {
			held.Drop()
			s.set(endpoint, size)
			return p, size, nil
		}
		if !ImpliesPageSize(err, param) {
			held.Release()
			return p, size, err
		}
	}
	held.Release()
	return p, size, first
}

// ImpliesPageSize reports whether err is a 400 that names the page size,
// or says too little to rule it out: its message mentions param, "page",
// "size" or "limit"; or it is the wallet's ERR000.020, whose message never
// names the field (spec 7.2); or it has no message at all.
func ImpliesPageSize(err error, param string) bool {
	e, ok := apierr.As(err)
	if !ok || e.HTTPStatus != 400 || e.Class == apierr.ClassCredentials {
		return false // a refused token request is not about the list
	}
	if e.Code == "ERR000.020" {
		return true
	}
	msg := strings.ToLower(e.Title + " " + e.Message)
	if strings.TrimSpace(msg) == "" {
		return true
	}
	for _, w := range []string{strings.ToLower(param), "page", "size", "limit"} {
		if w != "" && strings.Contains(msg, w) {
			return true
		}
	}
	return false
}
