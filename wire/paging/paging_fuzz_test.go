package paging_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync/atomic"
	"testing"

	"treasury/wire/paging"
	"treasury/wire/wiretest"
)

// A script is a server's answers, one byte a page, that a fuzzer writes:
// what page numbers, tokens and totals a server claims is network input
// like any body.

// numberScript is page i of a page-number list: b&7 records, Last when b&8,
// failing when b >= 0xF0. Pages past the script are empty and Last.
type numberScript struct {
	total   int // page 0's TotalPages
	pages   []byte
	fetches atomic.Int32
}

func (s *numberScript) fetch(ctx context.Context, page int) (paging.NumberPage[int], error) {
	s.fetches.Add(1)
	if page >= len(s.pages) {
		return paging.NumberPage[int]{Last: true, TotalPages: s.total}, nil
	}
	b := s.pages[page]
	if b >= 0xF0 {
		return paging.NumberPage[int]{}, fmt.Errorf("page %d failed", page)
	}
	var items []int
	for j := range int(b & 7) {
		items = append(items, page*8+j)
	}
	return paging.NumberPage[int]{Items: items, Last: b&8 != 0, TotalPages: s.total}, nil
}

// want is what a reader must yield: the pages in order up to the first
// that is Last or empty, or up to the first failure and its error.
func (s *numberScript) want() (recs []int, fails bool, stop int) {
	for page := 0; ; page++ {
		if page >= len(s.pages) {
			return recs, false, page
		}
		b := s.pages[page]
		if b >= 0xF0 {
			return recs, true, page
		}
		for j := range int(b & 7) {
			recs = append(recs, page*8+j)
		}
		if b&8 != 0 || b&7 == 0 {
			return recs, false, page
		}
	}
}

func collect(seq func(func(int, error) bool)) (recs []int, err error) {
	for v, e := range seq {
		if e != nil {
			return recs, e
		}
		recs = append(recs, v)
	}
	return recs, nil
}

// FuzzByPageNumber: whatever pages and totals a server claims, the reader
// yields the records of the pages in order up to the one that says Last
// (or is empty, or fails), never a record of a page after it, and fetches
// at most its concurrency beyond that page: a claimed total costs nothing
// the pages do not bear out.
func FuzzByPageNumber(f *testing.F) {
	f.Add(uint16(3), uint8(4), []byte{0x07, 0x07, 0x0f})
	f.Add(uint16(1), uint8(1), []byte{0x03})
	f.Add(uint16(2), uint8(2), []byte{0x07, 0x07, 0x07, 0x0b})       // the list grew
	f.Add(uint16(9), uint8(3), []byte{0x07, 0x0a, 0x07, 0x07})       // Last before the claimed total
	f.Add(uint16(65535), uint8(8), []byte{0x07, 0x00})               // a total no page bears out
	f.Add(uint16(5), uint8(2), []byte{0x01, 0x02, 0xf3, 0x04, 0xff}) // a failure mid-list
	f.Add(uint16(0), uint8(0), []byte{})
	f.Fuzz(func(t *testing.T, total uint16, conc uint8, pages []byte) {
		s := &numberScript{total: int(total), pages: pages}
		c := 1 + int(conc%8)
		got, err := collect(paging.ByPageNumber(context.Background(), c, s.fetch))
		want, fails, stop := s.want()
		if fails != (err != nil) || !slices.Equal(got, want) {
			t.Fatalf("total %d pages %x: got %v (%v), want %v (fails %v)", total, pages, got, err, want, fails)
		}
		if n := int(s.fetches.Load()); n > stop+1+c {
			t.Fatalf("total %d pages %x: %d fetches for a list that ends at page %d (concurrency %d)", total, pages, n, stop, c)
		}
	})
}

// tokenScript answers the i-th fetch with page i: b&3 records; the next
// token "t<b>>4>" (none when b>>4 is 0, so tokens repeat); failing when
// b&0xc is 0xc.
type tokenScript struct {
	pages  []byte
	tokens []string // the token each fetch received
}

func (s *tokenScript) fetch(_ context.Context, token string) (paging.TokenPage[int], error) {
	i := len(s.tokens)
	s.tokens = append(s.tokens, token)
	if i >= len(s.pages) {
		return paging.TokenPage[int]{}, nil
	}
	b := s.pages[i]
	if b&0xc == 0xc {
		return paging.TokenPage[int]{}, errors.New("failed")
	}
	p := paging.TokenPage[int]{}
	for j := range int(b & 3) {
		p.Items = append(p.Items, i*4+j)
	}
	if b>>4 != 0 {
		p.Next = "t" + strconv.Itoa(int(b>>4))
	}
	return p, nil
}

