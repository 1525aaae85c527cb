package serve

import (
	"bytes"
	"context"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"treasury/commands/cli"
	sandboxcmd "treasury/commands/sandbox"
	"treasury/config"
	"treasury/desk/audit"
	"treasury/desk/history"
	"treasury/desk/platform"
	"treasury/desk/site"
	"treasury/desk/site/sitetest"
	"treasury/kit/nonroot"
	"treasury/kit/pubkey"
	"treasury/kit/testca"
	"treasury/process"
	"treasury/process/sandboxprofile"
	"treasury/sandbox"
	"treasury/sandbox/sandboxtest"
	"treasury/ui/uitest"
)

// siteChildEnv marks the test binary started again as one treasury serve
// of TestASiteOfThreeServes; it holds serve's arguments, split by \x1f.
const siteChildEnv = "TREASURY_SERVE_SITE_CHILD"

func TestMain(m *testing.M) {
	if args := os.Getenv(siteChildEnv); args != "" {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		e := &process.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv, Command: "serve"}
		code := cli.Exit(Command(ctx, e, cli.DefaultGlobals(), strings.Split(args, "\x1f")), os.Stderr)
		stop()
		os.Exit(code)
	}
	os.Exit(nonroot.Main(m))
}

// bastion is one treasury serve of a site, a process of its own.
type bastion struct {
	name, dir, config, ssh string
	hookURL                string // where the platform posts its notifications to it
	cmd                    *exec.Cmd
}

// requests is how many requests the bastion sent the platform so far.
func (b *bastion) requests(tb testing.TB) int {
	raw, err := os.ReadFile(filepath.Join(b.dir, "state", "treasury", "requests.log"))
	if err != nil && !os.IsNotExist(err) {
		tb.Fatal(err)
	}
	return bytes.Count(raw, []byte("\n"))
}

