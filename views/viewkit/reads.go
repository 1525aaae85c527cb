package viewkit

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"treasury/desk/live"
	"treasury/ui"
	"treasury/ui/table"
)

// A page reads what it shows from the store, typed, through keys: the
// tables' topics, and the one-off reads it asks for (a payment by id, a
// wallet's limits: live.Ask on the platform's Reads). Fetch makes such a
// read for the session; its answer lands in the store, shared with every
// session that asks the same, and the page reads it with live.Get. What a
// page does itself (an action, a file saved) answers with Run, in the
// page's own message type.

// Fetched says that a read a page asked for (Fetch) has answered: its
// answer is in the store, and pages read their keys again.
type Fetched struct{ Topic live.Topic }

// Fetch returns the command that makes the read of k for the session
// (live.Store.ReadNow: data held fetched after `after` is kept; zero
// keeps any). The read ends when the session does (an SSH client that
// disconnects), or after CallTimeout.
func Fetch[T any](s *ui.Context, k live.Key[T], after time.Time) tea.Cmd {
	store, parent := s.Store, life(s)
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(parent, CallTimeout)
		defer cancel()
		store.ReadNow(ctx, k.Topic(), after)
		return Fetched{Topic: k.Topic()}
	}
}

// Reply is a message answering a page's own call (Run): a type of the
// page's, which embeds Replied. The Stack gives it to every page, so a
// page below the one shown still receives what it asked for.
type Reply interface{ isReply() }

// Replied makes a message type a Reply.
type Replied struct{}

func (Replied) isReply() {}

// Run runs fn off the update loop for the session (ending with it, or
// after CallTimeout) and delivers done's message: the page's own type,
// carrying what fn returned, typed.
func Run[T any, M Reply](s *ui.Context, fn func(ctx context.Context) (T, error), done func(T, error) M) tea.Cmd {
	parent := life(s)
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(parent, CallTimeout)
		defer cancel()
		return done(fn(ctx))
	}
}

// life is the session's context: calls made for it end with it.
func life(s *ui.Context) context.Context {
	if s.Life == nil {
		return context.Background()
	}
	return s.Life
}

// OpenFresh is how old a read may be, on the store's clock, for a page
// that opens to show it rather than read it again: a read another session
// made a moment ago.
const OpenFresh = 30 * time.Second

// Opening is the time a page that opens passes to Fetch (OpenFresh).
func Opening(s *ui.Context) time.Time { return s.Store.Now().Add(-OpenFresh) }

// ReadInto makes a table page of the store's read k (NewOwnTable): it adds
// k's topic to spec and its refresh to spec's Handle, and returns the
// page's own part, whose records are k's data and rows are row's, and the
// command that reads k when the page opens (again on r).
func ReadInto[T any](s *ui.Context, spec *TableSpec[T], k live.Key[[]T], row func(rec T) table.Row) (Own[T], tea.Cmd) {
	spec.Topics = append(slices.Clone(spec.Topics), k.Topic())
	own := spec.Handle
	spec.Handle = func(msg tea.Msg) (bool, tea.Cmd) {
		var reread bool
		var cmd tea.Cmd
		if own != nil {
			reread, cmd = own(msg)
		}
		if _, ok := msg.(ui.Refresh); ok {
			cmd = tea.Batch(cmd, Fetch(s, k, s.Store.Now()))
		}
		return reread, cmd
	}
	read := func() ([]T, live.Snapshot) {
		got := live.Get(s.Store, k)
		return got.Data, got.Snapshot
	}
	return Own[T]{Read: read, Row: row}, Fetch(s, k, Opening(s))
}

// ReadRaw is a ui.RawReader's command: read (one of the store's reads,
// shared with the sessions asking the same) for arg, answered as the
// ui.RawRecord of record id; source names the read.
func ReadRaw[A any](s *ui.Context, read live.Read[A, json.RawMessage], arg A, id, source string) tea.Cmd {
	store, parent := s.Store, life(s)
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(parent, CallTimeout)
		defer cancel()
		k := live.Ask(store, read, arg)
		store.ReadNow(ctx, k.Topic(), time.Time{})
		got := live.Get(store, k)
		return ui.RawRecord{ID: id, JSON: got.Data, Err: got.Err, Source: source}
	}
}
