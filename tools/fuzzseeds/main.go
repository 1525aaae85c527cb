// Command fuzzseeds writes the sandbox-shaped seeds of the decoders' fuzz
// targets: it serves the embedded sandbox in both faces (the default, and
// the variant that makes the other legal choices where the spec says "not
// shown"), reads through the real clients what the dashboard reads, plus
// one record of each kind and a refusal of each interface, and writes
// every answer it received, lists cut to their first records, as a corpus
// file of the target that decodes it:
// wire/<package>/testdata/fuzz/<Target>/sandbox-<face>-<what>. Plain go
// test runs those seeds; run this again when the sandbox's answers change:
//
//	go run ./tools/fuzzseeds
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"treasury/config"
	"treasury/desk/platform"
	"treasury/process/sandboxprofile"
	"treasury/sandbox"
	"treasury/wire/liquidity"
	"treasury/wire/payments"
	"treasury/wire/wallet"
)

// answer is one response the clients received.
type answer struct {
	method, url string
	status      int
	body        []byte
}

// recorder keeps every answer that passes through it.
type recorder struct {
	mu      sync.Mutex
	answers []answer
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	r.mu.Lock()
	r.answers = append(r.answers, answer{req.Method, req.URL.String(), resp.StatusCode, body})
	r.mu.Unlock()
	return resp, nil
}

func main() {
	root := "."
	if len(os.Args) > 1 {
		root = os.Args[1]
	}
	n := 0
	for _, variant := range []bool{false, true} {
		face := map[bool]string{false: "default", true: "variant"}[variant]
		answers, ep := capture(variant)
		written := map[string]bool{}
		for _, a := range answers {
			s, ok := seedOf(a, ep)
			if !ok {
				continue
			}
			file := filepath.Join(root, s.dir, "testdata", "fuzz", s.target, "sandbox-"+face+"-"+s.name)
			if written[file] {
				continue
			}
			written[file] = true
			if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
				log.Fatal(err)
			}
			if err := os.WriteFile(file, []byte("go test fuzz v1\n"+strings.Join(s.args, "\n")+"\n"), 0o644); err != nil {
				log.Fatal(err)
			}
			n++
		}
	}
	fmt.Printf("%d seeds written\n", n)
}

