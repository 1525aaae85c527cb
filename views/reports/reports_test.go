package reports_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"treasury/desk/live"
	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
	"treasury/ui"
	"treasury/ui/uitest"
	"treasury/views/reports"
	"treasury/views/viewtest"
	"treasury/wire/reporting"
)

// list is the reports the sandbox lists, in its order.
func list(t *testing.T, e *viewtest.Env) []reporting.Report {
	t.Helper()
	rs, _ := live.Get(e.P.Store, live.ReportsKey).Data, true
	if len(rs) == 0 {
		t.Fatal("the sandbox lists no reports")
	}
	return rs
}

// find is the index in the list of the first ready report of a type and
// format.
func find(t *testing.T, rs []reporting.Report, typ, format string) int {
	t.Helper()
	for i, r := range rs {
		if r.Type == typ && r.Format == format && r.Status == reporting.StatusReady {
			return i
		}
	}
	t.Fatalf("no ready %s %s report", typ, format)
	return 0
}

// openNth runs the view and opens the i-th report of the list with the
// cursor and enter.
func openNth(t *testing.T, e *viewtest.Env, i int) *teatest.TestModel {
	t.Helper()
	tm := e.Program(t, reports.New(e.Ctx, e.P))
	viewtest.WaitFor(t, tm, "Generated (UTC)")
	for range i {
		viewtest.Keys(tm, "down")
	}
	viewtest.Keys(tm, "enter")
	return tm
}

func TestReportsListGolden(t *testing.T) {
	e := shared.Env(t)
	tm := e.Program(t, reports.New(e.Ctx, e.P))
	viewtest.WaitFor(t, tm, "Generated (UTC)")
	viewtest.Golden(t, tm)
}

func TestReconGolden(t *testing.T) {
	e := shared.Env(t)
	i := find(t, list(t, e), reporting.TypeRecon, reporting.FormatJSON)
	tm := openNth(t, e, i)
	viewtest.WaitFor(t, tm, "totals: ")
	viewtest.Golden(t, tm)
}

func TestPaymentOpsGolden(t *testing.T) {
	e := shared.Env(t)
	i := find(t, list(t, e), reporting.TypePaymentOps, reporting.FormatCSV)
	tm := openNth(t, e, i)
	viewtest.WaitFor(t, tm, "106 payments ·")
	viewtest.Golden(t, tm)
}

func TestReconDrillDownAndBack(t *testing.T) {
	e := shared.Env(t)
	i := find(t, list(t, e), reporting.TypeRecon, reporting.FormatCSV)
	tm := openNth(t, e, i)
	viewtest.WaitFor(t, tm, "totals: ")
	viewtest.Keys(tm, "enter")
	viewtest.WaitFor(t, tm, "withdrawn ")
	viewtest.Keys(tm, "enter")
	viewtest.WaitFor(t, tm, "withdrawal_result_fee_amount")
	viewtest.Keys(tm, "esc", "esc", "esc", "/", "RECON", "enter")
	viewtest.WaitFor(t, tm, "6/12 rows")
	tm.Quit()
}

func TestReportByPalette(t *testing.T) {
	e := shared.Env(t)
	rs := list(t, e)
	rep := rs[find(t, rs, reporting.TypePaymentOps, reporting.FormatJSON)]
	tm := e.Program(t, reports.New(e.Ctx, e.P))
	viewtest.WaitFor(t, tm, "Generated (UTC)")
	viewtest.Keys(tm, ":", "report "+rep.ID[:8], "enter")
	viewtest.WaitFor(t, tm, "PAYMENT_OPS JSON ·")
	tm.Quit()
}

// run drives cmd as the shell would and returns the flashes.
func run(v ui.View, cmd tea.Cmd) []ui.Flash {
	var flashes []ui.Flash
	for _, m := range viewtest.Drive(v, cmd) {
		if f, ok := m.(ui.Flash); ok {
			flashes = append(flashes, f)
		}
	}
	return flashes
}

func TestSaveAsDownloaded(t *testing.T) {
	e := shared.Env(t)
	rs := list(t, e)
	rep := rs[find(t, rs, reporting.TypeRecon, reporting.FormatCSV)]
	v := reports.New(e.Ctx, e.P)
	run(v, v.Update(ui.StoreChanged{}))
	run(v, v.Update(ui.Open{View: "reports", Args: []string{"report", rep.ID}}))
	fl := run(v, v.Update(uitest.Key("w")))
	if len(fl) != 1 || fl[0].Err != nil || !strings.Contains(fl[0].Text, "saved ") {
		t.Fatalf("flash %+v", fl)
	}
	want, err := e.P.Reporting.Download(context.Background(), rep)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(e.Ctx.SaveDir, want.FileName())
	if !strings.Contains(fl[0].Text, path) {
		t.Errorf("flash %q does not name %s", fl[0].Text, path)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Raw) == 0 || !bytes.Equal(got, want.Raw) {
		t.Fatalf("saved %d bytes, downloaded %d, equal %v", len(got), len(want.Raw), bytes.Equal(got, want.Raw))
	}
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, %v", st.Mode(), err)
	}
	fl = run(v, v.Update(uitest.Key("w")))
	if len(fl) != 1 || fl[0].Err == nil || !strings.Contains(fl[0].Err.Error(), "not overwritten") {
		t.Fatalf("second save: %+v", fl)
	}
	if again, _ := os.ReadFile(path); !bytes.Equal(again, want.Raw) {
		t.Fatal("second save changed the file")
	}
}

