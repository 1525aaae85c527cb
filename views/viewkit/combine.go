package viewkit

import (
	"errors"

	"treasury/desk/live"
	"treasury/wire"
)

// Pages that read several topics fold their snapshots into the one their
// status line and state body show, so that a topic that failed or has not
// answered yet is named, never taken for a topic with no records.

// Source is one store topic of a page that reads several, named as a
// person knows it ("payments balances").
type Source struct {
	Topic live.Topic
	Name  string
}

// ErrNoAnswer stands, in a Partial, for a source that has not answered
// yet: its records are not among those shown.
var ErrNoAnswer = errors.New("no answer yet (loading)")

// Union is the snapshot of a page whose records come from several topics
// (the balances of the liquidity and of the payments interface): loaded
// once one of them answered, with the age of the oldest answer and the
// first error of a topic now stale; the topics without data, still
// loading or failed, are named in Partial, so the records shown are noted
// as incomplete. Before any answer it is loading, or failed with each
// topic that failed. Topics the profile does not configure are left out;
// with one topic left, its snapshot is returned as it is.
func Union(st *live.Store, what string, srcs ...Source) live.Snapshot {
	var snaps []live.Snapshot
	var names []string
	for _, s := range srcs {
		if st != nil && st.Has(s.Topic) {
			snaps = append(snaps, st.Snapshot(s.Topic))
			names = append(names, s.Name)
		}
	}
	switch len(snaps) {
	case 0:
		return live.Snapshot{}
	case 1:
		return snaps[0]
	}
	var out live.Snapshot
	var missing, failed []wire.Failure
	for i, sn := range snaps {
		merge(&out, sn)
		switch {
		case sn.Loaded():
			if out.FetchedAt.IsZero() || sn.FetchedAt.Before(out.FetchedAt) {
				out.FetchedAt = sn.FetchedAt
			}
			if out.Err == nil && sn.Err != nil {
				out.Err, out.Failures, out.NextTry = sn.Err, sn.Failures, sn.NextTry
			}
			out.Skipped += sn.Skipped
			out.SkippedFirst = append(out.SkippedFirst, sn.SkippedFirst...)
			if sn.Partial != nil {
				missing = append(missing, wire.Failure{Name: names[i], Err: sn.Partial})
			}
		case sn.Err != nil:
			missing = append(missing, wire.Failure{Name: names[i], Err: sn.Err})
			failed = append(failed, wire.Failure{Name: names[i], Err: sn.Err})
		default:
			missing = append(missing, wire.Failure{Name: names[i], Err: ErrNoAnswer})
		}
	}
	if out.Loaded() {
		if len(missing) > 0 {
			out.Partial = &wire.Partial{What: what, Of: len(snaps), Failed: missing}
		}
		return out
	}
	if len(failed) > 0 {
		out.Err = &wire.Partial{What: what, Of: len(snaps), Failed: failed}
		for _, sn := range snaps {
			if sn.Err != nil {
				out.Failures = max(out.Failures, sn.Failures)
				if out.NextTry.IsZero() || (!sn.NextTry.IsZero() && sn.NextTry.Before(out.NextTry)) {
					out.NextTry = sn.NextTry
				}
			}
		}
	}
	return out
}

// Needs completes snap, the snapshot of a page's records, with the topics
// that what it shows of them is derived from (counts, subscriptions),
// what naming the whole ("the vaults' counts"): a
// topic without good data, or whose last read was partial, is named in
// Partial beside the records' own, so that a figure built from it is
// known to be unknown; Seq becomes the newest of all, so the page reads
// again when any of them changes. Topics the profile does not configure
// are left out.
func Needs(st *live.Store, snap live.Snapshot, what string, srcs ...Source) live.Snapshot {
	var missing []wire.Failure
	of := 1
	for _, s := range srcs {
		if st == nil || !st.Has(s.Topic) {
			continue
		}
		of++
		sn := st.Snapshot(s.Topic)
		snap.Seq = max(snap.Seq, sn.Seq)
		switch {
		case sn.Loaded() && sn.Partial != nil:
			missing = append(missing, wire.Failure{Name: s.Name, Err: sn.Partial})
		case sn.Loaded():
		case sn.Err != nil:
			missing = append(missing, wire.Failure{Name: s.Name, Err: sn.Err})
		default:
			missing = append(missing, wire.Failure{Name: s.Name, Err: ErrNoAnswer})
		}
	}
	if len(missing) == 0 {
		return snap
	}
	if snap.Partial == nil {
		snap.Partial = derived{&wire.Partial{What: what, Of: of, Failed: missing}}
		return snap
	}
	own := string(snap.Topic)
	if own == "" {
		own = "records"
	}
	missing = append([]wire.Failure{{Name: own, Err: snap.Partial}}, missing...)
	snap.Partial = &wire.Partial{What: what, Of: of, Failed: missing}
	return snap
}

// merge takes into out what every snapshot of a union contributes: the
// newest change, the longest interval, the earliest start of loading.
func merge(out *live.Snapshot, sn live.Snapshot) {
	out.Seq = max(out.Seq, sn.Seq)
	out.Interval = max(out.Interval, sn.Interval)
	if out.Topic == "" {
		out.Topic = sn.Topic
	}
	if !sn.Since.IsZero() && (out.Since.IsZero() || sn.Since.Before(out.Since)) {
		out.Since = sn.Since
	}
}

// derived is a Partial from Needs alone: the records are complete, only
// what is derived from them is not.
type derived struct{ *wire.Partial }

func (d derived) Unwrap() error { return d.Partial }

// RecordsComplete reports whether a snapshot's records are all there is:
// its read was not partial, or only what is derived from the records is.
func RecordsComplete(snap live.Snapshot) bool {
	if snap.Partial == nil {
		return true
	}
	_, ok := snap.Partial.(derived)
	return ok
}
