package saved_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"treasury/config"
	"treasury/config/route"
	"treasury/ui"
	"treasury/views/addressbook"
	paymentsview "treasury/views/payments"
	"treasury/views/saved"
	"treasury/views/viewtest"
)

// profile is a configuration file with one sandbox profile "ops" whose
// searches are those given (YAML list items, indented for the key).
func profile(searches string) []byte {
	return []byte("profiles:\n  ops:\n    environment: sandbox\n    searches:\n" + searches)
}

// load parses data as Load does, with the views' check.
func load(t *testing.T, data []byte) (*config.Config, error) {
	t.Helper()
	cfg, _, err := config.Parse("/etc/treasury.yaml", data, "", func(string) string { return "" })
	if err != nil {
		return nil, err
	}
	return cfg, cfg.CheckSearches(saved.Check)
}

// TestConfigGood: a saved search of payments with a window and columns
// loads as written; the view defaults to payments.
func TestConfigGood(t *testing.T) {
	cfg, err := load(t, profile(`      - title: Failed EUR
        search: "state:FAILED currency:EUR !~^x beneficiary:~carl"
        window: 7d
        columns: [paymentid, State, sent, beneficiary, err]
      - title: Quoted
        view: payments
        search: state:QUOTED
`))
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Searches) != 2 {
		t.Fatalf("searches: %+v", cfg.Searches)
	}
	s := cfg.Searches[0]
	if s.Title != "Failed EUR" || s.View != "payments" || s.Window != "7d" || s.Search != "state:FAILED currency:EUR !~^x beneficiary:~carl" ||
		strings.Join(s.Columns, ",") != "paymentid,state,sent,beneficiary,err" || s.Key != "profiles.ops.searches[0]" || s.Lines[""] != 5 {
		t.Errorf("search: %+v", s)
	}
}

// TestConfigBad: what the views cannot show is an error of the load
// naming the file, the line, the profile's entry and its key, the
// search's title and what is wrong; every bad entry is named.
func TestConfigBad(t *testing.T) {
	for _, c := range []struct {
		name, yaml string
		want       []string
	}{
		{"bad regex", `      - title: Broken
        search: "state:FAILED beneficiary:~carl(os"
`, []string{"/etc/treasury.yaml:6: profiles.ops.searches[0].search", `saved search "Broken"`, "beneficiary:~carl(os", "not a regular expression", "missing closing )"}},
		{"unknown column in search", `      - title: Nope
        search: "colour:red"
`, []string{"/etc/treasury.yaml:6: profiles.ops.searches[0].search", `no column or field "colour"`, "columns: initiated, paymentid"}},
		{"unknown column", `      - title: Narrow
        search: state:FAILED
        columns: [state, colour]
`, []string{"/etc/treasury.yaml:7: profiles.ops.searches[0].columns", `saved search "Narrow"`, `no column "colour" in payments`}},
		{"unknown view", `      - title: Wallets
        view: walets
        search: frozen
`, []string{"/etc/treasury.yaml:6: profiles.ops.searches[0].view", `no view "walets" to search (views: quotes, balances, payments, wallets`}},
		{"bad window", `      - title: Old
        window: 7x
`, []string{"profiles.ops.searches[0].window", `saved search "Old"`}},
		{"no title", `      - search: state:FAILED
`, []string{"profiles.ops.searches[0].title", "missing required key"}},
		{"title twice", `      - title: A
      - title: a
`, []string{"/etc/treasury.yaml:6:9: profiles.ops.searches[1].title", "profiles.ops.searches[0] too"}},
		{"columns not a list", `      - title: A
        columns: state
`, []string{"profiles.ops.searches[0].columns", "must be a list"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := load(t, profile(c.yaml))
			var ce *config.Error
			if !errors.As(err, &ce) {
				t.Fatalf("got %v, want a config error", err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("the error lacks %q:\n%v", w, err)
				}
			}
		})
	}
}

// TestLoadChecks: Load with the views' check refuses a bad search before
// anything starts.
func TestLoadChecks(t *testing.T) {
	dir := t.TempDir()
	file := dir + "/config.yaml"
	writeFile(t, file, profile("      - title: X\n        view: nope\n"))
	_, _, err := config.Load(config.Options{ConfigFile: file, Getenv: func(string) string { return "" }, CheckSearch: saved.Check})
	if err == nil || !strings.Contains(err.Error(), `profiles.ops.searches[0].view: saved search "X": no view "nope"`) {
		t.Fatalf("got %v", err)
	}
}

