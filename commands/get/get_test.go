package get

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"treasury/commands/cli/clitest"
	"treasury/commands/sandbox/profiletest"
	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
	"treasury/wire"
	"treasury/wire/custody"
	"treasury/wire/liquidity"
	"treasury/wire/payments"
	"treasury/wire/reporting"
	"treasury/wire/wallet"
)

// getRun runs `treasury get args...` on the package's sandbox
// (sharedFace), unless args name a --config of their own; what the
// sandbox answered is checked against the vendor's document.
func getRun(t testing.TB, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	if !slices.Contains(args, "--config") {
		args = append([]string{"--config", sharedFace}, args...)
		t.Cleanup(func() { sharedContract.Report(t) })
	}
	return getRunBuiltin(t, args...)
}

// getRunBuiltin runs `treasury get args...` as given: with no --config, on
// the built-in profile, which starts its own embedded sandbox (seed 1,
// 3,000 history payments).
func getRunBuiltin(t testing.TB, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out bytes.Buffer
	e, errBuf := clitest.Env(t, &out)
	code = clitest.Run(context.Background(), Command, e, args...)
	return code, out.String(), errBuf.String()
}

// getJSON runs a get with -o json and decodes its output into a V.
func getJSON[V any](t testing.TB, args ...string) V {
	t.Helper()
	code, out, stderr := getRun(t, append(args, "-o", "json")...)
	var v V
	if code != 0 {
		t.Fatalf("get %v: exit %d: %s", args, code, stderr)
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("get %v: %v", args, err)
	}
	return v
}

// getIDs looks up, once, the ids the resources that take one are asked
// for: seeded records, the same in every embedded sandbox.
type getIDs struct {
	// flags come before each lookup's arguments (--config FILE): the
	// built-in profile's embedded sandbox when empty.
	flags []string

	mu sync.Mutex
	m  map[string]*sync.Once
	v  map[string]string
}

// newGetIDs looks ids up with flags before each get.
func newGetIDs(flags ...string) *getIDs {
	return &getIDs{flags: flags, m: map[string]*sync.Once{}, v: map[string]string{}}
}

// seededIDs are the ids the package's tests ask for, each looked up once
// by the first test that needs it.
var seededIDs = newGetIDs()

func (g *getIDs) get(t *testing.T, key string) string {
	g.mu.Lock()
	once, ok := g.m[key]
	if !ok {
		once = new(sync.Once)
		g.m[key] = once
	}
	g.mu.Unlock()
	once.Do(func() {
		id := g.lookup(t, key)
		g.mu.Lock()
		g.v[key] = id
		g.mu.Unlock()
	})
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.v[key] == "" {
		t.Fatalf("no %s id", key)
	}
	return g.v[key]
}

func (g *getIDs) lookup(t *testing.T, key string) string {
	switch key {
	case "payment":
		ps := getJSON[[]payments.Payment](t, g.args("payments", "--state", "COMPLETED")...)
		if len(ps) == 0 {
			return ""
		}
		return ps[len(ps)-1].PaymentID // the oldest: synthesized history
	case "internal": // the same payment's, read alone (not every completed one again)
		return getJSON[payments.Payment](t, g.args("payment", g.get(t, "payment"))...).Originator.InternalID
	case "beneficiary":
		for _, id := range getJSON[[]payments.Identity](t, g.args("identities")...) {
			if id.PaymentRole == payments.RoleBeneficiary {
				return id.IdentityID
			}
		}
	case "ops-csv", "recon-json":
		for _, r := range getJSON[[]reporting.Report](t, g.args("reports")...) {
			if r.Status == "READY" && (key == "ops-csv" && r.Type == reporting.TypePaymentOps && r.Format == "CSV" ||
				key == "recon-json" && r.Type == reporting.TypeRecon && r.Format == "JSON") {
				return r.ID
			}
		}
	case "vault":
		if vs := getJSON[[]wallet.Vault](t, g.args("vaults")...); len(vs) > 0 {
			return vs[0].ID
		}
	case "wallet":
		if ws := getJSON[[]wallet.Wallet](t, g.args("wallets")...); len(ws) > 0 {
			return ws[0].ID
		}
	case "frozen-tx":
		txs := getJSON[[]wallet.Transaction](t, g.args("transactions")...)
		for i := len(txs) - 1; i >= 0; i-- { // oldest first: seeded, not live
			if len(txs[i].FreezeInfo.History) > 0 {
				return txs[i].ID
			}
		}
	case "counterparty":
		if cs := getJSON[[]wallet.Counterparty](t, g.args("counterparties")...); len(cs) > 0 {
			return cs[0].ID
		}
	case "webhook":
		if ws := getJSON[[]wallet.Webhook](t, g.args("webhooks")...); len(ws) > 0 {
			return ws[0].ID
		}
	case "endpoint":
		// -o json is each item as the custody service signs it: the
		// endpoint under "data".
		type item struct{ Data struct{ ID string } }
		if es := getJSON[[]item](t, g.args("endpoints")...); len(es) > 0 {
			return es[0].Data.ID
		}
	}
	return ""
}

