package live

import (
	"time"
)

// The alert journal: every change of the open alerts (one opened, one
// whose severity rose, one closed), noted once for the process as the
// alerts change, for whoever tells people of new alerts (a session's
// terminal bell, the outgoing webhook of `treasury serve`). Each reader
// keeps only its mark: what it has read up to.

// AlertChange is what happened to an alert.
type AlertChange int

// Changes of an alert.
const (
	Opened AlertChange = iota
	Raised             // its severity rose
	Closed
)

func (c AlertChange) String() string {
	switch c {
	case Raised:
		return "raised"
	case Closed:
		return "closed"
	}
	return "opened"
}

// AlertEvent is one change of the open alerts.
type AlertEvent struct {
	// Mark orders the events: each reader asks for those after the last
	// mark it read.
	Mark   uint64
	Change AlertChange
	// Alert is the alert as it is (Closed: as it was last open).
	Alert Alert
	// At is when the change was noted, on the store's clock.
	At time.Time
	// Initial marks an alert raised by the first judgement of its
	// source: a condition found at start, not a change.
	Initial bool
	// Repeat marks an alert of a key told at this severity or higher
	// within RepeatQuiet: a condition coming and going (a runway about
	// its limit, an endpoint failing every other poll), not news.
	Repeat bool
}

// Notable reports whether the event is news at severity min or above: a
// new alert, or one raised to it, neither found at start nor a repeat.
func (e AlertEvent) Notable(min Severity) bool {
	return e.Change != Closed && !e.Initial && !e.Repeat && e.Alert.Severity >= min
}

// RepeatQuiet is how long an alert told is not told again at the same
// severity when it closes and opens again.
const RepeatQuiet = 10 * time.Minute

// journalSize bounds the events kept: a reader further behind misses the
// oldest.
const journalSize = 512

type told struct {
	severity Severity
	at       time.Time
}

type journal struct {
	open   map[string]Alert
	judged map[Topic]bool
	told   map[string]told
	events []AlertEvent
	mark   uint64
}

func newJournal() *journal {
	return &journal{open: map[string]Alert{}, judged: map[Topic]bool{}, told: map[string]told{}}
}

// note compares the open alerts with those last noted and notes the
// changes; initial says the alerts new now come from their source's first
// judgement.
func (j *journal) note(open []Alert, at time.Time, initial bool) {
	now := make(map[string]Alert, len(open))
	for _, a := range open {
		now[a.Key] = a
		prev, was := j.open[a.Key]
		switch {
		case !was:
			j.add(AlertEvent{Change: Opened, Alert: a, At: at, Initial: initial})
		case a.Severity > prev.Severity:
			j.add(AlertEvent{Change: Raised, Alert: a, At: at})
		}
	}
	for k, a := range j.open {
		if _, ok := now[k]; !ok {
			j.add(AlertEvent{Change: Closed, Alert: a, At: at})
		}
	}
	j.open = now
}

func (j *journal) add(e AlertEvent) {
	if e.Change != Closed && !e.Initial {
		t, ok := j.told[e.Alert.Key]
		if ok && t.severity >= e.Alert.Severity && e.At.Sub(t.at) < RepeatQuiet {
			e.Repeat = true
		} else {
			j.told[e.Alert.Key] = told{severity: e.Alert.Severity, at: e.At}
		}
	}
	if e.Initial {
		j.told[e.Alert.Key] = told{severity: e.Alert.Severity, at: e.At}
	}
	j.mark++
	e.Mark = j.mark
	if len(j.events) == journalSize {
		j.events = append(j.events[:0], j.events[1:]...)
	}
	j.events = append(j.events, e)
}

// since returns the events after mark.
func (j *journal) since(mark uint64) []AlertEvent {
	var out []AlertEvent
	for _, e := range j.events {
		if e.Mark > mark {
			out = append(out, e)
		}
	}
	return out
}

// AlertEvents returns the changes of the open alerts after mark, oldest
// first, and the mark to ask from next time. A reader starts from
// AlertMark: the alerts open before it came are no news to it.
func (s *Store) AlertEvents(mark uint64) ([]AlertEvent, uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.alerts.journal.since(mark), s.alerts.journal.mark
}

// AlertMark is the mark of the latest change of the open alerts.
func (s *Store) AlertMark() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.alerts.journal.mark
}

// noted notes the changes of the open alerts in the journal after a
// judgement of topic t ("" for a call's outcome).
func (b *alertBook) noted(at time.Time, t Topic) {
	initial := t != "" && !b.journal.judged[t]
	if t != "" {
		b.journal.judged[t] = true
	}
	open := make([]Alert, 0, len(b.byKey))
	for _, a := range b.byKey {
		open = append(open, *a)
	}
	for _, as := range b.data {
		open = append(open, as...)
	}
	b.journal.note(open, at, initial)
}
