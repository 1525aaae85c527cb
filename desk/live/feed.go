package live

import (
	"context"
	"encoding/json"
	"time"

	"treasury/wire/apierr"
)

// Feed fetches one topic on an interval. Build it with ListFeed, FoldFeed
// or ValueFeed, which keep the topic's data of the type its key declares.
type Feed struct {
	Topic     Topic
	Interface apierr.Interface
	Interval  time.Duration
	// Always polls the topic even when nobody watches it, because the
	// header summarizes it (health, token expiry, balances for alerts).
	Always bool
	// Header tells every subscriber of each change of the topic, watched
	// or not, because the header shows its data (the token's expiry).
	// What the header shows of the other topics always polled (their
	// health and their alerts) is told to everyone when it changes.
	Header bool

	fetch func(ctx context.Context) (any, error)
	fold  func(prev, fetched any, at time.Time) (any, Changes)
	// encode and decode carry what fetch answers between the processes
	// of a site (relay.go).
	encode func(fetched any) ([]byte, error)
	decode func([]byte) (any, error)
	// asRead is what the store holds as an answer its fold takes from
	// nothing to the same data: what a process of a site that just came
	// gets of the poller's (relay.go).
	asRead func(held any, at time.Time) (any, bool)
	whole  func() bool
	// cursor and resume carry where the feed's reads are from one
	// poller of a site to the next (relay.go).
	cursor  func() json.RawMessage
	resume  func(json.RawMessage)
	samples func(fetched, data any) []Sample
	alerts  func(data any, now time.Time) []Alert
}

// FeedOptions are a feed's interval and what it derives from its data.
type FeedOptions[F, T any] struct {
	Interface apierr.Interface
	Interval  time.Duration
	Always    bool
	Header    bool
	// Samples, when set, extracts points for history charts from what
	// was fetched and from the data held after the fold.
	Samples func(fetched F, data T) []Sample
	// Alerts, when set, evaluates data-driven alert conditions; its result
	// replaces the feed's previous data alerts. now is the platform's time
	// on Interface's clock, and so are the times it gives the alerts (the
	// store moves them onto its own clock).
	Alerts func(data T, now time.Time) []Alert
	// Whole, when set, says whether the feed's own reads so far hold the
	// whole of its topic (a window read in parts over several polls): a
	// process of a site that does not poll and reads the topic itself
	// (nobody polls it for the site) follows the poller's changes only
	// once they do (relay.go).
	Whole func() bool
	// AsRead, when the data held is not of the type fetched, makes of it
	// an answer the fold takes from nothing to the same data (relay.go);
	// otherwise the data held is that answer.
	AsRead func(held T, at time.Time) F
	// Cursor, when set, is where the feed's reads are (a window's newest
	// record and the ranges left to read, the payments' last read): the
	// site's poller publishes it with each read, and a process that takes
	// the lease over, holding the topic as the poller held it, goes on
	// from there (Resume) instead of reading the window again.
	Cursor func() json.RawMessage
	Resume func(json.RawMessage)
}

// FoldFeed is a feed that folds what it fetches (an F) into what it holds
// (a T), saying what changed: the payments merged into the set held, the
// quotes new since the last poll added to the window.
func FoldFeed[F, T any](k Key[T], fetch func(ctx context.Context) (F, error), fold func(prev T, fetched F, at time.Time) (T, Changes), o FeedOptions[F, T]) Feed {
	f := Feed{Topic: k.topic, Interface: o.Interface, Interval: o.Interval, Always: o.Always, Header: o.Header, whole: o.Whole,
		cursor: o.Cursor, resume: o.Resume,
		fetch: func(ctx context.Context) (any, error) { return fetch(ctx) },
		fold: func(prev, fetched any, at time.Time) (any, Changes) {
			p, _ := prev.(T)
			return fold(p, fetched.(F), at)
		},
		encode: func(fetched any) ([]byte, error) { return json.Marshal(fetched.(F)) },
		asRead: func(held any, at time.Time) (any, bool) {
			h, ok := held.(T)
			if !ok {
				return nil, false
			}
			if o.AsRead != nil {
				return o.AsRead(h, at), true
			}
			f, ok := any(h).(F)
			return f, ok
		},
		decode: func(b []byte) (any, error) {
			var f F
			err := json.Unmarshal(b, &f)
			return f, err
		}}
	if o.Samples != nil {
		f.samples = func(fetched, data any) []Sample { return o.Samples(fetched.(F), data.(T)) }
	}
	if o.Alerts != nil {
		f.alerts = func(data any, now time.Time) []Alert { return o.Alerts(data.(T), now) }
	}
	return f
}

// ListFeed is a feed whose fetch returns the whole list: the changes are
// the records added, gone or changed by id.
func ListFeed[E any](k Key[[]E], id func(E) string, fetch func(ctx context.Context) ([]E, error), o FeedOptions[[]E, []E]) Feed {
	return FoldFeed(k, fetch, func(prev, next []E, _ time.Time) ([]E, Changes) { return next, DiffList(prev, next, id) }, o)
}

// ValueFeed is a feed of one value (a balance sheet, a token's expiry):
// any change is a Reset; an equal value is no change.
func ValueFeed[T any](k Key[T], fetch func(ctx context.Context) (T, error), o FeedOptions[T, T]) Feed {
	return FoldFeed(k, fetch, func(prev, next T, _ time.Time) (T, Changes) {
		if same(prev, next) {
			return next, Changes{}
		}
		return next, Changes{Reset: true}
	}, o)
}
