package viewkit

import (
	"context"
	"errors"
	"testing"

	"treasury/ui"
)

type answered struct {
	Replied
	err error
}

// TestRunEndsWithTheSession: a call made for a session whose life has
// ended (an SSH client gone) is cancelled, not left to its timeout, and
// its answer is the page's own message, typed.
func TestRunEndsWithTheSession(t *testing.T) {
	life, end := context.WithCancel(context.Background())
	cmd := Run(&ui.Context{Shared: &ui.Shared{}, Session: ui.Session{Life: life}}, func(ctx context.Context) (int, error) {
		<-ctx.Done()
		return 0, ctx.Err()
	}, func(_ int, err error) answered { return answered{err: err} })
	end()
	got, ok := cmd().(answered)
	if !ok || !errors.Is(got.err, context.Canceled) {
		t.Fatalf("got %#v, want the session's cancellation", got)
	}
}
