// Package fence carries a fencing token in a context: a check that a
// request made under a lease may still leave. The process that polls a
// site's platform holds the site's lease; each of its reads carries the
// lease's check (With), and the HTTP clients ask it (Check) immediately
// before each request leaves, so a process whose lease ran out while it
// was stopped, cut off or slow sends nothing more, whatever it had
// started.
package fence

import (
	"context"
	"errors"
)

// ErrFenced is the error of a request that did not leave: the lease it
// was made under is gone or superseded.
var ErrFenced = errors.New("not sent: this process no longer holds the site's lease to poll")

type key struct{}

// With returns ctx carrying check: nil while the lease holds, an error
// (wrapping ErrFenced) once it does not. A nil check carries nothing.
func With(ctx context.Context, check func() error) context.Context {
	if check == nil {
		return ctx
	}
	return context.WithValue(ctx, key{}, check)
}

// Check is nil when ctx carries no check or its lease holds, else the
// check's error (errors.Is ErrFenced).
func Check(ctx context.Context) error {
	check, _ := ctx.Value(key{}).(func() error)
	if check == nil {
		return nil
	}
	if err := check(); err != nil {
		if !errors.Is(err, ErrFenced) {
			err = errors.Join(ErrFenced, err)
		}
		return err
	}
	return nil
}

// Fenced reports whether err is a request's that a fence held back.
func Fenced(err error) bool { return errors.Is(err, ErrFenced) }
