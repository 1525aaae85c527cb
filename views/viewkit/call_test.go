package viewkit

import (
	"context"
	"errors"
	"testing"

	"treasury/ui"
)

// TestCallEndsWithTheSession: a call made for a session whose life has
// ended (an SSH client gone) is cancelled, not left to its timeout.
func TestCallEndsWithTheSession(t *testing.T) {
	life, end := context.WithCancel(context.Background())
	cmd := Call(&ui.Context{Life: life}, "k", func(ctx context.Context) (any, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	})
	end()
	got := cmd().(Loaded)
	if !errors.Is(got.Err, context.Canceled) {
		t.Fatalf("err %v, want the session's cancellation", got.Err)
	}
}
