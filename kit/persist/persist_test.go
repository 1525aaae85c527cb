package persist_test

import (
	"fmt"
	"testing"

	"treasury/kit/persist"
)

func TestVersionsAreIndependent(t *testing.T) {
	var m persist.Map[int]
	e := m.Edit()
	for i := range 1000 {
		e.Set(fmt.Sprint(i), i)
	}
	v1 := e.Done()
	e = v1.Edit()
	e.Set("5", 50)
	e.Delete("7")
	e.Set("new", 1)
	v2 := e.Done()
	if v, _ := v1.Get("5"); v != 5 {
		t.Fatal("v1 changed")
	}
	if _, ok := v1.Get("7"); !ok || v1.Len() != 1000 {
		t.Fatal("v1 lost a key")
	}
	if v, _ := v2.Get("5"); v != 50 {
		t.Fatal("v2 lacks the change")
	}
	if _, ok := v2.Get("7"); ok || v2.Len() != 1000 {
		t.Fatalf("v2 has %d keys", v2.Len())
	}
	if _, ok := m.Get("1"); ok || m.Len() != 0 {
		t.Fatal("the zero map changed")
	}
}

func BenchmarkChangeOneOf100k(b *testing.B) {
	e := persist.Map[int]{}.Edit()
	for i := range 100_000 {
		e.Set(fmt.Sprint(i), i)
	}
	m := e.Done()
	for b.Loop() {
		e := m.Edit()
		e.Set("50000", 1)
		m = e.Done()
	}
}
