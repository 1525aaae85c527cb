package doctor

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"treasury/desk/audit"
	"treasury/kit/portowner"
	"treasury/wire/apierr"
	"treasury/wire/webhook"
)

// webhooks checks the PAYMENT_STATE_TRANSITION receiver of the profile:
// whether its port is free (or held, and by which process), whether its
// certificate and key load and when the certificate expires, and which
// key verifies the notifications.
func (p *prober) webhooks(ctx context.Context) Section {
	s := Section{Name: "webhooks"}
	w := p.cfg.Webhooks
	switch {
	case p.o.Embedded:
		s.Target = "the embedded sandbox's receiver"
		s.Checks = []Check{{Name: "port", Status: Skip, Detail: "a free loopback port is taken when the dashboard starts: nothing to hold"}}
		return s
	case w == nil:
		s.Checks = []Check{{Name: "port", Status: Skip, Detail: "no receiver configured: payment states come from polling alone"}}
		return s
	}
	s.Target = w.Listen
	key := p.cfg.Key("webhooks")
	s.Checks = append(s.Checks, portCheck(w.Listen, key, p.cfg.Profile, p.o.StateDir))

	if cert, err := tls.LoadX509KeyPair(w.TLSCertFile, w.TLSKeyFile); err != nil {
		s.Checks = append(s.Checks, Check{Name: "cert", Status: Fail, Detail: "cannot load the certificate and key: " + err.Error(),
			Guidance: "Fix " + key + ".tls_cert_file and tls_key_file (PEM files; the key must match the certificate)."})
	} else if leaf, err := x509.ParseCertificate(cert.Certificate[0]); err == nil {
		c := Check{Name: "cert", Status: OK, Detail: certExpiry(leaf.NotAfter, p.o.Now(), "the receiver's certificate "+certName(leaf.Subject.CommonName, leaf.DNSNames))}
		switch left := leaf.NotAfter.Sub(p.o.Now()); {
		case left < 0:
			c.Status, c.Guidance = Fail, "The sender refuses an expired certificate: renew it ("+key+".tls_cert_file) and give the operator the new one if it is pinned."
		case left < CertWarn:
			c.Status, c.Guidance = Warn, "Renew the receiver's certificate ("+key+".tls_cert_file) before it expires."
		}
		s.Checks = append(s.Checks, c)
	}

	if fp := Fingerprint(w.PublicKey); fp != "" {
		s.Checks = append(s.Checks, Check{Name: "key", Status: OK, Detail: fmt.Sprintf("notifications verified with the %s key %s (headers %s-signature, tolerance %s)",
			keyType(w.PublicKey), fp, w.HeaderPrefix, w.Tolerance)})
	}
	return s
}

// portCheck says whether addr can be listened on, and when it cannot,
// who holds it. Held by a treasury of the same profile (the bastion's
// serve, a dashboard: of the state directory stateDir), it is that
// process's receiver, as it should be: a warning that says so, not a
// failure.
func portCheck(addr, key, profile, stateDir string) Check {
	ln, err := net.Listen("tcp", addr)
	if err == nil {
		ln.Close()
		return Check{Name: "port", Status: OK, Detail: addr + " is free"}
	}
	le := &webhook.ListenError{Addr: addr, Err: err}
	st := webhook.Status{Addr: addr, Err: le}
	c := Check{Name: "port", Status: Fail}
	if le.InUse() {
		if pr, ok := portowner.LookupAddr(addr); ok {
			if cmd, ours := ownReceiver(pr, profile, stateDir); ours {
				return Check{Name: "port", Status: Warn, Detail: fmt.Sprintf("%s is held by treasury %s (pid %d) on profile %s: that process receives the notifications",
					addr, cmd, pr.PID, profile),
					Guidance: "Nothing to do if that is this host's treasury; the doctor cannot open the port itself while it runs."}
			}
		}
		st.Holder = portowner.NameAddr(addr)
		c.Guidance = "Stop the process that holds it (a dashboard or `treasury serve` on the same profile), or set " +
			key + ".listen to another port and give the operator the new callback address."
	} else {
		c.Guidance = "Set " + key + ".listen to a local address and a port this user may open (1024 and above without privileges)."
	}
	c.Detail = st.Problem()
	return c
}

