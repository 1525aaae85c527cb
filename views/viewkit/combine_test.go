package viewkit

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/colorprofile"

	"treasury/desk/live"
	"treasury/ui"
)

// store has three topics: "ok" answers, "bad" fails, "slow" is never
// fetched (still loading).
func store(t *testing.T) (*live.Store, *ui.Context) {
	t.Helper()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	feed := func(tp live.Topic, err error) live.Feed {
		return live.ValueFeed(live.KeyOf[[]string](tp), func(context.Context) ([]string, error) {
			if err != nil {
				return nil, err
			}
			return []string{"x"}, nil
		}, live.FeedOptions[[]string, []string]{Interval: time.Minute})
	}
	st := live.New(live.Options{Now: func() time.Time { return now }, Feeds: []live.Feed{
		feed("ok", nil), feed("bad", errors.New("refused")), feed("slow", nil)}})
	st.FetchNow(context.Background(), "ok")
	st.FetchNow(context.Background(), "bad")
	r := colorprofile.NoTTY
	return st, &ui.Context{Shared: &ui.Shared{Store: st, Now: func() time.Time { return now }}, Session: ui.Session{Colors: r, Dark: true, Theme: ui.NewTheme(r, true, nil)}}
}

// TestUnionNamesWhatIsMissing: a union is loaded once a topic answered,
// and names the topic that failed and the one that has not answered; with
// nothing loaded it is failed, naming the failure.
func TestUnionNamesWhatIsMissing(t *testing.T) {
	st, ctx := store(t)
	u := Union(st, "balances", Source{"ok", "first"}, Source{"bad", "second"}, Source{"slow", "third"})
	if !u.Loaded() || u.Err != nil || u.Partial == nil || RecordsComplete(u) {
		t.Fatalf("union of a good, a failed and a loading topic: %+v", u)
	}
	note := strings.Join(Notes(ctx, u), "\n")
	for _, want := range []string{"balances: 2 of 3 could not be read", "second: ✖ refused", "third: ✖ no answer yet"} {
		if !strings.Contains(note, want) {
			t.Errorf("the note %q lacks %q", note, want)
		}
	}
	u = Union(st, "balances", Source{"bad", "second"}, Source{"slow", "third"})
	if u.Loaded() || u.Err == nil {
		t.Fatalf("union of a failed and a loading topic: %+v", u)
	}
	body, ok := StateBody(ctx, []live.Topic{"bad", "slow"}, u, "balances", 80)
	if !ok || !strings.Contains(body, "Could not read balances") || !strings.Contains(body, "second:") {
		t.Errorf("state body:\n%s", body)
	}
	if u := Union(st, "x", Source{"nope", "absent"}); u.Loaded() || u.Err != nil {
		t.Errorf("union of unconfigured topics: %+v", u)
	}
}

// TestNeedsKeepsTheRecordsComplete: a topic a page derives figures from
// that failed is noted, but the records themselves stay complete.
func TestNeedsKeepsTheRecordsComplete(t *testing.T) {
	st, ctx := store(t)
	n := Needs(st, st.Snapshot("ok"), "the counts", Source{"bad", "wallets"})
	if n.Partial == nil || !RecordsComplete(n) {
		t.Fatalf("needs: %+v", n)
	}
	if note := strings.Join(Notes(ctx, n), "\n"); !strings.Contains(note, "wallets: ✖ refused") {
		t.Errorf("note: %q", note)
	}
	if n := Needs(st, st.Snapshot("ok"), "the counts", Source{"ok", "itself"}); n.Partial != nil {
		t.Errorf("nothing missing, yet %v", n.Partial)
	}
}

// TestPartStates: a part is loading with its seconds, failed with the
// error, or loaded (stale with its age and error after a failure).
func TestPartStates(t *testing.T) {
	_, ctx := store(t)
	snap := Asked(live.Snapshot{}, ctx.Clock().Add(-7*time.Second))
	if l, ok := Part(ctx, snap, "limits", 80); ok || !strings.Contains(l[0], "loading limits… (7s)") {
		t.Errorf("loading: %q %v", l, ok)
	}
	snap = Answered(snap, ctx.Clock(), errors.New("denied"))
	if l, ok := Part(ctx, snap, "limits", 80); ok || !strings.Contains(strings.Join(l, "\n"), "denied") {
		t.Errorf("failed: %q %v", l, ok)
	}
	snap = Answered(snap, ctx.Clock().Add(-time.Minute), nil)
	snap = Answered(snap, ctx.Clock(), errors.New("denied again"))
	l, ok := Part(ctx, snap, "limits", 200)
	if !ok || !strings.Contains(strings.Join(l, "\n"), "STALE (limits read <2m ago") ||
		!strings.Contains(strings.Join(l, "\n"), "denied again") {
		t.Errorf("stale: %q %v", l, ok)
	}
}
