package doctor

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"treasury/config"
	"treasury/wire/apierr"
	"treasury/wire/auth"
	"treasury/wire/custody"
	custodyclient "treasury/wire/custody/client"
	"treasury/wire/liquidity"
	liquidityclient "treasury/wire/liquidity/client"
	"treasury/wire/payments"
	payclient "treasury/wire/payments/client"
	"treasury/wire/reporting"
	reportingclient "treasury/wire/reporting/client"
	"treasury/wire/transport"
	"treasury/wire/wallet"
	walletclient "treasury/wire/wallet/client"
)

// pageOfOne is the page the auth checks ask for: the smallest read each
// interface documents is a page of one record where the list is paged
// (spec 2.1; 1 is within every list's bounds, 4.3 rule 3), and the whole
// (small) list of reports where it is not.
const pageOfOne = 1

// transport is a client of one interface for the auth check: sent once
// (the doctor reports what it sees; it does not retry), each attempt
// bounded by the timeout.
func (p *prober) transport(iface apierr.Interface, base, key string, src auth.Source, hc *http.Client) (*transport.Client, error) {
	return transport.New(transport.Config{Interface: iface, BaseURL: base, Auth: src, HTTP: hc, Timeout: p.o.Timeout,
		Retry: transport.Retry{Attempts: 1}, UserAgent: p.o.UserAgent, ConfigKey: key})
}

// authContext bounds an auth check of n requests.
func (p *prober) authContext(ctx context.Context, n int) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, time.Duration(n)*p.o.Timeout+time.Second)
}

// failed is the failed auth check of who (a client id, a token) with err,
// and the guidance for it: the error's own, which for a static bearer token
// (liquidity, custody) names the token's settings, as the dashboard does.
func (p *prober) failed(iface apierr.Interface, key, who, url string, err error) Check {
	e, ok := asAPIError(err, iface, key, url, p.o.Timeout)
	if !ok {
		return Check{Name: "auth", Status: Fail, Detail: who + ": " + err.Error()}
	}
	return Check{Name: "auth", Status: Fail, Detail: who + ": " + e.Error(), Err: e, Guidance: e.Guidance()}
}

func notConfigured(s Section) Section {
	s.Checks = []Check{{Name: "config", Status: Skip, Detail: "not configured in this profile"}}
	return s
}

func notTried() Check {
	return Check{Name: "auth", Status: Skip, Detail: "not tried: the address cannot be reached"}
}

func (p *prober) liquidity(ctx context.Context) Section {
	s := Section{Name: string(apierr.Liquidity)}
	c := p.cfg.Liquidity
	if c == nil {
		return notConfigured(s)
	}
	s.Target = c.BaseURL
	key := p.cfg.Key("liquidity")
	checks, ok := p.reach(ctx, apierr.Liquidity, key, "base_url", c.BaseURL)
	if s.Checks = checks; !ok {
		s.Checks = append(s.Checks, notTried())
		return s
	}
	t, err := p.transport(apierr.Liquidity, c.BaseURL, key, auth.NewStatic(auth.NewSecret(c.Token.Reveal())), p.client(apierr.Liquidity))
	if err != nil {
		s.Checks = append(s.Checks, Check{Name: "auth", Status: Fail, Detail: err.Error()})
		return s
	}
	actx, cancel := p.authContext(ctx, 1)
	defer cancel()
	pg, err := liquidityclient.New(t, liquidityclient.Options{Now: p.o.Now}).QuotesPage(actx, liquidity.Window{}, 0, pageOfOne)
	if err != nil {
		s.Checks = append(s.Checks, p.failed(apierr.Liquidity, key, "bearer token", c.BaseURL, err))
		return s
	}
	if len(pg.Quotes) > 0 {
		p.dates.stamp(apierr.Liquidity, liquidity.PathQuotes, "quote", pg.Quotes[0].CreatedAt)
	}
	s.Checks = append(s.Checks, Check{Name: "auth", Status: OK, Detail: fmt.Sprintf("bearer token accepted: GET %s pageSize=%d answered %d of %s",
		liquidity.PathQuotes, pageOfOne, len(pg.Quotes), count(pg.TotalElements, "quote"))})
	return s
}

// paymentsToken is the payments token source, shared by the payments and
// reporting checks (the reporting interface takes the payments token).
func (p *prober) paymentsToken() *auth.Cached {
	p.payOnce.Do(func() {
		c := p.cfg.Payments
		if c == nil {
			return
		}
		p.payToken = auth.NewPayments(auth.PaymentsConfig{AuthURL: c.AuthURL, ClientID: c.ClientID,
			ClientSecret: auth.NewSecret(c.ClientSecret.Reveal()), Audience: c.Audience, HTTP: p.client(apierr.Auth),
			ConfigKey: p.cfg.Key("payments")})
	})
	return p.payToken
}

