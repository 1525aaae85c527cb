package saved_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"treasury/config"
	"treasury/ui"
	paymentsview "treasury/views/payments"
	"treasury/views/saved"
	"treasury/views/viewtest"
)

// TestColumnPickerKeptBySave: v on the payments table opens the column
// picker; space hides the first column (Initiated), K moves Error up
// two places, after Payment id, each change applied to the table at once; enter
// keeps it; :save writes those columns in that order, and the saved tab
// shows them so.
func TestColumnPickerKeptBySave(t *testing.T) {
	t.Parallel()
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory()})
	file := filepath.Join(t.TempDir(), "config.yaml")
	writeFile(t, file, []byte("profiles:\n  ops:\n    environment: sandbox\n"))
	ctx := e.Ctx.Apart()
	var got config.Search
	ctx.SaveView = func(s config.Search) (string, ui.View, error) {
		got = s
		line, err := config.SaveSearch(file, "ops", s)
		if err != nil {
			return "", nil, err
		}
		tabs, err := saved.Views(ctx, file, []config.Search{s}, build(e))
		if err != nil {
			t.Error(err)
		}
		return fmt.Sprintf("%s:%d", file, line), tabs[0], nil
	}
	tm := e.ProgramOf(t, ctx, viewtest.Width, viewtest.Height, paymentsview.New(ctx, e.P))
	viewtest.WaitFor(t, tm, "Payment id")
	viewtest.Keys(tm, "v")
	viewtest.WaitAll(t, tm, "Columns — Payments", "[x] Initiated", "[x] Error")
	// Initiated hidden; the cursor down to Error (the fifth: Initiated,
	// Payment id, Internal id, State, Error), moved up two places.
	viewtest.Keys(tm, "space", "j", "j", "j", "j", "K", "K", "enter")
	viewtest.WaitFor(t, tm, "  Error ")
	viewtest.Keys(tm, ":", "save Picked", "enter")
	viewtest.WaitAll(t, tm, `saved view "Picked"`, "2 Picked")
	frame := viewtest.Frame(t, tm)
	want := []string{"paymentid", "error", "internalid", "state", "retry", "sent", "corridor", "since", "payout", "beneficiary"}
	if !slices.Equal(got.Columns, want) {
		t.Fatalf("saved columns %v, want %v", got.Columns, want)
	}
	cfg, _, err := config.Parse(file, readFile(t, file), "ops", nil)
	if err != nil || len(cfg.Searches) != 1 || !slices.Equal(cfg.Searches[0].Columns, want) {
		t.Fatalf("the file's search %+v (%v)", cfg.Searches, err)
	}
	// On screen, the table's header in that order.
	for _, l := range strings.Split(frame, "\n") {
		if strings.Contains(l, "Payment id") && strings.Contains(l, "Error") {
			if strings.Contains(l, "Initiated") || strings.Index(l, "Error") > strings.Index(l, "Internal id") {
				t.Errorf("header %q: Initiated hidden, Error before Internal id", l)
			}
		}
	}
}