// ownReceiver reports whether pr is a treasury of the profile (a serve or
// a dashboard, whose receiver listens on the profile's port): the process
// is a treasury (isTreasury: known by what it holds and runs, whatever
// its program is named: a versioned binary on a bastion) and its command
// line names the profile, or names none (its configuration's default; the
// warning says which profile is assumed). It returns the command
// ("serve", "dashboard").
func ownReceiver(pr portowner.Process, profile, stateDir string) (string, bool) {
	if len(pr.Args) == 0 || !isTreasury(pr, stateDir) {
		return "", false
	}
	cmd, named := "", ""
	args := pr.Args[1:]
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") {
			if cmd == "" {
				cmd = a // the command: the first word that is not a flag
			}
			continue
		}
		name, val, has := strings.Cut(strings.TrimLeft(a, "-"), "=")
		switch name {
		case "profile", "config", "log-max-size", "log-keep": // the global flags that take a value
			if !has && i+1 < len(args) {
				val, i = args[i+1], i+1
			}
			if name == "profile" {
				named = val
			}
		}
	}
	if cmd == "" {
		cmd = "dashboard" // the default command
	}
	if named != "" && named != profile {
		return "", false
	}
	return cmd, cmd == "serve" || cmd == "dashboard"
}

// isTreasury reports whether pr is a treasury process: it holds the mark
// of a writer of the state directory stateDir (procs/<id>.lock, which
// every dashboard and serve holds for its life), or is another process of
// this very executable (the doctor itself holds no receiver), or, when
// neither can be read, its program is named treasury.
func isTreasury(pr portowner.Process, stateDir string) bool {
	if stateDir != "" {
		procs := filepath.Join(stateDir, audit.ProcsDir) + string(filepath.Separator)
		for _, f := range pr.Files {
			if strings.HasPrefix(f, procs) {
				return true
			}
		}
	}
	if self, err := os.Executable(); err == nil && pr.PID != os.Getpid() && pr.Exe != "" && sameFile(self, pr.Exe) {
		return true
	}
	return filepath.Base(pr.Args[0]) == "treasury" || pr.Command == "treasury"
}

// sameFile reports whether two paths name the same file.
func sameFile(a, b string) bool {
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(fa, fb)
}

// Fingerprint names a public key without showing it: "SHA256:" and the
// unpadded base64 of the SHA-256 of its PKIX encoding, as ssh-keygen -l
// does for SSH keys; "" for nil or an unknown key type.
func Fingerprint(pub crypto.PublicKey) string {
	if pub == nil {
		return ""
	}
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(der)
	return "SHA256:" + base64.RawStdEncoding.EncodeToString(sum[:])
}

func keyType(pub crypto.PublicKey) string {
	switch pub.(type) {
	case ed25519.PublicKey:
		return "Ed25519"
	case *ecdsa.PublicKey:
		return "ECDSA"
	case *rsa.PublicKey:
		return "RSA"
	}
	return "public"
}

// dateLog holds the Date headers of the answers, with the local time each
// arrived.
type dateLog struct {
	mu      sync.Mutex
	all     []dated
	records []stamped
}

// stamp notes the newest record (at) of the last answer of iface to a
// path ending in rel,
// with that answer's Date; nothing when that answer carried no Date.
func (l *dateLog) stamp(iface apierr.Interface, rel, what string, at time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for i := len(l.all) - 1; i >= 0; i-- {
		if d := l.all[i]; d.iface == iface && strings.HasSuffix(d.path, rel) {
			l.records = append(l.records, stamped{iface: iface, what: what, at: at, dated: d})
			return
		}
	}
}

func (l *dateLog) stamps() []stamped {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]stamped(nil), l.records...)
}

type dated struct {
	iface       apierr.Interface
	path        string // the request's URL path
	date, local time.Time
}

// stamped is the newest record of an answer with the Date that answer
// carried: the platform's record clock against its HTTP clock.
type stamped struct {
	iface apierr.Interface
	what  string // "quote", "payment"
	at    time.Time
	dated
}

func (l *dateLog) add(d dated) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.all = append(l.all, d)
}

func (l *dateLog) list() []dated {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]dated(nil), l.all...)
}

// dateRecorder notes the Date header of every answer, error answers too.
type dateRecorder struct {
	next  http.RoundTripper
	iface apierr.Interface
	now   func() time.Time
	log   *dateLog
}

func (d dateRecorder) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := d.next.RoundTrip(r)
	if err == nil {
		if t, perr := http.ParseTime(resp.Header.Get("Date")); perr == nil {
			d.log.add(dated{iface: d.iface, path: r.URL.Path, date: t, local: d.now()})
		}
	}
	return resp, err
}