// TestSavedTabs: the saved searches are tabs after the built-in views,
// each with a key of its own named in its label (the initial, else the
// next free letter of its title); the tab opened shows the payments the
// search selects, over its window, with only its columns. `/` edits the
// search; esc goes back to the saved one, and esc again keeps it.
func TestSavedTabs(t *testing.T) {
	t.Parallel()
	e := viewtest.Shared(t)
	searches := []config.Search{
		{Title: "Failed", View: "payments", Search: "state:~failed|declined", Window: "7d", Columns: []string{"paymentid", "state", "error", "sent", "beneficiary"}},
		// F is taken by the first: the next free letter of the title.
		{Title: "Frozen EUR", View: "payments", Search: "currency:EUR state:COMPLETED"},
	}
	views := append(builtins(e), mustViews(t, e, searches)...)
	tm := e.Program(t, views...)
	viewtest.WaitFor(t, tm, "5 rows")
	viewtest.Keys(tm, "F")
	viewtest.WaitFor(t, tm, "filter: state:~failed|declined")
	viewtest.Keys(tm, "/", "x", "enter")
	viewtest.WaitFor(t, tm, "filter: x")
	viewtest.Keys(tm, "esc")
	viewtest.WaitFor(t, tm, "filter: state:~failed|declined")
	viewtest.Keys(tm, "esc")
	frame := viewtest.Golden(t, tm)
	for _, want := range []string{"F Failed", " R ", "last 7d", "filter: state:~failed|declined", "USR_065 3,843.64 GBP", "Payment id", "Beneficiary"} {
		if !strings.Contains(frame, want) {
			t.Errorf("the frame lacks %q", want)
		}
	}
	header := ""
	for _, l := range strings.Split(frame, "\n") {
		if strings.Contains(l, "Payment id") {
			header = l
		}
	}
	if f := strings.Fields(header); strings.Join(f, " ") != "Payment id State Error Sent Beneficiary" {
		t.Errorf("the columns are %q", header)
	}
	for _, bad := range []string{"not shown at this width"} {
		if strings.Contains(frame, bad) {
			t.Errorf("the frame shows %q: a column the search leaves out", bad)
		}
	}
}

// TestSearchCommand: `:search <title prefix>` opens the tab.
func TestSearchCommand(t *testing.T) {
	t.Parallel()
	e := viewtest.Shared(t)
	searches := []config.Search{{Title: "Failed", View: "payments", Search: "state:FAILED"},
		{Title: "Big EUR", View: "payments", Search: "currency:EUR"}}
	views := append(builtins(e), mustViews(t, e, searches)...)
	tm := e.Program(t, views...)
	viewtest.WaitFor(t, tm, "5 rows")
	viewtest.Keys(tm, ":", "s", "e", "a", "r", "c", "h", " ", "b", "i", "g", "enter")
	viewtest.WaitFor(t, tm, "filter: currency:EUR")
	viewtest.Frame(t, tm)
}

// stand is a stand-in for a built-in view of the dashboard (a payments
// view under another title): the saved tabs come after twelve views, as
// in the dashboard, whose tab bar they share.
type stand struct {
	ui.View
	title string
}

func (s stand) Name() route.Route      { return route.Route("stand:" + s.title) }
func (s stand) Title() string          { return s.title }
func (s stand) Commands() []ui.Command { return nil }

// builtins are the dashboard's twelve tabs, the fourth the payments view.
func builtins(e *viewtest.Env) []ui.View {
	var out []ui.View
	for _, title := range []string{"Overview", "Quotes", "Balances", "Payments", "Wallets", "Reports", "Address book",
		"Alerts", "Errors", "Identities", "Ledger", "Audit"} {
		v := paymentsview.New(e.Ctx, e.P)
		if title == "Payments" {
			out = append(out, v)
			continue
		}
		out = append(out, stand{v, title})
	}
	return out
}

// build makes the views a saved search names in these tests.
func build(e *viewtest.Env) saved.Build {
	return func(r route.Route) ui.View {
		switch r {
		case route.Payments:
			return paymentsview.New(e.Ctx, e.P)
		case route.AddressBook:
			return addressbook.New(e.Ctx, e.P, e.Actor)
		}
		return nil
	}
}

func mustViews(t *testing.T, e *viewtest.Env, searches []config.Search) []ui.View {
	t.Helper()
	vs, err := saved.Views(e.Ctx, "config.yaml", searches, build(e))
	if err != nil {
		t.Fatal(err)
	}
	return vs
}

