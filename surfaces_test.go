package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"treasury/commands/cli/clitest"
	"treasury/commands/get"
	"treasury/commands/sandbox/profiletest"
	"treasury/config"
	"treasury/config/route"
	"treasury/figures"
	"treasury/figures/columns"
	"treasury/figures/ticket"
	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
	"treasury/ui"
	"treasury/views/balances"
	"treasury/views/ledger"
	"treasury/views/overview"
	paymentsview "treasury/views/payments"
	"treasury/views/viewtest"
	"treasury/wire/money"
	"treasury/wire/payments"
)

// The surfaces tests: every surface that shows a figure (the list, the
// dashboard's CSVs, the reason groups, the ticket, `treasury get` as CSV,
// JSON and summary) shows the one package figures computes, on the same
// records of one sandbox world.

// surfaces is a world read by the dashboard (its store holds every failure
// with its errors, read by id) and a profile `treasury get` reads it with.
type surfaces struct {
	e        *viewtest.Env
	cfg      string
	failures []payments.Payment // every FAILED and DECLINED payment, read by id
}

func newSurfaces(t *testing.T) *surfaces {
	t.Helper()
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory()})
	ctx := context.Background()
	ps, err := e.P.Payments.AllFiltered(ctx, payments.Filter{PaymentStates: []payments.State{payments.Failed, payments.Declined}})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.P.Payments.Details(ctx, ps); err != nil {
		t.Fatal(err)
	}
	e.P.Store.PutPayments(ps) // held with their errors, whatever the window
	e.P.Store.Sync()
	return &surfaces{e: e, cfg: profiletest.Write(t, e.Sandbox, clitest.FreeAddr(t), nil), failures: ps}
}

// get runs `treasury get args...` on the world, and fails t unless it exits 0.
func (s *surfaces) get(t *testing.T, args ...string) string {
	t.Helper()
	var out bytes.Buffer
	e, stderr := clitest.Env(t, &out)
	if code := clitest.Run(context.Background(), get.Command, e, append([]string{"--config", s.cfg}, args...)...); code != 0 {
		t.Fatalf("get %v: exit %d: %s", args, code, stderr)
	}
	return out.String()
}

// view drives a dashboard view with msgs, each answered and folded in.
func (s *surfaces) view(v ui.View, msgs ...tea.Msg) ui.View {
	for _, m := range msgs {
		viewtest.Drive(v, v.Update(m))
		s.e.P.Store.Sync()
		viewtest.Drive(v, v.Update(ui.StoreChanged{}))
	}
	return v
}

// csvOf reads a CSV: its header and its rows by column.
func csvOf(t *testing.T, text string) ([]string, []map[string]string) {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil || len(recs) == 0 {
		t.Fatalf("CSV (%v):\n%.300s", err, text)
	}
	var rows []map[string]string
	for _, r := range recs[1:] {
		m := map[string]string{}
		for i, h := range recs[0] {
			m[h] = r[i]
		}
		rows = append(rows, m)
	}
	return recs[0], rows
}