// Skew estimates the local clock's offset from a server's Date header
// received at local: positive when the server is ahead. A Date header is
// truncated to the second, so the middle of its second is compared.
func Skew(date, local time.Time) time.Duration {
	return date.Add(500 * time.Millisecond).Sub(local)
}

// clock compares the local clock with the Date headers the requests
// brought back and says the largest difference.
func (p *prober) clock() Section {
	s := p.skew()
	s.Checks = append(s.Checks, p.recordTimes()...)
	return s
}

// skew is the clock section's first check: this host's clock against the
// servers' Date headers.
func (p *prober) skew() Section {
	s := Section{Name: "clock"}
	ds := p.dates.list()
	if len(ds) == 0 {
		s.Checks = []Check{{Name: "skew", Status: Skip, Detail: "no server answered: the clock could not be compared"}}
		return s
	}
	var worst dated
	var skew time.Duration
	for _, d := range ds {
		if k := Skew(d.date, d.local); k.Abs() >= skew.Abs() {
			worst, skew = d, k
		}
	}
	tolerance := ""
	var limit time.Duration
	if w := p.cfg.Webhooks; w != nil && !p.o.Embedded && w.Tolerance > 0 {
		limit = w.Tolerance
		tolerance = fmt.Sprintf("; webhook signatures are accepted within %s", w.Tolerance)
	}
	c := Check{Name: "skew", Status: OK}
	if skew.Abs() <= time.Second {
		c.Detail = fmt.Sprintf("within 1 s of the servers' Date headers (%s)%s", count(len(ds), "answer"), tolerance)
		s.Checks = []Check{c}
		return s
	}
	dir := "behind"
	if skew < 0 {
		dir = "ahead of"
	}
	c.Detail = fmt.Sprintf("this host's clock is %s %s the %s server's Date header (±1 s)%s", fmtSkew(skew.Abs()), dir, worst.iface, tolerance)
	switch {
	case limit > 0 && skew.Abs() > limit:
		c.Status = Fail
		c.Guidance = "Synchronize this host's clock (NTP): every signed notification is refused as too old or too new."
	case skew.Abs() > SkewWarn:
		c.Status = Warn
		c.Guidance = "Synchronize this host's clock (NTP): webhook signatures are checked against it, and times shown would be off."
	}
	s.Checks = []Check{c}
	return s
}

// recordTimes compares, per interface, the newest record read with the
// Date of the answer that carried it: a server whose records are stamped
// ahead of its own Date (or of this host's clock) has two clocks, and the
// dashboard places the platform's clock by the later one.
func (p *prober) recordTimes() []Check {
	var out []Check
	for _, r := range p.dates.stamps() {
		c := Check{Name: "records", Status: OK}
		// The Date is truncated to its second: a record within that
		// second is not ahead of it.
		ahead := r.at.Sub(r.date.Add(time.Second))
		local := r.at.Sub(r.local)
		switch {
		case ahead > 0:
			c.Status = Warn
			c.Detail = fmt.Sprintf("%s: the newest %s is stamped %s ahead of the Date of the answer that carried it", r.iface, r.what, fmtSkew(ahead))
			c.Guidance = "The server's records and its Date header disagree: the dashboard keeps such records and takes the platform's clock from the later of the two; ages are on it."
		case local > ClockTolerance:
			c.Status = Warn
			c.Detail = fmt.Sprintf("%s: the newest %s is stamped ahead of this host's clock by %s (%s before its answer's Date)", r.iface, r.what, fmtSkew(local), fmtSkew(r.date.Sub(r.at).Abs()))
			c.Guidance = "This host's clock is behind the platform's: the dashboard reads ages on the platform's clock and shows the offset in its header; synchronize this host's clock (NTP)."
		default:
			c.Detail = fmt.Sprintf("%s: the newest %s is stamped %s before the Date of the answer that carried it", r.iface, r.what, fmtSkew(r.date.Sub(r.at).Abs()))
		}
		out = append(out, c)
	}
	return out
}

// ClockTolerance is the offset of a clock that is not reported: the Date
// header's resolution.
const ClockTolerance = time.Second

// fmtSkew formats a clock difference in whole seconds, or minutes and
// seconds.
func fmtSkew(d time.Duration) string {
	d = d.Round(time.Second)
	if d < time.Minute {
		return fmt.Sprintf("%d s", int(d.Seconds()))
	}
	return d.String()
}
