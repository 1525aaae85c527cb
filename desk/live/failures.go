package live

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"time"

	"treasury/wire/apierr"
)

// Failure is a failed call to the platform, as the errors view shows it
// (spec 7.1 rule 4: code, type, status, timestamp, endpoint and method).
// The same failure met again in a row is counted, not repeated.
type Failure struct {
	// At is when it last happened (the store's clock); First when the run
	// of identical failures began.
	At, First time.Time
	// Topic is the feed whose fetch failed ("" for a call of a view).
	Topic Topic
	// Err is the error, with interface, method, path, status, code, type,
	// the server's timestamp, message, request id and attempts.
	Err *apierr.Error
	// Count is how many times in a row it happened.
	Count int
	// Range, when set, is what the failed call's feed could not read
	// because of it ("quotes of the window 09:20:02–09:24:00 UTC"): the
	// rest of the read was kept, this part is read again at the next poll.
	Range string
}

// Key identifies a failure for counting: the same interface, method,
// endpoint (path with its ids generalized), status and code.
func (f Failure) Key() string { return FailureKey(f.Err) }

// FailureKey is the key of a failure (see Failure.Key).
func FailureKey(e *apierr.Error) string {
	return string(e.Interface) + " " + e.Method + " " + Endpoint(e.Path) + e.Poll + " " + strconv.Itoa(e.HTTPStatus) + " " + e.Code + " " + e.Class.String()
}

var idSegment = regexp.MustCompile(`/[0-9a-fA-F]{8}-[0-9a-fA-F-]{27,}|/[0-9]+(/|$)`)

// Endpoint generalizes a path's ids ("/v2/wallets/{id}/transactions"), so
// that failures of one operation on different records count as one.
func Endpoint(path string) string {
	return idSegment.ReplaceAllStringFunc(path, func(m string) string {
		if len(m) > 0 && m[len(m)-1] == '/' {
			return "/{id}/"
		}
		return "/{id}"
	})
}

// failBook keeps the recent failed calls, newest last.
type failBook struct {
	max  int
	list []Failure
	// failing is the key of each endpoint's last outcome when it failed:
	// the distinct failures the header counts.
	failing map[apierr.Interface]map[string]string
}

func newFailBook(max int) *failBook {
	return &failBook{max: max, failing: map[apierr.Interface]map[string]string{}}
}

func (b *failBook) add(e *apierr.Error, topic Topic, at time.Time) {
	f := Failure{At: at, First: at, Topic: topic, Err: e, Count: 1}
	for i := len(b.list) - 1; i >= 0 && i >= len(b.list)-8; i-- {
		if b.list[i].Key() == f.Key() {
			old := b.list[i]
			f.First, f.Count = old.First, old.Count+1
			b.list = append(b.list[:i], b.list[i+1:]...)
			break
		}
	}
	b.list = append(b.list, f)
	if len(b.list) > b.max {
		b.list = append(b.list[:0], b.list[len(b.list)-b.max:]...)
	}
}

// annotate names, on the newest failure of key, the range its feed could
// not read.
func (b *failBook) annotate(key string, topic Topic, rng string) bool {
	for i := len(b.list) - 1; i >= 0; i-- {
		if b.list[i].Key() == key {
			b.list[i].Topic, b.list[i].Range = topic, rng
			return true
		}
	}
	return false
}

// outcome records the last outcome of an interface's endpoint.
func (b *failBook) outcome(iface apierr.Interface, endpoint string, err error) {
	m := b.failing[iface]
	if err == nil {
		delete(m, endpoint)
		return
	}
	if m == nil {
		m = map[string]string{}
		b.failing[iface] = m
	}
	key := err.Error()
	var ae *apierr.Error
	if errors.As(err, &ae) {
		key = FailureKey(ae)
	}
	m[endpoint] = key
}

// distinct counts the different failures of an interface's endpoints whose
// last call failed.
func (b *failBook) distinct(iface apierr.Interface) int {
	seen := map[string]bool{}
	for _, k := range b.failing[iface] {
		seen[k] = true
	}
	return len(seen)
}

// pollFailure is the error of a failed poll that no call reported (the
// transport tells the errors view of each call that failed): the poll's
// budget ran out while its calls were answered slowly, or the feed
// refused what it read. The errors view, the health and the page then say
// the same thing.
func pollFailure(f Feed, err error, budget time.Duration) *apierr.Error {
	e := &apierr.Error{Interface: f.Interface, Poll: string(f.Topic), Class: apierr.ClassUnknown, Message: err.Error(), Cause: err}
	if errors.Is(err, context.DeadlineExceeded) {
		e.Class = apierr.ClassTimeout
		e.Message = fmt.Sprintf("the poll of %s did not finish within %s", f.Topic, budget)
	}
	return e
}

// Failures returns the recent failed calls, newest first.
func (s *Store) Failures() []Failure {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Failure, len(s.fails.list))
	for i, f := range s.fails.list {
		out[len(out)-1-i] = f
	}
	return out
}

// RecordFailure adds a failed call to the book the errors view shows (the
// transport reports each failed call once, after its retries). A call the
// caller cancelled is not a failure of the platform and is not recorded.
func (s *Store) RecordFailure(e *apierr.Error) {
	if e == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fails.add(e, "", s.now())
	s.seq++
	s.notifyLocked("")
}
