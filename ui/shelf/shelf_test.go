package shelf

import (
	"fmt"
	"testing"
)

// A value asked for within a generation stays; one nobody asked for in
// two goes; the shelf never holds more than two generations.
func TestShelfKeepsTwoGenerations(t *testing.T) {
	const max = 100
	s := New[string, int](max)
	s.Put("asked", 1)
	s.Put("forgotten", 2)
	for i := range 3 * max {
		s.Put(fmt.Sprint(i), i)
		if i%(max/2) == 0 {
			if v, ok := s.Get("asked"); !ok || v != 1 {
				t.Fatalf("after %d more: asked = %d, %v", i, v, ok)
			}
		}
		if n := s.Len(); n > 2*max {
			t.Fatalf("%d values kept", n)
		}
	}
	if _, ok := s.Get("forgotten"); ok {
		t.Fatal("a value nobody asked for in two generations is kept")
	}
}

// TestTurnDropsWhatNobodyAskedForInTwoTurns: a value asked for between
// two turns stays; one not asked for goes at the second turn.
func TestTurnDropsWhatNobodyAskedForInTwoTurns(t *testing.T) {
	s := New[string, int](100)
	s.Put("asked", 1)
	s.Put("left", 2)
	s.Turn()
	if _, ok := s.Get("asked"); !ok {
		t.Fatal("a value gone after one turn")
	}
	s.Turn()
	if _, ok := s.Get("left"); ok {
		t.Fatal("a value nobody asked for survived two turns")
	}
	if _, ok := s.Get("asked"); !ok {
		t.Fatal("a value asked for between the turns was dropped")
	}
}