// args are the lookup's flags, then args.
func (g *getIDs) args(args ...string) []string { return append(slices.Clone(g.flags), args...) }

// getCase is a resource to print in every format.
type getCase struct {
	args  []string
	id    string       // key of getIDs appended to args, if any
	typ   reflect.Type // the record type
	list  bool
	empty bool // the sandbox may have none
	// decode unmarshals JSON output into records of the type, each
	// keeping its JSON (the records as the server sent them, fields we do
	// not model included), and reports how many it held.
	decode func(data []byte) (v any, n int, err error)
}

func listOf[T any](args ...string) getCase {
	return getCase{args: args, typ: reflect.TypeFor[T](), list: true, decode: decodeList[T]}
}

func oneOf[T any](args ...string) getCase {
	return getCase{args: args, typ: reflect.TypeFor[T](), decode: decodeOne[T]}
}

// decodeList reads a JSON array of records as received.
func decodeList[T any](data []byte) (any, int, error) {
	var raws []json.RawMessage
	if err := json.Unmarshal(data, &raws); err != nil {
		return nil, 0, err
	}
	out := make([]T, len(raws))
	for i, r := range raws {
		v, err := wire.Decode[T](r)
		if err != nil {
			return nil, 0, fmt.Errorf("record %d: %w", i, err)
		}
		out[i] = v
	}
	return out, len(out), nil
}

// decodeOne reads one record as received.
func decodeOne[T any](data []byte) (any, int, error) {
	v, err := wire.Decode[T](bytes.TrimSpace(data))
	return v, 1, err
}

func (c getCase) with(id string) getCase { c.id = id; return c }

func (c getCase) mayBeEmpty() getCase { c.empty = true; return c }

func getCases() []getCase {
	return []getCase{
		listOf[liquidity.Quote]("quotes", "--since", "1m"), // the default 15m: TestGetSinceIsThePlatformsSpan
		listOf[liquidity.Trade]("trades", "--since", "1h"),
		listOf[liquidity.Balance]("balances"),
		listOf[liquidity.Balance]("liquidity"),
		listOf[payments.Balance]("payment-balances"),
		listOf[payments.Payment]("payments", "--state", "FAILED", "--state", "declined,RETURNED"),
		listOf[payments.Payment]("payments", "--since", "24h"),
		oneOf[payments.Payment]("payment").with("payment"),
		oneOf[payments.Payment]("payment").with("internal"),
		listOf[payments.StateTransition]("history").with("payment"),
		listOf[payments.StateTransition]("history").with("internal"),
		listOf[payments.Identity]("identities"),
		listOf[payments.FinancialInstrument]("instruments").with("beneficiary"),
		listOf[payments.LedgerTransaction]("ledger"),
		listOf[exposureRow]("exposure"),
		listOf[fundingRow]("funding"),
		oneOf[payments.TokenTest]("token"),
		listOf[reporting.Report]("reports"),
		listOf[reporting.PaymentOpsRow]("report").with("ops-csv"),
		listOf[reporting.ReconRow]("report").with("recon-json"),
		listOf[wallet.Vault]("vaults"),
		listOf[wallet.Wallet]("wallets"),
		listOf[wallet.Wallet]("wallets").with("vault"),
		oneOf[wallet.Wallet]("wallet").with("wallet"),
		listOf[wallet.Balance]("wallet-balances").with("wallet"),
		listOf[wallet.Transaction]("transactions"),
		listOf[wallet.Transaction]("transactions", "--state", "CONFIRMED").mayBeEmpty(),
		oneOf[wallet.Transaction]("transaction").with("frozen-tx"),
		listOf[wallet.FreezeEvent]("freeze-history").with("frozen-tx"),
		listOf[wallet.Limit]("limits").with("wallet").mayBeEmpty(),
		listOf[wallet.PolicyRule]("policies"),
		listOf[wallet.Counterparty]("counterparties"),
		listOf[wallet.Address]("addresses").with("counterparty"),
		listOf[wallet.Webhook]("webhooks"),
		listOf[wallet.Subscription]("subscriptions"),
		listOf[wallet.Subscription]("subscriptions").with("webhook"),
		listOf[wallet.SweepConfig]("sweeps"),
		listOf[custody.Endpoint]("endpoints"),
		oneOf[custody.Endpoint]("endpoint").with("endpoint"),
	}
}

