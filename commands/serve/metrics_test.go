package serve

import (
	"bytes"
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"treasury/commands/cli"
	"treasury/commands/cli/clitest"
	"treasury/commands/sandbox/profiletest"
	"treasury/desk/actions"
	"treasury/desk/audit"
	"treasury/desk/live"
	"treasury/desk/metrics"
	"treasury/desk/metrics/metricstest"
	"treasury/desk/site/sitetest"
	"treasury/process"
	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
	"treasury/sshserve"
	"treasury/wire/wallet"
	"treasury/wire/webhook"
)

// startMonitorOf serves the monitor of a fixture's runtime on loopback
// and returns its base URL.
func startMonitorOf(t *testing.T, m *monitor) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	addr, err := startMonitor(ctx, "127.0.0.1:0", m, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	return "http://" + addr.String()
}

// scrapeUntil scrapes until ok holds of the families (a hang guard of
// 30 s) and returns them.
func scrapeUntil(t *testing.T, url string, what string, ok func(metricstest.Families) bool) metricstest.Families {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		fams := metricstest.Scrape(t, url)
		if ok(fams) {
			return fams
		}
		if time.Now().After(deadline) {
			t.Fatalf("never scraped %s", what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestMetricsAfterTrafficAndAnAction: Prometheus's own text parser reads
// /metrics of a server on the embedded sandbox after what the test
// caused (an operator's SSH session, a fault that makes the liquidity
// reads retry, a payment read by id, a freeze, an unsigned notification,
// an alert) and finds each family with those values; no label carries an
// id.
func TestMetricsAfterTrafficAndAnAction(t *testing.T) {
	f := startSSH(t)
	rt := f.rt
	mon := newMonitor(t.Context(), rt)
	mon.listening.Store(true)
	url := startMonitorOf(t, mon) + "/metrics"
	ctx := context.Background()
	val := func(fams metricstest.Families, name string, labels map[string]string) float64 {
		v, _ := metricstest.Value(fams, name, labels)
		return v
	}

	// An operator's session, on the dashboard.
	_, out, _, err := f.connect(t, f.operator)
	if err != nil {
		t.Fatal(err)
	}
	waitScreen(t, out, "BTC/USD")

	// Retries: every quotes read answers 500 until a retry is counted.
	if err := rt.Sandbox.SetFaults(sandbox.FaultSettings{ErrorRate: 1, Path: "/api/v0/quotes"}); err != nil {
		t.Fatal(err)
	}
	scrapeUntil(t, url, "a liquidity retry", func(fams metricstest.Families) bool {
		return val(fams, "treasury_upstream_retries_total", map[string]string{"interface": "liquidity", "operation": "GET /api/v0/quotes"}) > 0
	})
	if err := rt.Sandbox.SetFaults(sandbox.FaultSettings{}); err != nil {
		t.Fatal(err)
	}

	// A payment read by id: an id in the path, none in the label.
	ps := live.Get(rt.Platform.Store, live.PaymentsKey).Data
	if ps == nil || ps.Len() == 0 {
		t.Fatal("no payments held")
	}
	pay := ps.At(0)
	if _, err := rt.Platform.Payments.Get(ctx, pay.PaymentID); err != nil {
		t.Fatal(err)
	}

	// A notification without a signature: refused.
	hook := "https://" + rt.WebhookStatus().Addr + webhook.DefaultPath
	insecure := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}} // the sandbox's self-signed receiver, on loopback
	if resp, err := insecure.Post(hook, "application/json", strings.NewReader(`{"id":"x"}`)); err != nil {
		t.Fatal(err)
	} else {
		resp.Body.Close()
	}

	// An alert the test raises.
	rt.Platform.Store.Notice(live.Alert{Key: "test:metrics", Severity: live.High, Code: "TEST", Title: "raised by the test"})

	before := metricstest.Scrape(t, url)
	// The action: a freeze, as an SSH operator with a certificate.
	who := sshWho(sshserve.Session{User: "ben", Fingerprint: "SHA256:test", Role: sshserve.RoleOperator, RemoteAddr: "127.0.0.1:1",
		Cert: &sshserve.CertInfo{KeyID: "ben@corp", Serial: 17}})
	act := actions.New(rt.ActionClients(), actions.Identity{Profile: rt.Config.Profile, Environment: rt.Config.Environment, Who: who}, rt.Audit)
	txs, err := rt.Platform.WalletTransactions.Transactions(ctx, wallet.ListFilter{})
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(txs, func(tx wallet.Transaction) bool {
		return wallet.FreezeRuledOut(tx, true) == ""
	})
	if i < 0 {
		t.Fatal("no freezable transaction")
	}
	tx := txs[i]
	route, _, err := act.FreezeRoute(ctx, tx, true)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := act.FreezeTx(ctx, route, tx, true, "metrics test", act.Key(actions.Freeze, tx.ID)); err != nil {
		t.Fatal(err)
	}
	freezeOp := metrics.Operation(route.Method, route.Path)

	fams := scrapeUntil(t, url, "the notifications accepted", func(fams metricstest.Families) bool {
		return val(fams, "treasury_notifications_accepted_total", nil) > 0 // the sandbox posts its payments' changes
	})
	held := 0
	if ps := live.Get(rt.Platform.Store, live.PaymentsKey).Data; ps != nil {
		held = ps.Len()
	}
	alerts := map[string]int{}
	for _, a := range rt.Platform.Store.Alerts() {
		alerts[strings.ToLower(a.Severity.String())]++
	}
	delta := func(name string, labels map[string]string) float64 {
		return val(fams, name, labels) - val(before, name, labels)
	}
	for _, c := range []struct {
		what string
		got  float64
		ok   func(float64) bool
	}{
		{"operator sessions", val(fams, "treasury_ssh_sessions", map[string]string{"role": "operator"}), eq(1)},
		{"viewer sessions", val(fams, "treasury_ssh_sessions", map[string]string{"role": "viewer"}), eq(0)},
		{"operator sessions started", val(fams, "treasury_ssh_sessions_started_total", map[string]string{"role": "operator"}), eq(1)},
		{"the freeze's request", val(fams, "treasury_upstream_requests_total", map[string]string{"interface": "wallet", "operation": freezeOp, "status": "200"}), eq(1)},
		{"the freeze's latency", val(fams, "treasury_upstream_request_duration_seconds", map[string]string{"interface": "wallet", "operation": freezeOp}), eq(1)},
		{"the payment read by id", val(fams, "treasury_upstream_requests_total", map[string]string{"interface": "payments", "operation": "GET /v3/payments/{id}", "status": "200"}), atLeast(1)},
		{"the quotes' 500s", val(fams, "treasury_upstream_requests_total", map[string]string{"interface": "liquidity", "operation": "GET /api/v0/quotes", "status": "500"}),
			atLeast(max(1, val(fams, "treasury_upstream_retries_total", map[string]string{"interface": "liquidity", "operation": "GET /api/v0/quotes"})))},
		{"the quotes' retries", val(fams, "treasury_upstream_retries_total", map[string]string{"interface": "liquidity"}), atLeast(1)},
		{"payments tokens", val(fams, "treasury_token_refreshes_total", map[string]string{"interface": "auth", "result": "ok"}), atLeast(1)},
		{"wallet tokens", val(fams, "treasury_token_refreshes_total", map[string]string{"interface": "wallet", "result": "ok"}), atLeast(1)},
		{"audit appends of the freeze", delta("treasury_audit_appends_total", map[string]string{"result": "ok"}), eq(2)},
		{"their latency", delta("treasury_audit_append_duration_seconds", nil), eq(2)},
		{"the freeze done", val(fams, "treasury_actions_total", map[string]string{"action": "freeze", "outcome": "done"}), eq(1)},
		{"high alerts", val(fams, "treasury_alerts_open", map[string]string{"severity": "high"}), eq(float64(alerts["high"]))},
		{"the test's high alert", val(fams, "treasury_alerts_open", map[string]string{"severity": "high"}), atLeast(1)},
		{"the unsigned notification", val(fams, "treasury_notifications_rejected_total", map[string]string{"reason": webhook.RejectMissingSignature}), eq(1)},
		{"payments held", val(fams, "treasury_payments_held", nil), near(float64(held), float64(held)/10+5)},
		{"derivations running for the session", val(fams, "treasury_derivations_running", nil), atLeast(1)},
		{"the payments' data age", val(fams, "treasury_data_age_seconds", map[string]string{"interface": "payments"}), func(v float64) bool { return v >= 0 && v < 120 }},
		{"goroutines", val(fams, "go_goroutines", nil), atLeast(10)},
		{"build info", val(fams, "treasury_build_info", nil), eq(1)},
	} {
		if !c.ok(c.got) {
			t.Errorf("%s: %v", c.what, c.got)
		}
	}
	if _, ok := fams["process_resident_memory_bytes"]; !ok {
		t.Error("no process metrics")
	}
	// The freeze's audit line names the certificate.
	recs, err := rt.Audit.Recent()
	if err != nil || len(recs) == 0 || recs[0].Who.Cert != (audit.Cert{KeyID: "ben@corp", Serial: 17}) || recs[0].Action != actions.Freeze {
		t.Errorf("the action's line: %+v %v", recs[:min(1, len(recs))], err)
	}

	// No label carries an id: none holds an id the store holds, a
	// fingerprint, a user or an address, and each label's values are of
	// its bounded set.
	ids := []string{pay.PaymentID, tx.ID, tx.WalletID, tx.VaultID, "alice", f.operator.PublicKey().Type()}
	for _, v := range live.Get(rt.Platform.Store, live.WalletsKey).Data {
		ids = append(ids, v.ID)
	}
	for _, v := range live.Get(rt.Platform.Store, live.VaultsKey).Data {
		ids = append(ids, v.ID)
	}
	for i := range min(ps.Len(), 200) {
		ids = append(ids, ps.At(i).PaymentID)
	}
	if seen := checkLabels(t, fams, ids); seen["operation"] < 5 || seen["interface"] < 5 {
		t.Errorf("few operation or interface labels checked: %v", seen)
	}
}

// labelValues are the patterns of the values of each label of the
// process's own families: each a closed set or a shape without room for
// an id.
var labelValues = map[string]*regexp.Regexp{
	"interface": regexp.MustCompile(`^(liquidity|payments|auth|reporting|wallet|custody)$`),
	"operation": regexp.MustCompile(`^(GET|POST|PUT|DELETE|PATCH) (/|(/([a-z0-9]+(-[a-z0-9]+)*|\{id\}))+(/…)?|\(link\))$`),
	"status":    regexp.MustCompile(`^([1-5][0-9][0-9]|error)$`),
	"result":    regexp.MustCompile(`^(ok|error)$`),
	"action":    regexp.MustCompile(`^(freeze|unfreeze|lock|unlock|sweep)$`),
	"outcome":   regexp.MustCompile(`^(done|failed|refused|cancelled|unknown)$`),
	"role":      regexp.MustCompile(`^(viewer|operator|polls|follows|alone)$`),
	"severity":  regexp.MustCompile(`^(low|medium|high)$`),
	"reason":    regexp.MustCompile(`^[a-z_]+$`),
	"version":   regexp.MustCompile(`^\S+$`),
	"commit":    regexp.MustCompile(`^[0-9a-f]*$`),
	"modified":  regexp.MustCompile(`^(true|false)$`),
}

// errorer is what checkLabels reports to (a *testing.T).
type errorer interface {
	Helper()
	Errorf(format string, args ...any)
}

// checkLabels fails t for a label of the process's families outside its
// set, and for any label (the runtime's too) holding one of ids; it
// returns how many values of each label it checked.
func checkLabels(t errorer, fams metricstest.Families, ids []string) map[string]int {
	t.Helper()
	seen := map[string]int{}
	for _, l := range metricstest.Labels(fams) {
		for _, id := range ids {
			if len(id) >= 4 && strings.Contains(l.Value, id) {
				t.Errorf("%s{%s=%q} carries the id %q", l.Family, l.Name, l.Value, id)
			}
		}
		if !strings.HasPrefix(l.Family, metrics.Namespace+"_") || l.Name == "le" {
			continue
		}
		seen[l.Name]++
		re, ok := labelValues[l.Name]
		switch {
		case !ok:
			t.Errorf("%s has a label %q of no known set", l.Family, l.Name)
		case !re.MatchString(l.Value):
			t.Errorf("%s{%s=%q}: not of the label's set %s", l.Family, l.Name, l.Value, re)
		}
	}
	return seen
}

func eq(want float64) func(float64) bool      { return func(v float64) bool { return v == want } }
func atLeast(want float64) func(float64) bool { return func(v float64) bool { return v >= want } }
func near(want, by float64) func(float64) bool {
	return func(v float64) bool { return v >= want-by && v <= want+by && v > 0 }
}

// The label check catches an id in a label and a value outside its set.
func TestCheckLabelsCatchesIDs(t *testing.T) {
	text := `# TYPE treasury_upstream_requests_total counter
treasury_upstream_requests_total{interface="payments",operation="GET /v3/payments/pay_123456",status="200"} 1
treasury_upstream_requests_total{interface="payments",operation="GET /v3/payments/{id}",status="200"} 1
`
	fams, err := metricstest.Parse(bytes.NewBufferString(text))
	if err != nil {
		t.Fatal(err)
	}
	fake := &labelRecorder{}
	checkLabels(fake, fams, []string{"pay_123456"})
	got := fake.errs
	if len(got) != 2 || !strings.Contains(got[0]+got[1], `carries the id "pay_123456"`) || !strings.Contains(got[0]+got[1], "not of the label's set") {
		t.Errorf("found %q", got)
	}
}

type labelRecorder struct{ errs []string }

func (r *labelRecorder) Helper()                   {}
func (r *labelRecorder) Errorf(f string, a ...any) { r.errs = append(r.errs, fmt.Sprintf(f, a...)) }

// A site of one bastion (a profile's cluster: with its own embedded
// node): its process polls for the site, so /metrics says its role is
// polls (and not follows or alone), how long it has held the lease, and
// that no replica of the record is behind.
func TestSiteMetrics(t *testing.T) {
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	addrs := sitetest.FreeAddrs(t, 2)
	dir := t.TempDir()
	password := filepath.Join(dir, "site.password")
	if err := os.WriteFile(password, []byte(sitetest.Password+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	path := profiletest.Write(t, srv, addrs[1], func(yaml, _ string) string {
		in := regexp.MustCompile(`(?m)^( +)environment:`).FindStringSubmatch(yaml)[1]
		return yaml + fmt.Sprintf("%scluster:\n%s  name: metrics-site\n%s  node: m1\n%s  listen: %s\n%s  password_file: %s\n",
			in, in, in, in, addrs[0], in, password)
	})
	g := cli.DefaultGlobals()
	g.ConfigFile = path
	e, _ := clitest.Env(t, io.Discard)
	e.Command = "serve" // it runs the site's node, and competes for the lease
	cfg, err := g.LoadConfig(e)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rt, err := process.OpenLog(ctx, e, cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	url := startMonitorOf(t, newMonitor(t.Context(), rt)) + "/metrics"
	fams := scrapeUntil(t, url, "the site's poller", func(fams metricstest.Families) bool {
		v, _ := metricstest.Value(fams, "treasury_site_role", map[string]string{"role": "polls"})
		age, _ := metricstest.Value(fams, "treasury_site_poller_age_seconds", nil)
		return v == 1 && age > 0
	})
	for _, c := range []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{"treasury_site_role", map[string]string{"role": "follows"}, 0},
		{"treasury_site_role", map[string]string{"role": "alone"}, 0},
		{"treasury_site_record_lag_lines", nil, 0},
	} {
		if got, ok := metricstest.Value(fams, c.name, c.labels); !ok || got != c.want {
			t.Errorf("%s%v = %v (found %v), want %v", c.name, c.labels, got, ok, c.want)
		}
	}
	checkLabels(t, fams, nil)
}