// capture serves a sandbox and reads everything the dashboard reads, and
// more, through a platform whose requests pass through a recorder.
func capture(variant bool) ([]answer, sandbox.Endpoints) {
	start := time.Date(2026, 11, 16, 9, 30, 0, 0, time.UTC)
	srv, err := sandbox.Listen("127.0.0.1:0", sandbox.Options{Seed: 1, Frozen: true, Start: start, HistoryPayments: 600, Variant: variant})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	rec := &recorder{}
	p, err := platform.Open(sandboxprofile.Of(srv, config.Builtin()), platform.Options{Now: srv.Clock().Now, HTTP: &http.Client{Transport: rec},
		Sleep: func(context.Context, time.Duration) error { return nil }})
	if err != nil {
		log.Fatal(err)
	}
	defer p.Close()
	ctx := context.Background()
	now := srv.Clock().Now()
	try := func(what string, err error) {
		if err != nil {
			log.Printf("%s: %v", what, err) // refusals are wanted too
		}
	}

	_, err = p.Liquidity.AllQuotes(ctx, liquidity.Last(time.Hour, now))
	try("quotes", err)
	_, err = p.Liquidity.AllTrades(ctx, liquidity.Last(24*time.Hour, now))
	try("trades", err)
	_, err = p.Liquidity.AllBalances(ctx)
	try("liquidity balances", err)
	_, err = p.Liquidity.QuotesPage(ctx, liquidity.Window{}, 0, 100_000)
	try("quotes page too large", err)

	pays, err := p.Payments.AllFiltered(ctx, payments.Filter{PaymentStates: []payments.State{payments.Failed, payments.Completed}})
	try("payments", err)
	for _, pay := range pays[:min(len(pays), 2)] {
		_, err = p.Payments.Get(ctx, pay.PaymentID)
		try("payment", err)
		_, err = p.Payments.StateHistory(ctx, pay.PaymentID)
		try("states", err)
		if pay.InternalID() != "" {
			_, err = p.Payments.ByInternalID(ctx, pay.InternalID())
			try("by internal id", err)
		}
	}
	_, err = p.Payments.Get(ctx, "no-such-payment")
	try("missing payment", err)
	ids, err := p.Payments.Identities(ctx)
	try("identities", err)
	for _, id := range ids[:min(len(ids), 1)] {
		_, err = p.Payments.Instruments(ctx, id.IdentityID)
		try("instruments", err)
	}
	_, err = p.Payments.Ledger(ctx, now.Add(-24*time.Hour), now)
	try("ledger", err)
	_, err = p.Payments.Balances(ctx)
	try("payments balances", err)
	_, err = p.Payments.TokenTest(ctx)
	try("token test", err)

	reps, err := p.Reporting.List(ctx)
	try("reports", err)
	kinds := map[string]bool{}
	for _, r := range reps {
		if k := r.Type + r.Format; !kinds[k] {
			kinds[k] = true
			_, err = p.Reporting.Download(ctx, r)
			try("download", err)
		}
	}
	_, err = p.Reporting.Get(ctx, "00000000-0000-4000-8000-000000000000")
	try("missing report", err)

	_, err = p.Wallet.Vaults(ctx)
	try("vaults", err)
	ws, err := p.Wallet.Wallets(ctx, "")
	try("wallets", err)
	for _, w := range ws[:min(len(ws), 1)] {
		_, err = p.Wallet.Wallet(ctx, w.ID)
		try("wallet", err)
		_, err = p.Wallet.Balances(ctx, w.VaultID, w.ID)
		try("wallet balances", err)
		_, err = p.WalletControls.Limits(ctx, w.ID)
		try("limits", err)
	}
	txs, err := p.Wallet.Transactions(ctx, wallet.ListFilter{})
	try("transactions", err)
	for _, tx := range txs[:min(len(txs), 1)] {
		_, err = p.Wallet.Transaction(ctx, tx.ID)
		try("transaction", err)
	}
	_, err = p.Wallet.Wallet(ctx, "no-such-wallet")
	try("missing wallet", err)
	_, err = p.WalletControls.Policies(ctx)
	try("policies", err)
	cps, err := p.Wallet.Counterparties(ctx)
	try("counterparties", err)
	for _, cp := range cps[:min(len(cps), 1)] {
		_, err = p.Wallet.Addresses(ctx, cp.ID)
		try("addresses", err)
	}
	_, err = p.Wallet.Webhooks(ctx)
	try("webhooks", err)
	_, err = p.Wallet.Subscriptions(ctx)
	try("subscriptions", err)
	sws, err := p.Wallet.Sweeps(ctx)
	try("sweeps", err)
	for _, sw := range sws[:min(len(sws), 1)] {
		_, err = p.Wallet.Sweep(ctx, sw.ID)
		try("sweep", err)
	}

	eps, err := p.Custody.Endpoints(ctx)
	try("endpoints", err)
	for _, e := range eps[:min(len(eps), 1)] {
		_, err = p.Custody.Endpoint(ctx, e.ID)
		try("endpoint", err)
		intent := uuid.NewString()
		_, err = p.Custody.Lock(ctx, e.ID, intent)
		try("lock", err)
		if err == nil {
			_, err = p.Custody.Intent(ctx, intent)
			try("intent", err)
		}
	}
	_, err = p.Custody.Endpoint(ctx, "no-such-endpoint")
	try("missing endpoint", err)

	rec.mu.Lock()
	defer rec.mu.Unlock()
	return rec.answers, srv.Endpoints()
}

// seed is one corpus file: the target that decodes an answer, its
// arguments in the corpus syntax, and a name.
type seed struct {
	dir, target, name string
	args              []string
}

func bytesArg(b []byte) string { return fmt.Sprintf("[]byte(%q)", b) }