// TestGetEveryResource prints every resource in every format and checks
// that JSON round-trips into the record type, CSV has a column per field,
// and tables are aligned and free of control characters. Its 114 gets
// read the package's sandbox (sharedFace).
func TestGetEveryResource(t *testing.T) {
	ids := seededIDs
	covered := map[string]bool{}
	for _, c := range getCases() {
		r, _ := findResource(c.args[0])
		covered[r.name] = true
		for _, format := range []string{"table", "json", "csv"} {
			name := strings.Join(append(slices.Clone(c.args), c.id, format), "_")
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				args := slices.Clone(c.args)
				if c.id != "" {
					args = append(args, ids.get(t, c.id))
				}
				code, out, stderr := getRun(t, append(args, "-o", format)...)
				if code != 0 {
					t.Fatalf("get %v: exit %d: %s", args, code, stderr)
				}
				checkGetOutput(t, c, format, out)
			})
		}
	}
	for _, r := range getResources() {
		if !covered[r.name] {
			t.Errorf("resource %s is not tested", r.name)
		}
	}
}

func checkGetOutput(t *testing.T, c getCase, format, out string) {
	fields := withoutFlattened(c.typ, recordFields(c.typ))
	switch format {
	case "json":
		v, n, err := c.decode([]byte(out))
		if err != nil {
			t.Fatalf("JSON does not decode into %v: %v\n%.500s", c.typ, err, out)
		}
		if n == 0 && !c.empty {
			t.Fatalf("no records")
		}
		var again bytes.Buffer
		if err := writeJSON(&again, v); err != nil || again.String() != out {
			t.Errorf("JSON does not round-trip (%v):\n%.300s\nagain:\n%.300s", err, out, again.String())
		}
	case "csv":
		recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		want := make([]string, len(fields))
		for i, f := range fields {
			want[i] = snakeCase(f.name)
		}
		for _, d := range derivedColumns(c.typ, c.list) {
			want = append(want, d.name)
		}
		if len(recs) == 0 || !slices.Equal(recs[0], want) {
			t.Fatalf("CSV header %v, want %v", recs, want)
		}
		if len(recs) < 2 && !c.empty {
			t.Fatalf("no records")
		}
	case "table":
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if len(lines) < 2 && !c.empty {
			t.Fatalf("no records:\n%s", out)
		}
		if strings.ContainsAny(out, "\x1b\r\t") {
			t.Errorf("control characters in the table:\n%q", out)
		}
		if !c.list {
			// Derived values (error code, guidance) follow the fields
			// when the record has them.
			if n := len(lines) - 1; !strings.HasPrefix(lines[0], "FIELD") || n < len(fields) || n > len(fields)+len(derivedColumns(c.typ, false)) {
				t.Errorf("record table has %d lines for %d fields:\n%s", len(lines), len(fields), out)
			}
			return
		}
		// The second column starts at the same place on every line.
		// Titles may hold a space (the short columns' "Payment id"):
		// columns are at least two spaces apart.
		head := strings.SplitN(lines[0], "  ", 2)
		if len(head) < 2 || strings.TrimSpace(head[1]) == "" {
			t.Fatalf("header %q", lines[0])
		}
		at := len(lines[0]) - len(strings.TrimLeft(head[1], " ")) // the first column is ASCII: ids, names of fields, times
		for _, l := range lines[1:] {
			if r := []rune(l); len(r) > at && (r[at-2] != ' ' || r[at-1] != ' ') {
				t.Errorf("line not aligned at %d:\n%s\n%s", at, lines[0], l)
				break
			}
		}
	}
}

