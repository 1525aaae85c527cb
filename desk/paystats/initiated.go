package paystats

import (
	"slices"
	"time"

	"treasury/desk/history"
	"treasury/desk/live"
	"treasury/wire/payments"
)

// Initiated is the payments initiated in a window per state they are in
// now, as the history file (desk/history) keeps them: per state the
// points of one read of the file over the window, each the count of a
// bucket of history.Buckets(From, At, live.ArchivePoints).
type Initiated struct {
	// States are the states read: first those of first (the chart's
	// order), then the other states of the payments held, by name.
	States []payments.State
	// Series are the points of each state, parallel to States (nil: none
	// in the file).
	Series [][]live.Point
	// From and At are the span read: the window's start and its end.
	From, At time.Time
	// Archived says the store has a history file (without one, nothing
	// was read).
	Archived bool
}

// initiatedName names the initiations of a window read from the file.
type initiatedName struct{ win time.Duration }

// InitiatedHistory is Initiated over the window win, read from the
// history file at each fetch of the payments, once for every session, on
// the store's goroutine (a read of 30 days takes tens of milliseconds,
// once a minute: the file's reads are cached until it is written); first
// are the states read first, in that order. A read that found what the
// one before found (the same cached points) changes nothing.
func InitiatedHistory(s *live.Store, win time.Duration, first []payments.State) live.Key[Initiated] {
	return live.DeriveTimed(s, live.PaymentsKey, nil, initiatedName{win},
		func(prev Initiated, in live.Snap[*live.PaymentSet]) (Initiated, bool) {
			if !s.Archived() {
				return Initiated{}, prev.Archived
			}
			at := s.Now()
			states := slices.Clone(first)
			var more []payments.State
			for st, n := range in.Data.CountByState() {
				if n > 0 && !slices.Contains(states, st) {
					more = append(more, st)
				}
			}
			slices.Sort(more)
			states = append(states, more...)
			out := Initiated{States: states, Series: make([][]live.Point, len(states)), From: at.Add(-win), At: at, Archived: true}
			same := slices.Equal(states, prev.States) && out.From.Truncate(time.Minute).Equal(prev.From.Truncate(time.Minute)) &&
				out.At.Truncate(time.Minute).Equal(prev.At.Truncate(time.Minute))
			for i, st := range states {
				out.Series[i] = s.ArchiveBetween(history.SeriesPayments+string(st), out.From, out.At, live.ArchivePoints)
				same = same && sameSlice(out.Series[i], prev.Series[i])
			}
			if same {
				return prev, false
			}
			return out, true
		})
}

// sameSlice reports whether a and b are the same slice (a cached read).
func sameSlice(a, b []live.Point) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}