func (p *prober) payments(ctx context.Context) Section {
	s := Section{Name: string(apierr.Payments)}
	c := p.cfg.Payments
	if c == nil {
		return notConfigured(s)
	}
	key := p.cfg.Key("payments")
	s.Target = c.BaseURL
	checks, ok := p.reach(ctx, apierr.Payments, key, "base_url", c.BaseURL)
	if origin(c.AuthURL) != origin(c.BaseURL) {
		s.Target += " (tokens: " + c.AuthURL + ")"
		more, authOK := p.reach(ctx, apierr.Auth, key, "auth_url", c.AuthURL)
		checks, ok = append(checks, more...), ok && authOK
	}
	if s.Checks = checks; !ok {
		s.Checks = append(s.Checks, notTried())
		return s
	}
	src := p.paymentsToken()
	pt, err := p.transport(apierr.Payments, c.BaseURL, key, src, p.client(apierr.Payments))
	if err != nil {
		s.Checks = append(s.Checks, Check{Name: "auth", Status: Fail, Detail: err.Error()})
		return s
	}
	at, err := p.transport(apierr.Auth, c.AuthURL, key, src, p.client(apierr.Auth))
	if err != nil {
		s.Checks = append(s.Checks, Check{Name: "auth", Status: Fail, Detail: err.Error()})
		return s
	}
	pc := payclient.New(pt, payclient.Options{PageSize: pageOfOne, Auth: at, Now: p.o.Now})
	who := "client_id " + c.ClientID
	actx, cancel := p.authContext(ctx, 10)
	defer cancel()
	tt, err := pc.TokenTest(actx)
	if err != nil {
		s.Checks = append(s.Checks, p.failed(apierr.Auth, key, who, c.AuthURL, err))
		return s
	}
	for _, err := range pc.IdentitySeq(actx) {
		if err != nil {
			s.Checks = append(s.Checks, p.failed(apierr.Payments, key, who+": token issued, but", c.BaseURL, err))
			return s
		}
		break // a page of one is enough
	}
	s.Checks = append(s.Checks, Check{Name: "auth", Status: OK, Detail: fmt.Sprintf("%s: token issued (%d s left, token test); GET %s limit=%d accepted",
		who, tt.SecondsToExpiry, payments.PathIdentities, pageOfOne)})
	s.Checks = append(s.Checks, p.paymentReads(actx, pc, key, c.BaseURL)...)
	return s
}

// paymentReads reads one page of each payments read the dashboard polls,
// with the parameters it sends: the filter in the form of sort the server
// takes (learnt as the dashboard learns it), the balances, and the ledger
// of one currency over the dashboard's dated window. A failed read is
// named, not hidden behind the identities that answered.
func (p *prober) paymentReads(ctx context.Context, pc *payclient.Client, key, base string) []Check {
	var out []Check
	fail := func(name string, err error) Check {
		c := p.failed(apierr.Payments, key, name, base, err)
		c.Name = "read"
		return c
	}
	n := 0
	var ferr error
	for x, err := range pc.Filter(ctx, payments.Filter{}) {
		if ferr = err; err == nil {
			p.dates.stamp(apierr.Payments, payments.PathFilterV3, "payment", newest(x.InitiatedAt, x.LastStateUpdatedAt))
		}
		n++
		break // a page of one is enough
	}
	if ferr != nil {
		out = append(out, fail("POST "+payments.PathFilterV3, ferr))
	} else {
		d := pc.Dialect()
		form := "sortField " + d.Sort + " DESC"
		switch d.Sort {
		case payclient.SortCreatedAt:
			form += " (the spec's wording: this server refuses the document's initiatedAt)"
		case payclient.SortNone:
			form = "no sort (this server refuses every sortField tried)"
		}
		out = append(out, Check{Name: "read", Status: OK, Detail: fmt.Sprintf("POST %s %s, page.size=%d: answered %s",
			payments.PathFilterV3, form, pageOfOne, count(n, "payment"))})
		out = append(out, p.changedRead(ctx, pc, fail))
	}
	bal, err := pc.Balances(ctx)
	if err != nil {
		return append(out, fail("GET "+payments.PathBalances, err))
	}
	out = append(out, Check{Name: "read", Status: OK, Detail: fmt.Sprintf("GET %s: answered %s", payments.PathBalances, count(len(bal.Balances), "balance"))})
	if len(bal.Balances) == 0 {
		return out
	}
	cur := bal.Balances[0].Currency
	to := p.o.Now()
	from := to.Add(-24 * time.Hour)
	pg, err := pc.LedgerPage(ctx, cur, from, to, pageOfOne, 0)
	if err != nil {
		return append(out, fail("GET "+payments.PathLedger+" currency="+cur, err))
	}
	return append(out, Check{Name: "read", Status: OK, Detail: fmt.Sprintf("GET %s currency=%s start-dttm/end-dttm (the last 24 h) page-size=%d: answered %d of %s",
		payments.PathLedger, cur, pageOfOne, pg.PageElements, count(pg.Total, "transaction"))})
}

