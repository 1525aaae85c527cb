package viewtest

import (
	"context"
	"path/filepath"
	"testing"

	"treasury/desk/history"
)

// Archive gives the store of e's own world a history file (in t's
// temporary directory) holding batches, read as the dashboard reads its
// own: the charts' windows longer than the store's memory come from it.
// The points are what the test wrote, nothing else: the golden frames of
// a 7- or 30-day window are the same on every run.
func (e *Env) Archive(t testing.TB, batches ...history.Batch) *history.Store {
	t.Helper()
	e.mustOwn("Archive")
	opened, err := history.Open(filepath.Join(t.TempDir(), history.FileName(e.P.Config.Profile)), history.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { opened.Close() })
	for _, b := range batches {
		if err := opened.Write(context.Background(), b); err != nil {
			t.Fatal(err)
		}
	}
	e.P.Store.SetArchive(opened.Store)
	return opened.Store
}