// dashboardCSV is the CSV a view writes (ctrl+s).
func dashboardCSV(t *testing.T, v ui.View) string {
	t.Helper()
	var b strings.Builder
	w := ui.CSVOf(v)
	if w == nil {
		t.Fatalf("%s writes no CSV", v.Name())
	}
	if err := w(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// byID indexes rows by a column.
func byID(rows []map[string]string, col string) map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, r := range rows {
		out[r[col]] = r
	}
	return out
}

// TestOneVerdictOnEverySurface: for every failed or declined payment
// whose errors disagree (the sandbox's SYS_004 beside CFG_002, USR_030
// beside SYS_003), the list's Error and Retry cells, the dashboard's CSV,
// the reason groups (its group and the group's verdict), the ticket, and
// `treasury get` as CSV, JSON and summary give the one verdict of
// figures.Verdict, the strictest; `/code:` finds it by any of its codes;
// the retryable scope and `get payments --retryable` list exactly the
// payments whose verdict is YES.
func TestOneVerdictOnEverySurface(t *testing.T) {
	s := newSurfaces(t)
	now := s.e.Sandbox.Clock().Now()
	since := now.Add(-30*24*time.Hour + time.Hour) // inside every 30-day window, whichever clock counts it
	var disagree []payments.Payment
	for _, p := range s.failures {
		if a := figures.VerdictOf(&p); a.Why != "" && p.When().After(since) {
			disagree = append(disagree, p)
		}
	}
	if len(disagree) == 0 {
		t.Fatal("no failure in the last 30 days whose errors disagree: nothing to check")
	}

	getCSV := byID(second(csvOf(t, s.get(t, "payments", "--state", "FAILED,DECLINED", "-o", "csv"))), "payment_id")
	var getJSON []struct {
		PaymentID string `json:"paymentId"`
		Figures   struct {
			Retry, RetryWhy, ReasonCode string
			ErrorCodes                  []string
		} `json:"_treasury"`
	}
	if err := json.Unmarshal([]byte(s.get(t, "payments", "--state", "FAILED,DECLINED", "-o", "json")), &getJSON); err != nil {
		t.Fatal(err)
	}
	jsonByID := map[string]int{}
	for i, r := range getJSON {
		jsonByID[r.PaymentID] = i
	}

	pv := paymentsview.New(s.e.Ctx, s.e.P)
	all := byID(second(csvOf(t, dashboardCSV(t, s.view(pv, ui.Open{View: paymentsview.Name, Args: []string{"all", "30d"}})))), "payment_id")
	groups := byID(second(csvOf(t, dashboardCSV(t, s.view(paymentsview.New(s.e.Ctx, s.e.P),
		ui.Open{View: paymentsview.Name, Args: []string{"failed", "30d"}})))), "reason_code")
	declined := byID(second(csvOf(t, dashboardCSV(t, s.view(paymentsview.New(s.e.Ctx, s.e.P),
		ui.Open{View: paymentsview.Name, Args: []string{"declined", "30d"}})))), "reason_code")
	list := columns.Payments()

	for _, p := range disagree {
		a := figures.VerdictOf(&p)
		word, codes := a.Word.Word(), figures.Codes(&p)
		reason, _ := figures.Reason(&p)
		// The list: every code, and the verdict.
		cells := list.Texts(&p, columns.At{Now: now})
		titles := list.Titles()
		if cells[slices.Index(titles, "Error")] != codes[0]+" +1" || cells[slices.Index(titles, "Retry")] != word {
			t.Errorf("%s: the list says %q %q, want %s +1 and %s", p.PaymentID, cells[slices.Index(titles, "Error")],
				cells[slices.Index(titles, "Retry")], codes[0], word)
		}
		// The dashboard's CSV.
		if r := all[p.PaymentID]; r == nil || r["retry"] != word || r["retry_why"] != a.Why || r["reason_code"] != reason.Code ||
			r["error_codes"] != strings.Join(codes, ";") {
			t.Errorf("%s: the dashboard's CSV %v, want %s (%s)", p.PaymentID, r, word, a.Why)
		}
		// The reason groups: counted under the error the verdict is of,
		// whose group has that verdict.
		g := groups[reason.Code]
		if p.PaymentState == payments.Declined {
			g = declined[reason.Code]
		}
		if g == nil || g["retry"] != word {
			t.Errorf("%s: its group %s is %v, want the verdict %s", p.PaymentID, reason.Code, g, word)
		}
		// The ticket, the dashboard's Y and get's -o summary alike.
		text := ticket.Summary{Payment: &p}.Text()
		summary := s.get(t, "payment", p.PaymentID, "-o", "summary")
		for _, tx := range []string{text, summary} {
			if !strings.Contains(tx, "Retry         "+a.Retry) || !strings.Contains(tx, "Why           the errors disagree") {
				t.Errorf("%s: the ticket lacks the verdict %q:\n%s", p.PaymentID, a.Retry, tx)
			}
		}
		// get, CSV and JSON.
		if r := getCSV[p.PaymentID]; r == nil || r["retry"] != word || r["retry_why"] != a.Why || r["reason_code"] != reason.Code ||
			r["error_codes"] != strings.Join(codes, ";") {
			t.Errorf("%s: get -o csv %v, want %s", p.PaymentID, r, word)
		}
		if i, ok := jsonByID[p.PaymentID]; !ok || getJSON[i].Figures.Retry != word || getJSON[i].Figures.RetryWhy != a.Why ||
			getJSON[i].Figures.ReasonCode != reason.Code || !slices.Equal(getJSON[i].Figures.ErrorCodes, codes) {
			t.Errorf("%s: get -o json %+v, want %s", p.PaymentID, getJSON[jsonByID[p.PaymentID]].Figures, word)
		}
		// /code: finds it by its second code, which its cells show as +1.
		v := s.view(paymentsview.New(s.e.Ctx, s.e.P), ui.Open{View: paymentsview.Name, Args: []string{"all", "30d"}})
		viewtest.Drive(v, ui.SetFilterOf(v, "code:"+codes[1]))
		if _, rows := csvOf(t, dashboardCSV(t, v)); byID(rows, "payment_id")[p.PaymentID] == nil {
			t.Errorf("%s: /code:%s does not find it", p.PaymentID, codes[1])
		}
	}

	// The retryable scope and --retryable: exactly the verdict YES.
	want := map[string]bool{}
	for _, p := range s.failures {
		if figures.Retryable(&p) && p.When().After(since) {
			want[p.PaymentID] = true
		}
	}
	if len(want) == 0 {
		t.Fatal("no retryable payment in the last 30 days: nothing to check")
	}
	_, scoped := csvOf(t, dashboardCSV(t, s.view(paymentsview.New(s.e.Ctx, s.e.P), ui.Open{View: paymentsview.Name, Args: []string{"retryable", "30d"}})))
	_, got := csvOf(t, s.get(t, "payments", "--retryable", "-o", "csv"))
	for name, rows := range map[string][]map[string]string{"the retryable scope": scoped, "get payments --retryable": got} {
		ids := map[string]bool{}
		for _, r := range rows {
			if r["retry"] != "YES" {
				t.Errorf("%s lists %s, whose verdict is %s", name, r["payment_id"], r["retry"])
			}
			if at, err := time.Parse(time.RFC3339, r["initiated_at"]); err == nil && at.After(since) {
				ids[r["payment_id"]] = true
			}
		}
		for id := range want {
			if !ids[id] {
				t.Errorf("%s leaves out %s, whose verdict is YES", name, id)
			}
		}
	}
}

func second[A, B any](_ A, b B) B { return b }

// TestEveryCSVOneFormat: every CSV the tool writes of the same world, the
// dashboard's (payments, reason groups, ledger, balances, overview) and
// `treasury get`'s (payments, ledger, prefunded and liquidity balances,
// exposure, identities), has one header style (snake_case, a nested
// field after a dot), one time format (RFC 3339, UTC, to the second), and
// one decimal format per currency (its decimals, no grouping).
func TestEveryCSVOneFormat(t *testing.T) {
	s := newSurfaces(t)
	out := map[string]string{
		"dashboard payments": dashboardCSV(t, s.view(paymentsview.New(s.e.Ctx, s.e.P), ui.Open{View: paymentsview.Name, Args: []string{"all", "30d"}})),
		"dashboard groups":   dashboardCSV(t, s.view(paymentsview.New(s.e.Ctx, s.e.P), ui.Open{View: paymentsview.Name, Args: []string{"failed", "30d"}})),
		"dashboard ledger":   dashboardCSV(t, s.view(ledger.New(s.e.Ctx, s.e.P), ui.StoreChanged{})),
		"dashboard balances": dashboardCSV(t, s.view(balances.New(s.e.Ctx, balances.Options{Runway: s.e.P.Runway}), ui.StoreChanged{})),
		"dashboard overview": dashboardCSV(t, s.view(overview.New(s.e.Ctx, overview.Options{Runway: s.e.P.Runway, Base: "USD"}), ui.StoreChanged{})),
		"dashboard funding": dashboardCSV(t, s.view(balances.New(s.e.Ctx, balances.Options{Runway: s.e.P.Runway}),
			ui.Open{View: route.Balances, Args: []string{"funding"}})),
	}
	for _, args := range [][]string{{"payments", "--since", "30d"}, {"ledger"}, {"payment-balances"}, {"balances"}, {"exposure"}, {"identities"}, {"funding"}} {
		out["get "+args[0]] = s.get(t, append(args, "-o", "csv")...)
	}
	header := regexp.MustCompile(`^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*$`)
	looksTimed := regexp.MustCompile(`^\d{4}-\d\d-\d\d[T ]\d\d:\d\d`)
	stamp := regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`)
	decimals := map[string]map[int]string{} // per currency: each count of decimals seen, and where
	times, amounts := 0, 0
	for name, text := range out {
		head, rows := csvOf(t, text)
		if len(rows) == 0 {
			t.Errorf("%s: no rows", name)
		}
		for _, h := range head {
			if !header.MatchString(h) {
				t.Errorf("%s: header %q is not snake_case", name, h)
			}
		}
		for _, r := range rows {
			for _, h := range head {
				v := r[h]
				if looksTimed.MatchString(v) {
					times++
					if !stamp.MatchString(v) {
						t.Errorf("%s: %s = %q is not RFC 3339 UTC to the second", name, h, v)
					}
				}
				cur := r[currencyColumn(h, r)]
				if v == "" || cur == "" {
					continue
				}
				if _, ok := money.Places(cur); !ok {
					continue
				}
				amounts++
				if strings.Contains(v, ",") {
					t.Errorf("%s: %s = %q is grouped", name, h, v)
				}
				_, frac, _ := strings.Cut(v, ".")
				if decimals[cur] == nil {
					decimals[cur] = map[int]string{}
				}
				if _, seen := decimals[cur][len(frac)]; !seen {
					decimals[cur][len(frac)] = name + " " + h + " " + v
				}
			}
		}
	}
	for cur, counts := range decimals {
		if len(counts) != 1 {
			t.Errorf("%s is written with several numbers of decimals: %v", cur, counts)
		}
	}
	if times == 0 || amounts == 0 || len(decimals) < 3 {
		t.Errorf("%d times, %d amounts in %d currencies checked", times, amounts, len(decimals))
	}
}

// currencyColumn is the column that holds the currency of the amount in
// column h of row r ("" when h is no amount): a source_amount's
// source_currency, a fee_total's fee_currency, a value's value_currency,
// the row's currency (or asset) for the amounts of a balance, a ledger
// movement and an exposure.
func currencyColumn(h string, r map[string]string) string {
	prefix, last := "", h
	if i := strings.LastIndexByte(h, '.'); i >= 0 {
		prefix, last = h[:i+1], h[i+1:]
	}
	switch {
	case strings.HasSuffix(last, "_amount"):
		return prefix + strings.TrimSuffix(last, "_amount") + "_currency"
	case strings.HasSuffix(last, "_total"):
		return prefix + strings.TrimSuffix(last, "_total") + "_currency"
	case last == "value":
		return prefix + "value_currency"
	}
	switch last {
	case "amount", "available", "reserved", "total", "available_balance", "reserved_balance", "available_balance_before",
		"available_balance_after", "liquidity_available", "prefunded_available", "pays_out", "prefunded", "owed_just_in_time",
		"past_due", "due_within_hour", "funded_just_in_time", "credit", "prefunded_in_flight", "after_in_flight", "pace_per_hour",
		"top_up", "owed_before_arrival":
		if _, ok := r[prefix+"currency"]; ok {
			return prefix + "currency"
		}
		return prefix + "asset"
	}
	return ""
}

// TestOwedOnEverySurface: against a payments server built from the
// vendor's document (payin JIT and FUNDED, ten of fourteen payments
// awaiting funds past their jitFundingExpiresAt), the overview owes per
// currency what `treasury get exposure` owes, as its table and its CSV
// write it, and that is the sum and count of the payments awaiting funds;
// the overview's CSV says it as get's does.
func TestOwedOnEverySurface(t *testing.T) {
	var doc *sandboxtest.DocumentServer
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory(), Profile: func(c *config.Config) {
		root := strings.TrimSuffix(c.Payments.BaseURL, sandbox.PrefixPayments)
		doc = sandboxtest.ServeDocumentAt(t, root, sandboxtest.Start)
		c.Payments.BaseURL = doc.URL + sandbox.PrefixPayments
	}})
	cfg := profiletest.Write(t, e.Sandbox, clitest.FreeAddr(t), func(yaml, _ string) string {
		return strings.ReplaceAll(yaml, e.Sandbox.URL+sandbox.PrefixPayments, doc.URL+sandbox.PrefixPayments)
	})
	s := &surfaces{e: e, cfg: cfg}
	v := overview.New(e.Ctx, overview.Options{Runway: e.P.Runway, Base: "USD"})
	s.view(v, ui.StoreChanged{})
	screen := ansi.Strip(v.Render(160, 60))
	table := s.get(t, "exposure", "-o", "table")
	_, getRows := csvOf(t, s.get(t, "exposure", "-o", "csv"))
	_, dashRows := csvOf(t, dashboardCSV(t, v))
	getByCur := byID(getRows, "currency")
	dashByCur := map[string]map[string]string{}
	for _, r := range dashRows {
		if r["kind"] == "exposure" {
			dashByCur[r["currency"]] = r
		}
	}
	past := map[string]int{"USD": 3, "EUR": 3, "GBP": 3, "RLUSD": 1}
	for cur, o := range doc.Owed {
		amount := figures.Money(o.Amount, cur)
		onScreen := fmt.Sprintf("%s %s (%d, %d past due)", cur, amount, o.Count, past[cur])
		if !strings.Contains(screen, onScreen) {
			t.Errorf("the overview does not owe %q:\n%s", onScreen, screen)
		}
		if inTable := fmt.Sprintf("%s (%d)", amount, o.Count); !tableHas(table, cur, inTable) {
			t.Errorf("get exposure -o table does not owe %s %q:\n%s", cur, inTable, table)
		}
		data := figures.MoneyData(o.Amount, cur)
		for name, r := range map[string]map[string]string{"get's CSV": getByCur[cur], "the overview's CSV": dashByCur[cur]} {
			if r == nil || r["owed_just_in_time"] != data || r["owed_just_in_time_count"] != fmt.Sprint(o.Count) || r["past_due_count"] != fmt.Sprint(past[cur]) {
				t.Errorf("%s owes %s %v, want %s (%d)", name, cur, r, data, o.Count)
			}
		}
	}
}

// tableHas reports whether the line of currency cur in an aligned table
// holds cell.
func tableHas(table, cur, cell string) bool {
	for _, l := range strings.Split(table, "\n") {
		if strings.HasPrefix(l, cur+" ") && strings.Contains(l, "  "+cell+"  ") {
			return true
		}
	}
	return false
}