// changedRead reads one page of the payments whose state changed in the
// last hour, the read of every poll after the first, and says whether the
// server answers it or is read in full at every poll.
func (p *prober) changedRead(ctx context.Context, pc *payclient.Client, fail func(string, error) Check) Check {
	what := "POST " + payments.PathFilterV3 + " filterRangeType=" + payments.RangeLastUpdated
	ps, ok, err := pc.ChangedFirst(ctx, p.o.Now().Add(-time.Hour), pageOfOne)
	switch {
	case err != nil:
		return fail(what, err)
	case !ok:
		return Check{Name: "read", Status: OK, Detail: what + ": not taken by this server; each poll reads every unfinished payment again"}
	}
	return Check{Name: "read", Status: OK, Detail: fmt.Sprintf("%s (the last hour), page.size=%d: answered %s; polls read only what changed",
		what, pageOfOne, count(len(ps), "payment"))}
}

func (p *prober) reporting(ctx context.Context) Section {
	s := Section{Name: string(apierr.Reporting)}
	c := p.cfg.Reporting
	if c == nil {
		return notConfigured(s)
	}
	s.Target = c.BaseURL
	key := p.cfg.Key("reporting")
	checks, ok := p.reach(ctx, apierr.Reporting, key, "base_url", c.BaseURL)
	if s.Checks = checks; !ok {
		s.Checks = append(s.Checks, notTried())
		return s
	}
	src := p.paymentsToken()
	if src == nil {
		s.Checks = append(s.Checks, Check{Name: "auth", Status: Fail, Detail: "the reporting interface takes the payments token, and the profile has no payments section",
			Guidance: "Add the payments section (auth_url, client_id, client_secret_env, audience) to profile " + p.cfg.Profile + "."})
		return s
	}
	t, err := p.transport(apierr.Reporting, c.BaseURL, key, src, p.client(apierr.Reporting))
	if err != nil {
		s.Checks = append(s.Checks, Check{Name: "auth", Status: Fail, Detail: err.Error()})
		return s
	}
	who := "payments token (client_id " + p.cfg.Payments.ClientID + ")"
	actx, cancel := p.authContext(ctx, 2)
	defer cancel()
	list, err := reportingclient.New(t).ListRecords(actx)
	if err != nil {
		s.Checks = append(s.Checks, p.failed(apierr.Reporting, key, who, c.BaseURL, err))
		return s
	}
	s.Checks = append(s.Checks, Check{Name: "auth", Status: OK, Detail: fmt.Sprintf("%s accepted: GET %s answered %s",
		who, reporting.PathReports, count(len(list.Reports), "report"))})
	return s
}

// walletCredential is one of the wallet section's client credentials.
type walletCredential struct {
	kind, section string
	client        *config.Client
}

func (p *prober) wallet(ctx context.Context) Section {
	s := Section{Name: string(apierr.Wallet)}
	c := p.cfg.Wallet
	if c == nil {
		return notConfigured(s)
	}
	s.Target = c.BaseURL
	key := p.cfg.Key("wallet")
	checks, ok := p.reach(ctx, apierr.Wallet, key, "base_url", c.BaseURL)
	if s.Checks = checks; !ok {
		s.Checks = append(s.Checks, notTried())
		return s
	}
	hc := p.client(apierr.Wallet)
	for _, cred := range []walletCredential{{"monitoring", "wallet", &c.Client}, {"controls", "wallet.controls", c.Controls}, {"transactions", "wallet.transactions", c.Transactions}} {
		if cred.client == nil {
			continue
		}
		s.Checks = append(s.Checks, p.walletAuth(ctx, c.BaseURL, cred, hc))
	}
	return s
}