// A saved view of another view than payments: the address book's
// endpoints, filtered, with two columns, sorted by alias descending. A
// column or sort its table has not is named with the file and line, and
// that tab is left out.
func TestSavedViewOfAnyTable(t *testing.T) {
	t.Parallel()
	e := viewtest.Shared(t)
	searches := []config.Search{{Title: "Locked", View: "addressbook", Search: "lock:Locked", Columns: []string{"alias", "lock"},
		Sort: "alias", SortDesc: true}}
	tm := e.Program(t, append(builtins(e), mustViews(t, e, searches)...)...)
	viewtest.WaitFor(t, tm, "5 rows")
	viewtest.Keys(tm, "O") // L is the Ledger's: the next free letter of the title
	viewtest.WaitFor(t, tm, "filter: lock:Locked")
	frame := viewtest.Frame(t, tm)
	var rows []string
	header := ""
	for _, l := range strings.Split(frame, "\n") {
		f := strings.Fields(l)
		switch {
		case len(f) > 0 && f[0] == "Alias":
			header = strings.Join(f, " ")
		case header != "" && len(f) > 1 && f[len(f)-1] == "Locked":
			rows = append(rows, l)
		}
	}
	if !strings.HasPrefix(header, "Alias ▼ Lock") && !strings.HasPrefix(header, "Alias▼ Lock") && !strings.HasPrefix(header, "Alias↓ Lock") {
		t.Errorf("header %q, want Alias (sorted descending) then Lock only:\n%s", header, frame)
	}
	if len(rows) < 2 || !slices.IsSortedFunc(rows, func(a, b string) int { return strings.Compare(b, a) }) {
		t.Errorf("rows not by alias descending: %q", rows)
	}
	bad := []config.Search{{Title: "Bad", View: "addressbook", Columns: []string{"colour"}, Key: "profiles.ops.searches[0]",
		Lines: map[string]int{"": 6, "columns": 7}}}
	vs, err := saved.Views(e.Ctx, "/etc/treasury.yaml", bad, build(e))
	if len(vs) != 0 || err == nil || !strings.Contains(err.Error(), `/etc/treasury.yaml:7: profiles.ops.searches[0].columns: saved search "Bad": no column "colour"`) {
		t.Errorf("a column the table has not: %v (%d tabs)", err, len(vs))
	}
}

// :save <title> writes the view shown (its search and sort) to the
// profile's file as a saved search, which reads back as one; a session
// that may not (over treasury serve) is told so, and nothing is written.
func TestSaveCommandWritesTheProfile(t *testing.T) {
	t.Parallel()
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory()})
	file := filepath.Join(t.TempDir(), "config.yaml")
	writeFile(t, file, []byte("# ours\nprofiles:\n  ops:\n    environment: sandbox  # kept\n"))
	ctx := e.Ctx.Apart()
	ctx.SaveView = func(s config.Search) (string, ui.View, error) {
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
	tm := e.ProgramOf(t, ctx, viewtest.Width, viewtest.Height, paymentsview.New(ctx, e.P), addressbook.New(ctx, e.P, e.Actor))
	viewtest.WaitFor(t, tm, "5 rows")
	viewtest.Keys(tm, "2")
	viewtest.WaitFor(t, tm, "addressbook › endpoints")
	viewtest.Keys(tm, "/", "lock:~^Locked", "enter", "s", "a", "s", "a", ":", "save Cold locks", "enter")
	viewtest.WaitAll(t, tm, `saved view "Cold locks"`, "3 Cold locks")
	viewtest.Keys(tm, "1", "3") // away, and back by the new tab's key
	viewtest.WaitAll(t, tm, "search:cold-locks › endpoints", "filter: lock:~^Locked", "Alias ▼")
	viewtest.Frame(t, tm)
	cfg, _, err := config.Parse(file, readFile(t, file), "ops", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Searches) != 1 {
		t.Fatalf("searches %+v", cfg.Searches)
	}
	if s := cfg.Searches[0]; s.Title != "Cold locks" || s.View != "addressbook" || s.Search != "lock:~^Locked" || s.Sort != "alias" || !s.SortDesc {
		t.Errorf("saved %+v", s)
	}
	if !strings.Contains(string(readFile(t, file)), "environment: sandbox  # kept") {
		t.Error("the file's comment was lost")
	}

	over := e.Ctx.Apart()
	over.SaveView = nil
	tm = e.ProgramOf(t, over, viewtest.Width, viewtest.Height, addressbook.New(over, e.P, e.Actor))
	viewtest.WaitFor(t, tm, "addressbook › endpoints")
	viewtest.Keys(tm, ":", "save Mine", "enter")
	viewtest.WaitFor(t, tm, "over treasury serve the profile's file is the server's")
	viewtest.Frame(t, tm)
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSavedTabOpensOnItsFirstRow: a saved tab sorted otherwise than
// newest first opens with the cursor on its first row, not on the newest
// payment its live table would follow (the last but one here).
func TestSavedTabOpensOnItsFirstRow(t *testing.T) {
	t.Parallel()
	e := viewtest.Shared(t)
	searches := []config.Search{{Title: "Sorted", View: "payments", Search: "state:~completed|declined", Sort: "sent"}}
	views := append(builtins(e), mustViews(t, e, searches)...)
	tm := e.Program(t, views...)
	viewtest.WaitFor(t, tm, "5 rows")
	viewtest.Keys(tm, "O")
	viewtest.WaitFor(t, tm, "filter: state:~completed|declined")
	frame := viewtest.Frame(t, tm)
	var rows []string
	for _, l := range strings.Split(frame, "\n") {
		if strings.Contains(l, "INV-") {
			rows = append(rows, l)
		}
	}
	if len(rows) != 5 || !strings.HasPrefix(rows[0], "▸ ") || !strings.Contains(rows[0], "294.62 GBP") {
		t.Fatalf("the cursor is not on the first row (the smallest sent):\n%s", frame)
	}
}