// onePrefixed is a seed of a target whose first byte chooses the decoder.
func onePrefixed(dir, target string, sel byte, body []byte) seed {
	return seed{dir: dir, target: target, args: []string{bytesArg(append([]byte{sel}, body...))}}
}

// walletLists are the list keys of the wallet fuzz target, in its order
// (wire/wallet/client FuzzWalletLists).
var walletLists = []string{"vaults", "wallets", "balances", "transactions", "history", "limits", "policyRules",
	"counterparties", "addresses", "webhooks", "subscriptions", "sweepConfigurations"}

// ifaces are the interfaces of the apierr fuzz target, in its order.
var ifaces = []string{"liquidity", "payments", "auth", "reporting", "wallet", "custody"}

var (
	nameClean  = regexp.MustCompile(`[^a-zA-Z0-9]+`)
	walletOne  = regexp.MustCompile(`^/v2/(vaults/[^/]+/)?wallets/[^/]+$`)
	walletTx   = regexp.MustCompile(`/transactions/[^/]+$`)
	sweepOne   = regexp.MustCompile(`^/v2/workflows/sweep/[^/]+$`)
	endpointOf = regexp.MustCompile(`/endpoints/[^/]+$`)
	intentOf   = regexp.MustCompile(`/intents/[^/]+$`)
)

// seedOf finds the target of an answer, and cuts its lists short.
func seedOf(a answer, ep sandbox.Endpoints) (seed, bool) {
	iface, path := "", ""
	for name, base := range map[string]string{"liquidity": ep.Liquidity, "payments": ep.Payments, "auth": ep.Auth,
		"reporting": ep.Reporting, "wallet": ep.Wallet, "custody": ep.Custody} {
		if rest, ok := strings.CutPrefix(a.url, base); ok && (rest == "" || rest[0] == '/' || rest[0] == '?') {
			iface, path = name, rest
		}
	}
	if iface == "" {
		return seed{}, false
	}
	path, _, _ = strings.Cut(path, "?")
	segs := strings.Split(path, "/")
	for i, sg := range segs {
		if len(sg) > 3 && strings.ContainsAny(sg, "0123456789") { // an id, not v2
			segs[i] = "id"
		}
	}
	name := strings.Trim(nameClean.ReplaceAllString(strings.Join(segs, "/"), "-"), "-")
	name = fmt.Sprintf("%s-%s-%d", strings.ToLower(a.method), name, a.status)
	body := a.body
	var s seed
	switch {
	case a.status >= 400:
		sel := 0
		for i, n := range ifaces {
			if n == iface {
				sel = i
			}
		}
		s = seed{dir: "wire/apierr", target: "FuzzParse", args: []string{fmt.Sprintf("byte(%d)", sel), fmt.Sprintf("int(%d)", a.status), bytesArg(body)}}
		name = iface + "-" + name
	case iface == "liquidity":
		key := strings.TrimPrefix(path, "/api/v0/")
		sel := map[string]byte{"quotes": 0, "trades": 1, "balances": 2}[key]
		s = onePrefixed("wire/liquidity", "FuzzPages", sel, cut(body, key))
	case iface == "auth" && strings.HasSuffix(path, "/test"):
		s = seed{dir: "wire/payments/client", target: "FuzzTokenTest", args: []string{bytesArg(body)}}
	case iface == "auth" || strings.HasSuffix(path, "/oauth/token"):
		s = seed{dir: "wire/auth", target: "FuzzIssued", args: []string{bytesArg(body)}}
	case iface == "payments":
		sel, key := paymentsTarget(a.method, path)
		s = onePrefixed("wire/payments", "FuzzPayments", sel, cut(body, key))
	case iface == "reporting" && path == "/v2/reports":
		s = onePrefixed("wire/reporting", "FuzzReportList", 0, cut(body, "reports"))
	case iface == "reporting" && strings.HasPrefix(path, "/v2/reports/") && len(body) > 0 && body[0] == '{':
		s = onePrefixed("wire/reporting", "FuzzReportList", 1, body)
	case iface == "reporting":
		s = reportContent(body)
	case iface == "wallet":
		s = walletSeed(path, body)
	case iface == "custody":
		switch {
		case a.method == http.MethodPost:
			s = onePrefixed("wire/custody", "FuzzCustody", 3, body)
		case intentOf.MatchString(path):
			s = onePrefixed("wire/custody", "FuzzCustody", 2, body)
		case endpointOf.MatchString(path):
			s = onePrefixed("wire/custody", "FuzzCustody", 1, body)
		default:
			s = onePrefixed("wire/custody", "FuzzCustody", 0, cut(body, "items"))
		}
	}
	if s.target == "" {
		return seed{}, false
	}
	s.name = name
	return s, true
}