// walletAuth exchanges one credential for a token; the read (monitoring)
// credential then reads a page of one vault with it.
func (p *prober) walletAuth(ctx context.Context, base string, cred walletCredential, hc *http.Client) Check {
	key := p.cfg.Key(cred.section)
	who := cred.kind + " client_id " + cred.client.ClientID
	src := auth.NewWallet(auth.WalletConfig{BaseURL: base, ClientID: cred.client.ClientID,
		ClientSecret: auth.NewSecret(cred.client.ClientSecret.Reveal()), HTTP: hc, ConfigKey: key})
	actx, cancel := p.authContext(ctx, 2)
	defer cancel()
	if _, err := src.Token(actx); err != nil {
		return p.failed(apierr.Wallet, key, who, base, err)
	}
	if cred.kind != "monitoring" {
		return Check{Name: "auth", Status: OK, Detail: who + ": token issued"}
	}
	t, err := p.transport(apierr.Wallet, base, key, src, hc)
	if err != nil {
		return Check{Name: "auth", Status: Fail, Detail: err.Error()}
	}
	pg, err := walletclient.New(t).VaultsPage(actx, pageOfOne)
	if err != nil {
		return p.failed(apierr.Wallet, key, who+": token issued, but", base, err)
	}
	return Check{Name: "auth", Status: OK, Detail: fmt.Sprintf("%s: token issued; GET %s %s=%d answered %s",
		who, wallet.PathVaults, wallet.QueryPageSize, pageOfOne, count(len(pg.Items), "vault"))}
}

func (p *prober) custody(ctx context.Context) Section {
	s := Section{Name: string(apierr.Custody)}
	c := p.cfg.Custody
	if c == nil {
		return notConfigured(s)
	}
	s.Target = c.BaseURL
	key := p.cfg.Key("custody")
	checks, ok := p.reach(ctx, apierr.Custody, key, "base_url", c.BaseURL)
	s.Checks = checks
	if ok {
		s.Checks = append(s.Checks, p.custodyAuth(ctx, c, key))
	} else {
		s.Checks = append(s.Checks, notTried())
	}
	s.Checks = append(s.Checks, signingKey(c, key))
	return s
}

func (p *prober) custodyAuth(ctx context.Context, c *config.Custody, key string) Check {
	t, err := p.transport(apierr.Custody, c.BaseURL, key, auth.NewStatic(auth.NewSecret(c.Token.Reveal())), p.client(apierr.Custody))
	if err != nil {
		return Check{Name: "auth", Status: Fail, Detail: err.Error()}
	}
	actx, cancel := p.authContext(ctx, 1)
	defer cancel()
	pg, err := custodyclient.New(t, c.DomainID, custody.Signer{}).EndpointsPage(actx, "", pageOfOne)
	if err != nil {
		return p.failed(apierr.Custody, key, "bearer token for domain "+c.DomainID, c.BaseURL, err)
	}
	return Check{Name: "auth", Status: OK, Detail: fmt.Sprintf("bearer token accepted: GET %s%s/endpoints limit=%d answered %s",
		custody.PathDomains, c.DomainID, pageOfOne, count(len(pg.Items), "endpoint"))}
}

// signingKey says whether lock and unlock intents can be signed, naming
// the key by its public fingerprint.
func signingKey(c *config.Custody, key string) Check {
	switch k := c.SigningKey.(type) {
	case nil:
		return Check{Name: "key", Status: Skip, Detail: "no signing_key_file: locking and unlocking endpoints is disabled"}
	case ed25519.PrivateKey:
		return Check{Name: "key", Status: OK, Detail: fmt.Sprintf("intents signed as user %s, Ed25519 key %s", c.UserID, Fingerprint(k.Public()))}
	default:
		return Check{Name: "key", Status: Warn, Detail: fmt.Sprintf("the signing key is %s, not Ed25519: intents cannot be signed", keyType(k.Public())),
			Guidance: "Point " + key + ".signing_key_file at the operator's Ed25519 private key (PKCS #8 PEM)."}
	}
}

// origin is the scheme, host and port of a URL, or the URL itself when it
// does not parse.
// newest is the later of two record times.
func newest(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

func origin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	return strings.ToLower(u.Scheme + "://" + u.Host)
}

// count says "1 quote", "3 quotes", "3,628,802 quotes".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return thousands(n) + " " + noun + "s"
}

// thousands writes n with a comma between groups of three digits.
func thousands(n int) string {
	s := strconv.Itoa(n)
	if n < 0 {
		return "-" + thousands(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