// getRunWith runs `treasury get args...` with the config file text.
func getRunWith(t testing.TB, config string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out bytes.Buffer
	e, errBuf := clitest.Env(t, &out)
	file := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(file, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	code = clitest.Run(context.Background(), Command, e, append([]string{"--config", file}, args...)...)
	return code, out.String(), errBuf.String()
}

// variantConfig runs the embedded sandbox's second face, which answers as
// another legal implementation would (sandbox --variant).
const variantConfig = "profile: v\nprofiles:\n  v:\n    environment: sandbox\n    embedded_sandbox: {seed: 1, variant: true}\n"

// TestGetEveryResourceFromTheVariant reads every resource from a server
// that made the other legal choices (lower page caps, other shapes, extra
// fields and report columns, the vault form of wallet paths, strict
// filters): each is read completely, exit 0, the same records as from the
// default face. Both faces serve one world on one clock, frozen at the
// same instant, so every count must be equal, live feeds included: two
// sandboxes started at different instants hold different worlds (under
// load a report once held 894 records on one and 893 on the other). The
// windows of the live feeds (--since, the ledger's day) are read back from
// the platform's clock as its Date headers tell it, and start on its whole
// second (TestSinceStartsOnTheSecond); for a frozen server that clock runs
// on from the second it says (within a second of this host's
// clock, the host's is taken: the instant is ten seconds back, so that it
// never is): for a resource read over a window, the default face is read
// before and after the variant, and the variant's count must lie between
// (equal, where nothing moved). The others are read once on each face:
// nothing moves on a frozen clock, so the counts are equal.
func TestGetEveryResourceFromTheVariant(t *testing.T) {
	// One instant for both, half an hour ago: each is then moved on by
	// the same half hour of live traffic (quotes, trades, new payments),
	// to ten seconds ago.
	start := time.Now().Add(-30*time.Minute - 10*time.Second).Truncate(time.Second)
	var faces []string
	for _, o := range []sandbox.Options{sandboxtest.Options(), sandboxtest.VariantOptions()} {
		o.Start = start
		srv := sandboxtest.Listen(t, o)
		srv.AdvanceClock(30 * time.Minute)
		faces = append(faces, profiletest.Write(t, srv, clitest.FreeAddr(t), nil))
	}
	defaultFace, variantFace := faces[0], faces[1]
	ids := newGetIDs("--config", defaultFace)
	for _, c := range getCases() {
		name := strings.Join(append(slices.Clone(c.args), c.id), "_")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			args := slices.Clone(c.args)
			if c.id != "" {
				args = append(args, ids.get(t, c.id))
			}
			args = append(args, "-o", "json")
			count := func(face string) int {
				code, out, stderr := getRun(t, append([]string{"--config", face}, args...)...)
				if code != 0 {
					t.Fatalf("get %v from %s: exit %d: %s", args, face, code, stderr)
				}
				_, n, err := c.decode([]byte(out))
				if err != nil || (n == 0 && !c.empty) {
					t.Fatalf("get %v from %s: %d records, %v", args, face, n, err)
				}
				return n
			}
			r, _ := findResource(c.args[0])
			if r.since == 0 && !slices.Contains(c.args, "--since") {
				if n, d := count(variantFace), count(defaultFace); n != d {
					t.Fatalf("get %v: %d records from the variant, %d from the default face", args, n, d)
				}
				return
			}
			before := count(defaultFace)
			n := count(variantFace)
			after := count(defaultFace)
			if n > before || n < after {
				t.Fatalf("get %v: %d records from the variant, %d then %d from the default face", args, n, before, after)
			}
		})
	}
}

// TestGetReportAbsentAmounts: a FAILED payment received nothing: the
// variant sends its received_amount empty, and every format says absent
// (empty cell, null), never 0.
func TestGetReportAbsentAmounts(t *testing.T) {
	id := seededIDs.get(t, "ops-csv")
	code, out, stderr := getRunWith(t, variantConfig, "report", id, "-o", "csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(rows) < 2 {
		t.Fatalf("%d rows, %v", len(rows), err)
	}
	col := map[string]int{}
	for i, name := range rows[0] {
		col[name] = i
	}
	failed := 0
	for _, r := range rows[1:] {
		if r[col["payment_state"]] == "FAILED" {
			failed++
			if r[col["received_amount"]] != "" {
				t.Fatalf("a FAILED row received %q", r[col["received_amount"]])
			}
		}
	}
	if failed == 0 {
		t.Fatal("no FAILED row: the test proves nothing")
	}
}
