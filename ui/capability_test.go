package ui

import (
	"io"
	"testing"

	tea "charm.land/bubbletea/v2"
)

type plainPage struct{}

type searchPage struct{ text string }

func (p *searchPage) SetFilter(t string) tea.Cmd { p.text = t; return nil }
func (p *searchPage) Filter() string             { return p.text }
func (p *searchPage) CSV() func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, p.text); return err }
}

type pages struct{ shown any }

func (p pages) Shown() any { return p.shown }

type ownExport struct{ pages }

func (ownExport) CSV() func(io.Writer) error { return func(io.Writer) error { return nil } }

// TestCapabilitiesAreFoundOnThePageShown: a view made of pages searches
// and exports through the page it shows, through a view that shows a
// view of pages too; a view's own capability comes first; a page that
// cannot search offers nothing (the shell then says so).
func TestCapabilitiesAreFoundOnThePageShown(t *testing.T) {
	p := &searchPage{}
	v := pages{shown: pages{shown: p}}
	SetFilterOf(v, "carlos")
	if FilterOf(v) != "carlos" || p.text != "carlos" {
		t.Fatalf("the search did not reach the page shown: %q", p.text)
	}
	if CSVOf(v) == nil {
		t.Fatal("the page shown exports")
	}
	if _, ok := As[Filterer](pages{shown: plainPage{}}); ok {
		t.Fatal("a page without a search offers one")
	}
	if SetFilterOf(pages{shown: plainPage{}}, "x") != nil || CSVOf(plainPage{}) != nil {
		t.Fatal("nothing to search or save, yet a command")
	}
	own := ownExport{pages{shown: p}}
	var b []byte
	if w := CSVOf(own); w == nil || w(writerTo(&b)) != nil || len(b) != 0 {
		t.Fatalf("the view's own export did not come first: %q", b)
	}
}

type sliceWriter struct{ b *[]byte }

func (s sliceWriter) Write(p []byte) (int, error) { *s.b = append(*s.b, p...); return len(p), nil }

func writerTo(b *[]byte) io.Writer { return sliceWriter{b} }
