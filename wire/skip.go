package wire

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
)

// Skip is a record of a list that could not be read.
type Skip struct {
	// What names the list ("custody endpoints").
	What string
	// Index is the record's place in its page, from 0.
	Index int
	// ID is the record's id when one could be found in it, else "".
	ID string
	// Reason says which field could not be read and why.
	Reason string
}

func (s Skip) String() string {
	who := fmt.Sprintf("record %d", s.Index+1)
	if s.ID != "" {
		who = s.ID
	}
	if s.What != "" {
		who = s.What + " " + who
	}
	return who + ": " + s.Reason
}

// IDOf finds an id in a record that could not be decoded: the first of the
// usual id fields that holds a string, at the top level or under "data".
func IDOf(raw []byte) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return ""
	}
	for _, k := range []string{"id", "paymentId", "quoteId", "tradeId", "identityId", "financialInstrumentId", "network_payment_id", "asset"} {
		var s string
		if json.Unmarshal(m[k], &s) == nil && s != "" {
			return s
		}
	}
	if d, ok := m["data"]; ok {
		return IDOf(d)
	}
	return ""
}

// Skips collects the records skipped during one read (a poll, a command)
// across every page and request it made. It is safe for concurrent use:
// pages are read concurrently.
type Skips struct {
	mu    sync.Mutex
	n     int
	first []Skip
}

// keep bounds the skips remembered; Count counts them all.
const keep = 20

type skipsKey struct{}

// WithSkips returns a context whose reads note their skipped records in the
// returned collector.
func WithSkips(ctx context.Context) (context.Context, *Skips) {
	s := &Skips{}
	return context.WithValue(ctx, skipsKey{}, s), s
}

// Note adds skipped records of the list what to the collector of ctx, if
// it has one.
func Note(ctx context.Context, what string, skipped []Skip) {
	if len(skipped) == 0 {
		return
	}
	s, _ := ctx.Value(skipsKey{}).(*Skips)
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, k := range skipped {
		s.n++
		if len(s.first) < keep {
			k.What = what
			s.first = append(s.first, k)
		}
	}
}

// NoteUnlisted counts n more skipped records of a read whose decoder
// listed only the first of them (a report's rows: reporting.MaxSkipped).
func NoteUnlisted(ctx context.Context, n int) {
	s, _ := ctx.Value(skipsKey{}).(*Skips)
	if s == nil || n <= 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n += n
}

// Count is how many records were skipped.
func (s *Skips) Count() int {
	if s == nil {
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n
}

// List is the first skips noted (at most 20), in the order noted.
func (s *Skips) List() []Skip {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Skip(nil), s.first...)
}

// Summary says in one line how many records were skipped and the first
// reason: "2 records skipped (custody endpoints 9f…: metadata.createdBy …)".
func Summary(n int, first []Skip) string {
	if n == 0 {
		return ""
	}
	word := "records"
	if n == 1 {
		word = "record"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d %s could not be read and %s skipped", n, word, map[bool]string{true: "was", false: "were"}[n == 1])
	if len(first) > 0 {
		b.WriteString(" (")
		b.WriteString(first[0].String())
		b.WriteString(")")
	}
	return b.String()
}