// paymentsTarget is the selector of FuzzPayments for an answer, and the
// key of its list.
func paymentsTarget(method, path string) (byte, string) {
	switch {
	case strings.HasSuffix(path, "/filter"):
		return 2, "data"
	case strings.HasSuffix(path, "/states"):
		return 7, "stateTransitions"
	case strings.HasSuffix(path, "/financial-instruments"):
		return 4, "data"
	case path == "/v3/identities":
		return 3, "data"
	case path == "/v2/ledger-transactions":
		return 5, "statementTransactions"
	case path == "/v2/balances":
		return 6, "balances"
	case path == "/v3/payments" && method == http.MethodGet:
		return 1, "data"
	case strings.HasPrefix(path, "/v2/quotes"):
		return 8, ""
	}
	return 0, ""
}

// reportContent is the seed of a downloaded report: its rows target by
// format (JSON or CSV) and type (a RECON report has transaction_id).
func reportContent(body []byte) seed {
	t := bytes.TrimSpace(body)
	recon := bytes.Contains(body[:min(len(body), 4096)], []byte("transaction_id"))
	typ := map[bool]string{false: "PaymentOps", true: "Recon"}[recon]
	if len(t) > 0 && t[0] == '[' {
		return seed{dir: "wire/reporting", target: "FuzzParse" + typ + "JSON", args: []string{bytesArg(cutArray(t))}}
	}
	lines := bytes.SplitAfter(body, []byte("\n"))
	return seed{dir: "wire/reporting", target: "FuzzParse" + typ + "CSV", args: []string{bytesArg(bytes.Join(lines[:min(len(lines), 6)], nil))}}
}

// walletSeed is the seed of a wallet answer: a page of a list, or one
// wallet, transaction or sweep.
func walletSeed(path string, body []byte) seed {
	var m map[string]json.RawMessage
	if json.Unmarshal(body, &m) == nil {
		for i, k := range walletLists {
			if _, ok := m[k]; ok {
				return onePrefixed("wire/wallet/client", "FuzzWalletLists", byte(i), cut(body, k))
			}
		}
	}
	n := byte(len(walletLists))
	switch {
	case walletOne.MatchString(path):
		return onePrefixed("wire/wallet/client", "FuzzWalletLists", n, body)
	case walletTx.MatchString(path):
		return onePrefixed("wire/wallet/client", "FuzzWalletLists", n+1, body)
	case sweepOne.MatchString(path):
		return onePrefixed("wire/wallet/client", "FuzzWalletLists", n+2, body)
	}
	return seed{}
}

// cut keeps the first three records of the array under key, and the rest
// of the object as it was (keys sorted: the order of an object's keys
// means nothing to a decoder).
func cut(body []byte, key string) []byte {
	var m map[string]json.RawMessage
	if key == "" || json.Unmarshal(body, &m) != nil || m[key] == nil {
		return body
	}
	m[key] = cutArray(m[key])
	out, err := json.Marshal(m)
	if err != nil {
		return body
	}
	return out
}

// cutArray keeps the first three elements of a JSON array, as sent.
func cutArray(arr []byte) []byte {
	var els []json.RawMessage
	if json.Unmarshal(arr, &els) != nil || len(els) <= 3 {
		return arr
	}
	return append(append([]byte("["), bytes.Join([][]byte{els[0], els[1], els[2]}, []byte(","))...), ']')
}