// requestsSince is the requests the bastion sent after its first n (its
// request log's lines), as "METHOD path" each.
func (b *bastion) requestsSince(tb testing.TB, n int) []string {
	raw, err := os.ReadFile(filepath.Join(b.dir, "state", "treasury", "requests.log"))
	if err != nil && !os.IsNotExist(err) {
		tb.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	var out []string
	for i, line := range lines {
		if i < n || line == "" {
			continue
		}
		var r struct {
			Method, Path string
			Time         time.Time
			DurationMs   int64 `json:"duration_ms"`
		}
		_ = json.Unmarshal([]byte(line), &r)
		out = append(out, fmt.Sprintf("%s %s (%s, %d ms)", r.Method, r.Path, r.Time.UTC().Format("15:04:05.000"), r.DurationMs))
	}
	return out
}

// sessionsTail is the last n lines of the bastion's sessions log: the
// node's and the site's words (why the site cannot be reached, a topic
// read here rather than handed by the poller).
func (b *bastion) sessionsTail(n int) string {
	sess, _ := os.ReadFile(filepath.Join(b.dir, "state", "treasury", "sessions.log"))
	lines := strings.Split(strings.TrimSpace(string(sess)), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

func (b *bastion) auditLog() string { return filepath.Join(b.dir, "state", "treasury", audit.FileName) }

// siteProfile is the name of the profile each bastion of the test runs.
const siteProfile = "site"

// pastRead marks the platform's past as read in b's history file, before
// its serve first starts: its poller reads no quotes' past then. That
// read is a first start's (432 pages 200 ms apart: 90 s and more, over a
// minute and a half under -race), that each window of the site's cost
// would wait out; its sharing and its lease are proven by desk/history
// and desk/platform (TestFollowersChartWhatThePollerCharts,
// TestAPollerLaterReadsThePast, TestAFencedBackfillWaitsForTheLease).
func (b *bastion) pastRead(tb testing.TB) {
	tb.Helper()
	o, err := history.Open(filepath.Join(b.dir, "state", "treasury", history.FileName(siteProfile)), history.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	defer o.Store.Close()
	if err := o.Store.MarkDone(context.Background(), history.QuotesDone); err != nil {
		tb.Fatal(err)
	}
}

// historyFiles are the history files in b's state directory: the one
// pastRead marked, when the test's path is the serve's.
func (b *bastion) historyFiles() []string {
	m, _ := filepath.Glob(filepath.Join(b.dir, "state", "treasury", "history-*.db"))
	return m
}

// start runs the bastion's serve (again, after a kill: same state, same
// addresses).
func (b *bastion) start(tb testing.TB, keys string) {
	tb.Helper()
	args := []string{"--config", b.config, "--listen", b.ssh, "--authorized-keys", keys, "--stats-every", "0"}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), siteChildEnv+"="+strings.Join(args, "\x1f"), "XDG_STATE_HOME="+filepath.Join(b.dir, "state"),
		"XDG_CONFIG_HOME="+b.dir)
	out, err := os.OpenFile(filepath.Join(b.dir, "serve.out"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		tb.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	out.Close()
	b.cmd = cmd
	tb.Cleanup(func() { b.kill() })
}

// kill ends the bastion's serve as kill -9 does.
func (b *bastion) kill() {
	if b.cmd != nil && b.cmd.Process != nil {
		_ = b.cmd.Process.Kill()
		_ = b.cmd.Wait()
	}
	b.cmd = nil
}

// siteSetup says how the test's site is made.
type siteSetup struct {
	// TLS: a certificate per node, signed by the site's CA, and no
	// password; otherwise the password alone.
	TLS bool
}

// startSite writes a profile of srv for each of three bastions, one site
// of embedded NATS nodes routed to one another, and starts their serves.
func startSite(t *testing.T, srv *sandbox.Server, keys string, setup siteSetup) []*bastion {
	t.Helper()
	root := t.TempDir()
	addrs := sitetest.FreeAddrs(t, 12)
	client, route, sshAddr, hooks := addrs[0:3], addrs[3:6], addrs[6:9], addrs[9:12]
	password := filepath.Join(root, "site.password")
	if err := os.WriteFile(password, []byte(sitetest.Password+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var ca *testca.CA
	var caFile string
	if setup.TLS {
		ca = testca.New(t, "test-site CA")
		caFile = ca.File(t, root, "ca.pem")
	}
	pubPEM, err := pubkey.MarshalPEM(srv.WebhookPublicKey())
	if err != nil {
		t.Fatal(err)
	}
	var out []*bastion
	pool := x509.NewCertPool() // every bastion's receiver: the test moves the notifications among them
	for i := range 3 {
		b := &bastion{name: fmt.Sprint("b", i+1), dir: filepath.Join(root, fmt.Sprint("b", i+1)), ssh: sshAddr[i]}
		if err := os.MkdirAll(b.dir, 0o700); err != nil {
			t.Fatal(err)
		}
		b.config = filepath.Join(b.dir, "config.yaml")
		w, err := sandboxcmd.WriteProfile(srv, b.config, siteProfile, hooks[i], pubPEM)
		if err != nil {
			t.Fatal(err)
		}
		b.hookURL = w.WebhookURL
		if !pool.AppendCertsFromPEM(w.CertPEM) {
			t.Fatal("the receiver's certificate does not parse")
		}
		var routes []string
		for j, r := range route {
			if j != i {
				routes = append(routes, r)
			}
		}
		// The cluster section, under the written profile (indented as it).
		raw, err := os.ReadFile(w.Path)
		if err != nil {
			t.Fatal(err)
		}
		indent := regexp.MustCompile(`(?m)^( +)environment:`).FindSubmatch(raw)
		if indent == nil {
			t.Fatalf("the written profile has no environment line:\n%s", raw)
		}
		in := string(indent[1])
		raw = fmt.Appendf(raw, "%scluster:\n%s  name: test-site\n%s  node: %s\n%s  listen: %s\n%s  cluster_listen: %s\n%s  routes: [%s]\n",
			in, in, in, b.name, in, client[i], in, route[i], in, strings.Join(routes, ", "))
		if setup.TLS {
			cert, key := ca.Issue(t, b.dir, b.name, testca.ServerAndClient, "127.0.0.1")
			raw = fmt.Appendf(raw, "%s  ca_file: %s\n%s  cert_file: %s\n%s  key_file: %s\n", in, caFile, in, cert, in, key)
		} else {
			raw = fmt.Appendf(raw, "%s  password_file: %s\n", in, password)
		}
		if err := os.WriteFile(w.Path, raw, 0o600); err != nil {
			t.Fatal(err)
		}
		b.pastRead(t)
		out = append(out, b)
	}
	hooksTo := srv.Webhooks()
	hooksTo.RootCAs = pool
	if err := srv.SetWebhooks(hooksTo); err != nil {
		t.Fatal(err)
	}
	for _, b := range out {
		b.start(t, keys)
	}
	return out
}

// runClock has the platform's time run as the host's for the rest of the
// test (the test sandbox's clock is frozen): its payments move on, and it
// posts their notifications.
func runClock(t *testing.T, srv *sandbox.Server) (stop func()) {
	const step = 250 * time.Millisecond
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		tick := time.NewTicker(step)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				srv.Clock().Advance(step)
			}
		}
	}()
	var once sync.Once
	stop = func() { once.Do(func() { close(done); <-stopped }) }
	t.Cleanup(stop)
	return stop
}

// byPath counts requests (as requestsSince lists them) by method and
// path.
func byPath(sent []string) map[string]int {
	out := map[string]int{}
	for _, r := range sent {
		what, _, _ := strings.Cut(r, " (")
		out[what]++
	}
	return out
}

// postTo has the platform post its notifications to b.
func postTo(t *testing.T, srv *sandbox.Server, b *bastion) {
	t.Helper()
	o := srv.Webhooks()
	o.URL = b.hookURL
	if err := srv.SetWebhooks(o); err != nil {
		t.Fatal(err)
	}
}

// terminal is an SSH session's screen, as a 120x40 terminal shows it
// (bubbletea draws only the cells that change: text on the screen need
// not be in the output in one piece).
type terminal struct {
	scr *uitest.Scr
	in  io.Writer
}

func (t *terminal) Write(p []byte) (int, error) { t.scr.Write(p); return len(p), nil }

// keys types keys into the session.
func (t *terminal) keys(tb testing.TB, keys string) {
	if _, err := io.WriteString(t.in, keys); err != nil {
		tb.Fatal(err)
	}
}

// shows waits up to a minute for the screen to show want.
func (t *terminal) shows(tb testing.TB, want string) {
	tb.Helper()
	deadline := time.Now().Add(time.Minute)
	for !strings.Contains(t.scr.String(), want) {
		if time.Now().After(deadline) {
			tb.Fatalf("%q never shown; the screen:\n%s", want, t.scr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// dialBastion opens an operator's session on a bastion, at 120x40, when
// its serve answers.
func dialBastion(t *testing.T, b *bastion, signer ssh.Signer) *terminal {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	var client *ssh.Client
	for {
		var err error
		client, err = ssh.Dial("tcp", b.ssh, &ssh.ClientConfig{User: "op", Auth: []ssh.AuthMethod{ssh.PublicKeys(signer)},
			HostKeyCallback: ssh.InsecureIgnoreHostKey(), Timeout: 5 * time.Second})
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			out, _ := os.ReadFile(filepath.Join(b.dir, "serve.out"))
			t.Fatalf("%s never answered over SSH: %v\n%s", b.name, err, out)
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Cleanup(func() { client.Close() })
	return openTerminal(t, client)
}

// openTerminal opens a session with a 120x40 terminal on client.
func openTerminal(t *testing.T, client *ssh.Client) *terminal {
	t.Helper()
	sess, err := client.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	term := &terminal{scr: uitest.NewScreen(120, 40)}
	sess.Stdout = term
	if term.in, err = sess.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := sess.RequestPty("xterm-256color", 40, 120, ssh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	return term
}

// waitFor waits up to a minute for ok (the site's beats are seconds apart).
func waitSite(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("waited a minute for %s", what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Three treasury serves, real processes on loopback with embedded NATS
// nodes, are one site, an operator's session on each: one of them polls
// the platform, and the site costs it what that one costs (the others
// send nothing, the platform's notifications posted to one of them). Its
// serve killed (kill -9), another takes the lease and goes on from where
// it left (the hand-over costs about what a steady poll does), the other
// sessions' headers name it and their quotes stay fresh. Then, with the
// killed bastion back, a sweep is triggered through one bastion with its
// answer held, that bastion is killed, and the operator retries from
// another: the dialog says "retry of" the first key, the platform
// answers with the first run, and the audit logs of the two bastions
// left are intact and identical. With the killed bastion back again, the
// poller is stopped (SIGSTOP) 12 s: another takes the lease, and the
// resumed one sends nothing; a follower killed, the lease stays. With
// one bastion left, the site cannot be reached from it: its actions are
// refused, and it polls alone, saying so in its header.
func TestASiteOfThreeServes(t *testing.T) {
	if testing.Short() {
		t.Skip("three serves and their site: a minute")
	}
	srv := sandboxtest.Listen(t, sandboxtest.Options())
	signer, pub := newSigner(t)
	keys := filepath.Join(t.TempDir(), "authorized_keys")
	if err := os.WriteFile(keys, []byte(`role="operator" `+string(ssh.MarshalAuthorizedKey(pub))), 0o600); err != nil {
		t.Fatal(err)
	}
	bs := startSite(t, srv, keys, siteSetup{TLS: true})
	stopClock := runClock(t, srv)
	terms := make([]*terminal, 3)
	for i, b := range bs {
		terms[i] = dialBastion(t, b, signer)
	}
	poller := -1
	waitSite(t, "one bastion to poll and the others to name it", func() bool {
		poller = -1
		for i, term := range terms {
			if strings.Contains(term.scr.String(), "polled here") {
				poller = i
			}
		}
		if poller < 0 {
			return false
		}
		for i, term := range terms {
			if i != poller && !strings.Contains(term.scr.String(), "polled by "+bs[poller].name) {
				return false
			}
		}
		return true
	})
	for _, term := range terms {
		term.shows(t, "BTC/USD")
	}
	for _, b := range bs {
		if files := b.historyFiles(); len(files) != 1 || filepath.Base(files[0]) != history.FileName(siteProfile) {
			t.Fatalf("%s's history files: %q; want the one marked read (%s)", b.name, files, history.FileName(siteProfile))
		}
	}

	// The site's cost, the platform's notifications posted to a bastion
	// that follows: over a window, once the start is over, the followers
	// send nothing (what a notification leaves to read by id, the poller
	// reads for the site), and the site costs what its poller does. The
	// issue's figures were measured over 30 s windows (a steady poll 42
	// requests, a kill -9 hand-over 36-37, a stop of 30 s); the windows
	// here are half that, as are the assertions that compare two of them
	// (the comparisons do not depend on the window's length, and the
	// test's time is CI's).
	const window = 15 * time.Second
	follower := (poller + 1) % 3
	postTo(t, srv, bs[follower])
	// The start's first reads over (the token, each topic's first window
	// paged through: 90 quotes' pages in the first 15 s under -race): the
	// poller sends no more than a steady poll does (about 3 requests in
	// 2 s).
	waitSite(t, bs[poller].name+"'s first reads to end", func() bool {
		n := bs[poller].requests(t)
		time.Sleep(2 * time.Second)
		return bs[poller].requests(t)-n <= 5
	})
	before := make([]int, 3)
	for i, b := range bs {
		before[i] = b.requests(t)
	}
	delivered := srv.WebhooksDelivered()
	time.Sleep(window)
	if n := srv.WebhooksDelivered() - delivered; n == 0 {
		t.Fatalf("no notification was posted to %s in %s: the test proves nothing", bs[follower].name, window)
	} else {
		t.Logf("%d notifications posted to %s (it follows) in %s", n, bs[follower].name, window)
	}
	total, polled := 0, 0
	for i, b := range bs {
		sent := b.requestsSince(t, before[i])
		total += len(sent)
		if i == poller {
			polled = len(sent)
			t.Logf("%s (the poller) sent %d requests in %s: %v", b.name, len(sent), window, byPath(sent))
			continue
		}
		t.Logf("%s sent %d requests in %s", b.name, len(sent), window)
		if len(sent) > 0 {
			t.Errorf("%s follows, and sent the platform %d requests: %q", b.name, len(sent), sent)
		}
	}
	if polled == 0 || float64(total) > 1.1*float64(polled) {
		t.Fatalf("the site sent %d requests, its poller %d: want the site within 10 %% of one serve", total, polled)
	}

	// The poller killed: another takes the lease and goes on from where
	// the killed one left each topic (no window read again); the
	// sessions left name it and their quotes are fresh. The window from
	// the kill costs the site at most handoverMore requests more than the
	// window before (the issue allowed 10 over 30 s: half that over half
	// the window; the taking's own reads, a token and the topics not
	// resumed, are fewer than the seconds nobody polls save).
	const handoverMore = 5
	for i, b := range bs {
		before[i] = b.requests(t)
	}
	killed := time.Now()
	bs[poller].kill()
	next := -1
	waitSite(t, "another bastion to poll", func() bool {
		for i, term := range terms {
			if i != poller && strings.Contains(term.scr.String(), "polled here") {
				next = i
				return true
			}
		}
		return false
	})
	t.Logf("%s polls %v after %s was killed", bs[next].name, time.Since(killed).Round(100*time.Millisecond), bs[poller].name)
	for i, term := range terms {
		if i != poller && i != next {
			term.shows(t, "polled by "+bs[next].name)
			term.shows(t, "quotes <10s")
		}
	}
	time.Sleep(time.Until(killed.Add(window)))
	handover := 0
	for i, b := range bs {
		sent := b.requestsSince(t, before[i])
		handover += len(sent)
		t.Logf("%s sent %d requests in the %s from the kill: %v", b.name, len(sent), window, byPath(sent))
	}
	t.Logf("the site sent %d requests in the %s of the hand-over, %d in the %s before", handover, window, total, window)
	if handover > total+handoverMore {
		t.Errorf("the hand-over cost the site %d requests in %s, a steady poll %d: want at most %d more", handover, window, total, handoverMore)
	}
	// The platform's time stands again (as the rest was written for: the
	// sweep's run ends when the test moves it on).
	stopClock()

	// The killed bastion back: three nodes again.
	bs[poller].start(t, keys)
	terms[poller] = dialBastion(t, bs[poller], signer)
	terms[poller].shows(t, "polled by "+bs[next].name)

	// A sweep through a bastion, its answer held; that bastion killed;
	// the operator retries from another.
	if err := srv.SetFaults(sandbox.FaultSettings{AnswerLatency: sandbox.Duration(time.Hour), Path: "/trigger"}); err != nil {
		t.Fatal(err)
	}
	a, b, c := next, poller, 3-next-poller
	terms[a].keys(t, "5")
	terms[a].shows(t, "Fees and Sweeps")
	terms[a].keys(t, "E")
	terms[a].shows(t, "Last swept")
	terms[a].keys(t, "t")
	terms[a].shows(t, "Trigger sweep")
	terms[a].keys(t, "\t\r")
	terms[a].shows(t, "waiting for the wallet interface")
	sum, err := audit.VerifyFile(bs[a].auditLog())
	if err != nil || len(sum.Open) != 1 {
		t.Fatalf("%s's audit log: %+v, %v; want the sweep's attempt open", bs[a].name, sum, err)
	}
	key := sum.Open[0].MutationID
	// The attempt is written before the trigger leaves (after a token's
	// request, too): the bastion is killed once the platform took it,
	// not before it was sent (then no run would start, and the retry
	// would start the first).
	p, err := platform.Open(sandboxprofile.Of(srv, config.Builtin()), platform.Options{Now: srv.Clock().Now})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	waitSite(t, "the platform to take the held trigger", func() bool {
		sws, err := p.Wallet.Sweeps(context.Background())
		return err == nil && len(sws) > 0 && sws[0].SweepRunning
	})
	bs[a].kill()
	// Its attempt is in flight, and refused to another operator ("in
	// flight from … wait for its outcome"), while its process's key in
	// the site's bucket lasts: the retry is asked for once it is gone.
	aGone := time.Now().Add(site.ProcTTL + time.Second)
	if err := srv.SetFaults(sandbox.FaultSettings{}); err != nil {
		t.Fatal(err)
	}
	srv.Clock().Advance(3 * time.Minute) // the run it started ends
	sws, err := p.Wallet.Sweeps(context.Background())
	if err != nil || len(sws) == 0 || sws[0].SweepRunning || sws[0].LastInstanceID == "" {
		t.Fatalf("the sweep after the first run: %+v, %v", sws, err)
	}
	first := sws[0].LastInstanceID

	// b's copy of the record holds the attempt before its operator
	// retries (the dialog reads this host's copy: a copy that lags is
	// refused when sent, not shown a retry).
	waitSite(t, bs[b].name+"'s copy to hold the attempt", func() bool {
		sb, err := audit.VerifyFile(bs[b].auditLog())
		return err == nil && len(sb.Open) == 1 && sb.Open[0].MutationID == key
	})
	terms[b].keys(t, "5")
	terms[b].shows(t, "Fees and Sweeps")
	terms[b].keys(t, "E")
	terms[b].shows(t, "Last swept")
	terms[b].shows(t, "BTC to cold storage    no") // the run ended: the sweep is idle again
	time.Sleep(time.Until(aGone))
	terms[b].keys(t, "t")
	terms[b].shows(t, "retry of "+key)
	terms[b].keys(t, "\t\r")
	terms[b].shows(t, "started: instance "+first)

	sb, err := audit.VerifyFile(bs[b].auditLog())
	if err != nil || len(sb.Breaks) != 0 || sb.Lines != 3 || len(sb.Open) != 0 || len(sb.Settled) != 1 {
		t.Fatalf("%s's audit log: %+v, %v; want three lines, intact, the first attempt ended by its retry", bs[b].name, sb, err)
	}
	waitSite(t, "the third bastion's copy of the record", func() bool {
		x, _ := os.ReadFile(bs[b].auditLog())
		y, _ := os.ReadFile(bs[c].auditLog())
		return bytes.Equal(x, y)
	})
	if sc, err := audit.VerifyFile(bs[c].auditLog()); err != nil || sc.Head != sb.Head {
		t.Fatalf("%s's audit log: %+v, %v; want %s's", bs[c].name, sc, err, bs[b].name)
	}

	// The bastion killed back: three nodes again. The poller stopped
	// (SIGSTOP) a while: another takes the lease. Resumed (SIGCONT), it
	// finds the lease taken and sends nothing while the other holds it.
	bs[a].start(t, keys)
	terms[a] = dialBastion(t, bs[a], signer)
	stopped := -1
	waitSite(t, "one bastion to poll and the others to name it", func() bool {
		stopped = -1
		for i, term := range terms {
			if strings.Contains(term.scr.String(), "polled here") {
				stopped = i
			}
		}
		if stopped < 0 {
			return false
		}
		for i, term := range terms {
			if i != stopped && !strings.Contains(term.scr.String(), "polled by "+bs[stopped].name) {
				return false
			}
		}
		return true
	})
	// The poller stopped (SIGSTOP) 12 s, twice the lease's TTL (the issue
	// stopped it 30 s): another takes the lease. Resumed (SIGCONT), it
	// finds the lease taken and sends nothing while the other holds it.
	const stopFor = 12 * time.Second
	if err := bs[stopped].cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	stoppedAt := time.Now()
	took := -1
	for deadline := time.Now().Add(time.Minute); took < 0; time.Sleep(100 * time.Millisecond) {
		for i, term := range terms {
			if i != stopped && strings.Contains(term.scr.String(), "polled here") {
				took = i
			}
		}
		if took < 0 && time.Now().After(deadline) {
			_ = bs[stopped].cmd.Process.Signal(syscall.SIGCONT)
			for i, term := range terms {
				if i != stopped {
					out, _ := os.ReadFile(filepath.Join(bs[i].dir, "serve.out"))
					t.Logf("%s's screen:\n%s\n%s's log:\n%s\n%s's sessions log (its end):\n%s", bs[i].name, term.scr.String(), bs[i].name, out, bs[i].name, bs[i].sessionsTail(40))
				}
			}
			t.Fatalf("waited a minute for another bastion to poll while %s is stopped", bs[stopped].name)
		}
	}
	t.Logf("%s polls %v after %s was stopped", bs[took].name, time.Since(stoppedAt).Round(100*time.Millisecond), bs[stopped].name)
	tookSince := regexp.MustCompile(`polled here since \d\d:\d\d`).FindString(terms[took].scr.String())
	time.Sleep(time.Until(stoppedAt.Add(stopFor)))
	resumedAt := bs[stopped].requests(t)
	if err := bs[stopped].cmd.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s resumed at %s", bs[stopped].name, time.Now().UTC().Format("15:04:05.000"))
	terms[stopped].shows(t, "polled by "+bs[took].name)
	time.Sleep(5 * time.Second)
	if sent := bs[stopped].requestsSince(t, resumedAt); len(sent) > 0 {
		t.Errorf("%s, resumed, sent %d requests while %s held the lease: %q", bs[stopped].name, len(sent), bs[took].name, sent)
	}

	// A bastion that follows killed (the one just resumed): the lease
	// stays with its holder; the third bastion sends nothing.
	third := 3 - stopped - took
	if tookSince == "" {
		t.Fatalf("%s's header says nothing of polling here", bs[took].name)
	}
	quiet := bs[third].requests(t)
	bs[stopped].kill()
	// Longer than the lease's TTL and a beat: a lease lost at the kill
	// would have been taken by another by then.
	time.Sleep(8 * time.Second)
	terms[took].shows(t, tookSince)
	terms[third].shows(t, "polled by "+bs[took].name)
	if sent := bs[third].requestsSince(t, quiet); len(sent) > 0 {
		t.Errorf("%s follows, and sent %d requests after a follower was killed: %q; its sessions log (its end):\n%s",
			bs[third].name, len(sent), sent, bs[third].sessionsTail(30))
	}

	// One node of three left: the site cannot be reached from it. Its
	// actions are refused, and it polls alone, saying so.
	bs[took].kill()
	terms[third].shows(t, "ACTIONS REFUSED")
	// "polls alone since 09:20" in full; a header crowded (the receiver's
	// counts, when it received notifications) keeps "polls alone".
	terms[third].shows(t, "polls alone")
}
