package viewkit

import (
	"io"
	"slices"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"treasury/desk/live"
)

// crumbPage is a page that is only its crumb.
type crumbPage string

func (p crumbPage) Crumb() string                 { return string(p) }
func (p crumbPage) Topics() []live.Topic          { return nil }
func (p crumbPage) Update(tea.Msg) tea.Cmd        { return nil }
func (p crumbPage) Render(int, int) string        { return string(p) }
func (p crumbPage) Keys() []key.Binding           { return nil }
func (p crumbPage) Selected() (string, any, bool) { return "", nil, false }
func (p crumbPage) SetFilter(string) tea.Cmd      { return nil }
func (p crumbPage) Filter() string                { return "" }
func (p crumbPage) CSV() func(io.Writer) error    { return nil }

// TestOpenNamesOnlyTheWayTaken: a record opened by id (a ledger row's
// payment) while the view's root shows a scope and a group was drilled
// into is not shown under that scope or group: the trail was
// "payments › FAILED by reason › …2b873563c" for an INITIATED payment.
// The pages drilled into close; back from the record shows the root as it
// was, and what is drilled into from the record joins its trail.
func TestOpenNamesOnlyTheWayTaken(t *testing.T) {
	var s Stack
	s.Reset(crumbPage("FAILED by reason"))
	s.Push(crumbPage("SYS_004"))
	s.Open(crumbPage("…2b873563c"))
	if got := s.Crumbs(); !slices.Equal(got, []string{"…2b873563c"}) {
		t.Fatalf("trail of a record opened by id: %q", got)
	}
	if s.Depth() != 2 {
		t.Fatalf("depth %d: the group drilled into before is still under the record", s.Depth())
	}
	s.Push(crumbPage("ledger row"))
	if got := s.Crumbs(); !slices.Equal(got, []string{"…2b873563c", "ledger row"}) {
		t.Fatalf("trail drilled into from the record: %q", got)
	}
	s.Back()
	s.Back()
	if got := s.Crumbs(); !slices.Equal(got, []string{"FAILED by reason"}) {
		t.Fatalf("trail back at the root: %q", got)
	}
	s.Push(crumbPage("SYS_004"))
	if got := s.Crumbs(); !slices.Equal(got, []string{"FAILED by reason", "SYS_004"}) {
		t.Fatalf("trail drilled into from the root again: %q", got)
	}
}
