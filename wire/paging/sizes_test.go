package paging_test

import (
	"context"
	"fmt"
	"testing"

	"treasury/wire/apierr"
	"treasury/wire/paging"
)

// capped is a server that refuses pages above cap with a 400 saying so.
func capped(cap int, msg string, asked *[]int) func(context.Context, int) (int, error) {
	return func(_ context.Context, size int) (int, error) {
		*asked = append(*asked, size)
		if size > cap {
			text := msg
			if msg != "" {
				text = fmt.Sprintf(msg, cap)
			}
			return 0, &apierr.Error{HTTPStatus: 400, Message: text, Class: apierr.ClassFixRequest}
		}
		return size, nil
	}
}

func TestFirstHalvesAndRemembers(t *testing.T) {
	var s paging.Sizes
	var asked []int
	fetch := capped(30, "pageSize must be at most %d", &asked)
	_, size, err := paging.First(context.Background(), &s, "quotes", "pageSize", 100, fetch)
	if err != nil || size != 25 || fmt.Sprint(asked) != "[100 50 25]" {
		t.Fatalf("size %d, err %v, asked %v", size, err, asked)
	}
	asked = nil
	_, size, err = paging.First(context.Background(), &s, "quotes", "pageSize", 100, fetch)
	if err != nil || size != 25 || fmt.Sprint(asked) != "[25]" {
		t.Fatalf("second read: size %d, err %v, asked %v: want the remembered 25 at once", size, err, asked)
	}
	if s.Size("trades", 100) != 100 {
		t.Fatal("a size remembered for one endpoint leaked to another")
	}
}

func TestFirstLeavesOtherErrors(t *testing.T) {
	var s paging.Sizes
	var asked []int
	// A 400 about another field is not the page size: one request.
	_, _, err := paging.First(context.Background(), &s, "quotes", "pageSize", 100, capped(0, "startTime is not a date-time %d", &asked))
	if err == nil || len(asked) != 1 {
		t.Fatalf("err %v, asked %v", err, asked)
	}
	// A generic 400 that persists down to the floor: the first error, and
	// nothing remembered.
	asked = nil
	_, _, err = paging.First(context.Background(), &s, "custody", "limit", 100, capped(0, "", &asked))
	if e, ok := apierr.As(err); !ok || e.HTTPStatus != 400 || fmt.Sprint(asked) != "[100 50 25 12 10]" {
		t.Fatalf("err %v, asked %v", err, asked)
	}
	if s.Size("custody", 100) != 100 {
		t.Fatal("a size that did not help was remembered")
	}
	// A 500 is not about the size.
	asked = nil
	_, _, err = paging.First(context.Background(), &s, "x", "limit", 100, func(context.Context, int) (int, error) {
		asked = append(asked, 1)
		return 0, &apierr.Error{HTTPStatus: 500, Class: apierr.ClassRetry}
	})
	if err == nil || len(asked) != 1 {
		t.Fatalf("err %v, asked %v", err, asked)
	}
}

func TestImpliesPageSize(t *testing.T) {
	for _, c := range []struct {
		e    *apierr.Error
		want bool
	}{
		{&apierr.Error{HTTPStatus: 400, Code: "ERR000.020", Message: "invalid request"}, true},
		{&apierr.Error{HTTPStatus: 400, Code: "USR_001", Title: "Invalid page.size"}, true},
		{&apierr.Error{HTTPStatus: 400, Message: "limit must be between 1 and 50"}, true},
		{&apierr.Error{HTTPStatus: 400}, true},
		{&apierr.Error{HTTPStatus: 400, Message: "unknown field afterTimestamp"}, false},
		{&apierr.Error{HTTPStatus: 404, Message: "page not found"}, false},
	} {
		if got := paging.ImpliesPageSize(c.e, "pageSize"); got != c.want {
			t.Errorf("%+v: %v, want %v", c.e, got, c.want)
		}
	}
}