func TestReportsWidth80(t *testing.T) {
	e := shared.Env(t)
	rs := list(t, e)
	v := reports.New(e.Ctx, e.P)
	check := func(what string) {
		t.Helper()
		viewtest.Fits(t, what, v.Render(80, 20), 80, 20)
	}
	run(v, v.Update(ui.StoreChanged{}))
	check("list")
	for _, typ := range []string{reporting.TypePaymentOps, reporting.TypeRecon} {
		rep := rs[find(t, rs, typ, reporting.FormatJSON)]
		run(v, v.Update(ui.Open{View: "reports", Args: []string{"report", rep.ID}}))
		check(typ)
		run(v, v.Update(uitest.Key("enter")))
		check(typ + " enter")
		run(v, v.Update(uitest.Key("enter")))
		check(typ + " enter enter")
	}
}

func TestPendingReportSaysWhy(t *testing.T) {
	so := sandboxtest.Options()
	so.Start = time.Date(2026, 12, 1, 0, 0, 30, 0, time.UTC) // November is generated, not yet ready
	e := viewtest.New(t, viewtest.Options{Sandbox: &so, Skip: viewtest.NoLiquidityHistory()})
	var pending reporting.Report
	for _, r := range list(t, e) {
		if r.Status == reporting.StatusPending {
			pending = r
			break
		}
	}
	if pending.ID == "" {
		t.Fatal("no pending report")
	}
	v := reports.New(e.Ctx, e.P)
	run(v, v.Update(ui.StoreChanged{}))
	run(v, v.Update(ui.Open{View: "reports", Args: []string{"report", pending.ID}}))
	out := v.Render(120, 20)
	if !strings.Contains(out, "still being generated") || !strings.Contains(out, "r downloads it again") {
		t.Fatalf("pending report:\n%s", out)
	}
	if fl := run(v, v.Update(uitest.Key("w"))); len(fl) != 1 || fl[0].Err == nil {
		t.Fatalf("save of a pending report: %+v", fl)
	}
	// Once ready, r downloads it again.
	e.Advance(time.Minute)
	run(v, v.Update(ui.Refresh{})) // what the shell sends on r
	if out := v.Render(120, 20); !strings.Contains(out, pending.Type+" "+pending.Format+" ·") || strings.Contains(out, "still being") {
		t.Fatalf("after r:\n%s", out)
	}
}

// hostile strings in a report's rows reach the screen only as harmless
// visible text, and the saved file keeps them byte for byte.
func TestHostileReportRows(t *testing.T) {
	so := sandboxtest.Options()
	so.Faults = sandbox.FaultSettings{Hostile: true}
	e := viewtest.New(t, viewtest.Options{Sandbox: &so, Skip: viewtest.NoLiquidityHistory()})
	rs := list(t, e)
	for _, typ := range []string{reporting.TypePaymentOps, reporting.TypeRecon} {
		rep := rs[find(t, rs, typ, reporting.FormatCSV)]
		v := reports.New(e.Ctx, e.P)
		run(v, v.Update(ui.StoreChanged{}))
		run(v, v.Update(ui.Open{View: "reports", Args: []string{"report", rep.ID}}))
		frames := []string{v.Render(120, 30)}
		run(v, v.Update(uitest.Key("enter")))
		frames = append(frames, v.Render(120, 30))
		run(v, v.Update(uitest.Key("enter")))
		frames = append(frames, v.Render(120, 30))
		for i, f := range frames {
			if r, bad := viewtest.Harmful(f); bad {
				t.Errorf("%s frame %d holds %U:\n%q", typ, i, r, f)
			}
		}
		fl := run(v, v.Update(uitest.Key("w")))
		want, err := e.P.Reporting.Download(context.Background(), rep)
		if err != nil || len(fl) != 1 || fl[0].Err != nil {
			t.Fatalf("%s: download %v, flash %+v", typ, err, fl)
		}
		got, _ := os.ReadFile(filepath.Join(e.Ctx.SaveDir, want.FileName()))
		if !bytes.Equal(got, want.Raw) {
			t.Errorf("%s: saved file differs from the download", typ)
		}
		if typ == reporting.TypePaymentOps && !bytes.Contains(got, []byte("\x1b")) {
			t.Errorf("%s: the sandbox's hostile names are not in the report", typ)
		}
	}
}

func TestSaveFromList(t *testing.T) {
	e := shared.Env(t)
	rs := list(t, e)
	i := find(t, rs, reporting.TypePaymentOps, reporting.FormatJSON)
	v := reports.New(e.Ctx, e.P)
	run(v, v.Update(ui.StoreChanged{}))
	for range i {
		run(v, v.Update(uitest.Key("down")))
	}
	fl := run(v, v.Update(uitest.Key("w")))
	if len(fl) != 2 || fl[1].Err != nil || !strings.Contains(fl[1].Text, "saved ") {
		t.Fatalf("flashes %+v", fl)
	}
	want, err := e.P.Reporting.Download(context.Background(), rs[i])
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(e.Ctx.SaveDir, want.FileName()))
	if err != nil || !bytes.Equal(got, want.Raw) {
		t.Fatalf("saved %d bytes (%v), downloaded %d", len(got), err, len(want.Raw))
	}
	if v.Depth() != 1 {
		t.Errorf("saving from the list opened a page")
	}
}