// FuzzByToken: whatever tokens a server hands back, each request carries
// the token the page before gave, the records come in order, and the list
// ends at a page without a token, at a failure, or at a token given before
// (ErrRepeatedToken): never a loop.
func FuzzByToken(f *testing.F) {
	f.Add([]byte{0x13, 0x23, 0x03})
	f.Add([]byte{0x11, 0x21, 0x11})
	f.Add([]byte{0x1c})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, pages []byte) {
		for _, style := range []func(context.Context, func(context.Context, string) (paging.TokenPage[int], error)) func(func(int, error) bool){
			func(ctx context.Context, fn func(context.Context, string) (paging.TokenPage[int], error)) func(func(int, error) bool) {
				return paging.ByQueryToken(ctx, fn)
			},
			func(ctx context.Context, fn func(context.Context, string) (paging.TokenPage[int], error)) func(func(int, error) bool) {
				return paging.ByBodyToken(ctx, fn)
			},
		} {
			s := &tokenScript{pages: pages}
			got, err := collect(style(context.Background(), s.fetch))
			var want []int
			var wantErr, repeated bool
			seen := map[string]bool{}
			prev := ""
			for i := 0; ; i++ {
				if i >= len(s.tokens) {
					t.Fatalf("pages %x: %d fetches, the list did not end", pages, len(s.tokens))
				}
				if s.tokens[i] != prev {
					t.Fatalf("pages %x: fetch %d sent %q, the page before gave %q", pages, i, s.tokens[i], prev)
				}
				if i >= len(pages) {
					break
				}
				b := pages[i]
				if b&0xc == 0xc {
					wantErr = true
					break
				}
				for j := range int(b & 3) {
					want = append(want, i*4+j)
				}
				if b>>4 == 0 {
					break
				}
				prev = "t" + strconv.Itoa(int(b>>4))
				if seen[prev] {
					wantErr, repeated = true, true
					break
				}
				seen[prev] = true
			}
			if !slices.Equal(got, want) || (err != nil) != wantErr || repeated != errors.Is(err, paging.ErrRepeatedToken) {
				t.Fatalf("pages %x: got %v (%v), want %v (error %v, repeated %v)", pages, got, err, want, wantErr, repeated)
			}
		}
	})
}

// offsetScript answers offset o with page o/size: b%(size+1) records
// (the page is full when b is 0xff), failing when b is 0xfe; PageElements
// says the records sent. Offsets past the script are empty pages.
type offsetScript struct {
	size, total int
	pages       []byte
	fetches     atomic.Int32
}

func (s *offsetScript) page(i int) (n int, fails bool) {
	if i >= len(s.pages) {
		return 0, false
	}
	switch b := s.pages[i]; b {
	case 0xfe:
		return 0, true
	case 0xff:
		return s.size, false
	default:
		return int(b) % (s.size + 1), false
	}
}

func (s *offsetScript) fetch(_ context.Context, offset int) (paging.OffsetPage[int], error) {
	s.fetches.Add(1)
	n, fails := s.page(offset / s.size)
	if fails {
		return paging.OffsetPage[int]{}, errors.New("failed")
	}
	p := paging.OffsetPage[int]{Offset: offset, PageElements: n, Total: s.total}
	for j := range n {
		p.Items = append(p.Items, offset+j)
	}
	return p, nil
}

// FuzzByOffset: whatever totals and page sizes a server claims, the
// records come in offset order, a page that comes back empty before the
// claimed total ends the read with an error, and the reader fetches at
// most its concurrency beyond the pages the server bears out.
func FuzzByOffset(f *testing.F) {
	f.Add(uint8(5), uint16(12), uint8(2), []byte{0xff, 0xff, 0x02})
	f.Add(uint8(5), uint16(5), uint8(1), []byte{0xff})
	f.Add(uint8(1), uint16(65535), uint8(8), []byte{0xff, 0xff}) // a total no page bears out
	f.Add(uint8(3), uint16(9), uint8(4), []byte{0xff, 0xfe, 0xff})
	f.Fuzz(func(t *testing.T, size uint8, total uint16, conc uint8, pages []byte) {
		s := &offsetScript{size: 1 + int(size%16), total: int(total), pages: pages}
		c := 1 + int(conc%8)
		got, err := collect(paging.ByOffset(context.Background(), c, s.size, s.fetch))
		var want []int
		wantErr := false
		for i := 0; i == 0 || i*s.size < s.total; i++ {
			n, fails := s.page(i)
			if fails || (i > 0 && n == 0) {
				wantErr = true
				break
			}
			for j := range n {
				want = append(want, i*s.size+j)
			}
			if i == 0 && n >= s.total {
				break
			}
		}
		if !slices.Equal(got, want) || (err != nil) != wantErr {
			t.Fatalf("size %d total %d pages %x: got %v (%v), want %v (error %v)", s.size, total, pages, got, err, want, wantErr)
		}
		if n := int(s.fetches.Load()); n > len(pages)+1+c {
			t.Fatalf("size %d total %d pages %x: %d fetches for %d pages (concurrency %d)", s.size, total, pages, n, len(pages), c)
		}
	})
}

// TestClaimedTotalCostsNothing: a first page that claims the most pages
// a reader follows, and a second that is empty, cost a few kilobytes: no
// bookkeeping is allocated for pages before they are fetched.
func TestClaimedTotalCostsNothing(t *testing.T) {
	num := &numberScript{total: paging.MaxPages, pages: []byte{0x07, 0x00}}
	n := wiretest.Allocated(func() { _, _ = collect(paging.ByPageNumber(context.Background(), 4, num.fetch)) })
	if f := num.fetches.Load(); f > 2+4 || n > 64<<10 {
		t.Errorf("page number: %d fetches, %d bytes allocated", f, n)
	}
	off := &offsetScript{size: 1, total: paging.MaxPages, pages: []byte{0xff}}
	n = wiretest.Allocated(func() { _, _ = collect(paging.ByOffset(context.Background(), 4, 1, off.fetch)) })
	if f := off.fetches.Load(); f > 2+4 || n > 64<<10 {
		t.Errorf("offset: %d fetches, %d bytes allocated", f, n)
	}
}
