package get

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"treasury/desk/platform"
	"treasury/figures"
	"treasury/figures/ticket"
	"treasury/wire"
	"treasury/wire/apierr"
	"treasury/wire/liquidity"
	liquidityclient "treasury/wire/liquidity/client"
	"treasury/wire/payments"
	payclient "treasury/wire/payments/client"
	"treasury/wire/reporting"
	reportingclient "treasury/wire/reporting/client"
)

// getResource is one thing `treasury get` prints.
type getResource struct {
	name    string
	aliases []string
	// arg names the positional argument in usage: "ID", "[VAULT]"
	// (optional) or "" (none).
	arg     string
	summary string
	// flags are the resource flags it takes, of since, state, type,
	// wallet, raw, retryable; multiState says --state may be given more
	// than once.
	flags      []string
	multiState bool
	// enums are the valid values of the flags that take one of a known
	// set (state, type); another value is a usage error.
	enums map[string][]string
	// since is the default of --since; clock the interface whose clock
	// the window is counted back on (the records' times are its).
	since time.Duration
	clock apierr.Interface
	// timed says the resource is computed as of now (the exposure's due
	// times and runway): now is clock's, --since or not.
	timed bool
	// read fetches every page: a slice of records, one record, or rawBytes.
	read func(ctx context.Context, p *platform.Platform, a getArgs) (any, error)
}

// getArgs are a resource's checked arguments.
type getArgs struct {
	id     string
	since  time.Duration
	states []string
	typ    string
	wallet string
	raw    bool
	// retryable keeps the payments whose retry verdict is YES.
	retryable bool
	// hours is the funding plan's (zero: to the end of the business day).
	hours decimal.Decimal
	now   func() time.Time
	// summary asks for a payment's ticket summary (-o summary); source
	// names where it is read (the profile and its environment).
	summary bool
	source  string
}

// from is the start of the --since window; zero means the whole history.
//
// It starts on a whole second: the platform's clock is known to the second
// (its Date header), and what this host adds to it (the milliseconds since
// that answer) would otherwise move the window's start from one get to the
// next against a server whose clock stands still, a record at its edge in
// one and not the other.
func (a getArgs) from() time.Time {
	if a.since <= 0 {
		return time.Time{}
	}
	return a.now().Add(-a.since).Truncate(time.Second)
}

// rawBytes is content written to stdout exactly as downloaded.
type rawBytes []byte

func (r getResource) synopsis() string {
	s := r.name
	if r.arg != "" {
		s += " " + r.arg
	}
	for _, f := range r.flags {
		switch f {
		case "since":
			s += " [--since D]"
		case "state":
			s += " [--state S]"
		case "type":
			s += " [--type T]"
		case "wallet":
			s += " [--wallet W]"
		case "raw":
			s += " [--raw]"
		case "retryable":
			s += " [--retryable]"
		case "hours":
			s += " [--hours N]"
		}
	}
	return s
}

// check validates the positional arguments and the flags set against what
// the resource takes.
func (r getResource) check(fs *flag.FlagSet, f getFlags, pos []string) (getArgs, error) {
	a := getArgs{since: r.since, wallet: f.wallet, raw: f.raw, retryable: f.retryable, typ: strings.ToUpper(strings.TrimSpace(f.typ))}
	for _, s := range f.states {
		a.states = append(a.states, strings.ToUpper(s))
	}
	optional := strings.HasPrefix(r.arg, "[")
	switch {
	case len(pos) > 1 || (len(pos) == 1 && r.arg == ""):
		return a, fmt.Errorf("unexpected argument %q", pos[len(pos)-1])
	case len(pos) == 0 && r.arg != "" && !optional:
		return a, fmt.Errorf("missing %s", r.arg)
	case len(pos) == 1:
		a.id = pos[0]
	}
	var err error
	fs.Visit(func(fl *flag.Flag) {
		switch fl.Name {
		case "since", "state", "type", "wallet", "raw", "retryable", "hours":
			if !slices.Contains(r.flags, fl.Name) && err == nil {
				err = fmt.Errorf("--%s does not apply to %s", fl.Name, r.name)
			}
			switch fl.Name {
			case "since":
				a.since = f.since
			case "hours":
				if h, herr := parseHours(f.hours); herr != nil && err == nil {
					err = herr
				} else {
					a.hours = h
				}
			}
		}
	})
	switch {
	case err != nil:
		return a, err
	case len(a.states) > 1 && !r.multiState:
		return a, errors.New("one --state only")
	case a.since < 0:
		return a, errors.New("--since must not be negative")
	}
	if err := r.checkEnum("state", a.states...); err != nil {
		return a, err
	}
	if a.typ != "" {
		if err := r.checkEnum("type", a.typ); err != nil {
			return a, err
		}
	}
	switch f.output {
	case "table", "json", "csv":
	case "summary":
		if r.name != "payment" {
			return a, fmt.Errorf("-o summary is a payment's ticket summary: treasury get payment ID -o summary")
		}
		a.summary = true
	default:
		return a, fmt.Errorf("unknown output format %q (table, json, csv; summary for a payment)", f.output)
	}
	return a, nil
}

// checkEnum fails when a value of flag is not one of its valid values,
// and lists them: a script's typo must not read as "no such records".
func (r getResource) checkEnum(flag string, values ...string) error {
	valid, ok := r.enums[flag]
	if !ok {
		return nil
	}
	for _, v := range values {
		if !slices.Contains(valid, v) {
			return fmt.Errorf("unknown --%s %q for %s; valid values: %s", flag, v, r.name, strings.Join(valid, ", "))
		}
	}
	return nil
}

// Resources names what `treasury get` reads, in the order of its help:
// what a shell completes after get.
func Resources() []string {
	var out []string
	for _, r := range getResources() {
		out = append(out, r.name)
	}
	return out
}

func findResource(name string) (getResource, bool) {
	for _, r := range getResources() {
		if r.name == name || slices.Contains(r.aliases, name) {
			return r, true
		}
	}
	return getResource{}, false
}

// errNotConfigured says the profile lacks the interface a resource reads.
func errNotConfigured(iface string) error {
	return fmt.Errorf("the profile configures no %s interface", iface)
}

// getResources is the resource table: the data layer's reads, each reading
// every page. Wallet and custody resources are in walletResources.
func getResources() []getResource {
	liq := func(p *platform.Platform) (*liquidityclient.Client, error) {
		if p.Liquidity == nil {
			return nil, errNotConfigured("liquidity")
		}
		return p.Liquidity, nil
	}
	pay := func(p *platform.Platform) (*payclient.Client, error) {
		if p.Payments == nil {
			return nil, errNotConfigured("payments")
		}
		return p.Payments, nil
	}
	rep := func(p *platform.Platform) (*reportingclient.Client, error) {
		if p.Reporting == nil {
			return nil, errNotConfigured("reporting")
		}
		return p.Reporting, nil
	}
	rs := []getResource{
		{name: "quotes", summary: "liquidity quotes, newest first", flags: []string{"since"}, since: 15 * time.Minute, clock: apierr.Liquidity,
			read: withClient(liq, func(ctx context.Context, c *liquidityclient.Client, a getArgs) (any, error) {
				return c.AllQuotes(ctx, liquidity.Window{Start: a.from(), End: a.now()})
			})},
		{name: "trades", summary: "executed liquidity trades", flags: []string{"since"}, since: 24 * time.Hour, clock: apierr.Liquidity,
			read: withClient(liq, func(ctx context.Context, c *liquidityclient.Client, a getArgs) (any, error) {
				return c.AllTrades(ctx, liquidity.Window{Start: a.from(), End: a.now()})
			})},
		{name: "balances", aliases: []string{"liquidity"}, summary: "liquidity account balances",
			read: withClient(liq, func(ctx context.Context, c *liquidityclient.Client, a getArgs) (any, error) {
				return c.AllBalances(ctx)
			})},
		{name: "payment-balances", aliases: []string{"prefunded"}, summary: "prefunded payments balances",
			read: withClient(pay, func(ctx context.Context, c *payclient.Client, a getArgs) (any, error) {
				b, err := c.Balances(ctx)
				return b.Balances, err
			})},
		{name: "payments", summary: "payments through the v3 filter, newest first (a failure's reason read by id)", flags: []string{"state", "since", "retryable"}, multiState: true, clock: apierr.Payments,
			enums: map[string][]string{"state": paymentStates()},
			read: withClient(pay, func(ctx context.Context, c *payclient.Client, a getArgs) (any, error) {
				var f payments.Filter
				for _, s := range a.states {
					f.PaymentStates = append(f.PaymentStates, payments.State(s))
				}
				if a.retryable && len(f.PaymentStates) == 0 {
					// Only a failure has a verdict; a returned payment's is NO.
					f.PaymentStates = []payments.State{payments.Failed, payments.Declined}
				}
				if from := a.from(); !from.IsZero() {
					f.AfterTimestamp = &from
				}
				ps, err := c.AllFiltered(ctx, f)
				if err != nil {
					return ps, err
				}
				// The filter's records carry no errors: a failure's code and
				// reason come from reading it by id.
				err = c.Details(ctx, ps)
				if a.retryable {
					ps = slices.DeleteFunc(ps, func(p payments.Payment) bool { return !figures.Retryable(&p) })
				}
				return ps, err
			})},
		{name: "payment", arg: "ID", summary: "one payment (v3) by paymentId or internalId",
			read: withClient(pay, func(ctx context.Context, c *payclient.Client, a getArgs) (any, error) {
				p, err := paymentByAnyID(ctx, c, a.id)
				if err != nil || !a.summary {
					return p, err
				}
				// The ticket has the timeline too: a history that cannot be
				// read leaves it out (nil), the summary still written.
				h, herr := c.StateHistory(ctx, p.PaymentID)
				if herr != nil {
					h = nil
				}
				s := ticket.Summary{Payment: &p, History: h, ReadAt: a.now(), Source: a.source}
				readTrail(ctx, c, &s)
				return s, nil
			})},
		{name: "history", aliases: []string{"states"}, arg: "ID", summary: "a payment's state history (by paymentId or internalId), oldest first",
			read: withClient(pay, func(ctx context.Context, c *payclient.Client, a getArgs) (any, error) {
				h, err := c.StateHistory(ctx, a.id)
				if err == nil {
					return h, nil
				}
				pm, perr := paymentByAnyID(ctx, c, a.id)
				switch {
				case perr == nil && pm.PaymentID != a.id:
					return c.StateHistory(ctx, pm.PaymentID)
				case perr != nil && !payments.IsPaymentID(a.id):
					return h, perr // "no payment with internalId", not "not a payment id"
				}
				return h, err
			})},
		{name: "identities", summary: "originator and beneficiary identities",
			read: withClient(pay, func(ctx context.Context, c *payclient.Client, a getArgs) (any, error) {
				return c.Identities(ctx)
			})},
		{name: "instruments", aliases: []string{"financial-instruments"}, arg: "IDENTITY", summary: "an identity's financial instruments",
			read: withClient(pay, func(ctx context.Context, c *payclient.Client, a getArgs) (any, error) {
				return instrumentsOf(ctx, c, a.id)
			})},
		{name: "ledger", aliases: []string{"ledger-transactions"}, summary: "prefunded ledger transactions of every currency, newest first", flags: []string{"since"}, since: 24 * time.Hour, clock: apierr.Payments,
			read: withClient(pay, func(ctx context.Context, c *payclient.Client, a getArgs) (any, error) {
				ts, err := c.Ledger(ctx, a.from(), a.now())
				// Newest first, as every list of get and the ledger view.
				slices.SortStableFunc(ts, func(x, y payments.LedgerTransaction) int { return y.CreatedDttm.Compare(x.CreatedDttm) })
				return ts, err
			})},
		{name: "exposure", summary: "per currency: what the payments in flight commit by funding, and the prefunded runway", clock: apierr.Payments, timed: true,
			read: func(ctx context.Context, p *platform.Platform, a getArgs) (any, error) {
				c, err := pay(p)
				if err != nil {
					return nil, err
				}
				return readExposure(ctx, p, c, a)
			}},
		{name: "funding", aliases: []string{"plan"}, summary: "per prefunded currency: the top-up that carries it to the end of the business day (or --hours) at the runway's pace, the balance after the payments in flight, the owed just in time due before a top-up lands",
			flags: []string{"hours"}, clock: apierr.Payments, timed: true,
			read: func(ctx context.Context, p *platform.Platform, a getArgs) (any, error) {
				c, err := pay(p)
				if err != nil {
					return nil, err
				}
				return readFunding(ctx, p, c, a)
			}},
		{name: "token", aliases: []string{"token-test"}, summary: "the payments token test: seconds to expiry",
			read: withClient(pay, func(ctx context.Context, c *payclient.Client, a getArgs) (any, error) {
				return c.TokenTest(ctx)
			})},
		{name: "reports", summary: "available reports", flags: []string{"type"},
			enums: map[string][]string{"type": {reporting.TypePaymentOps, reporting.TypeRecon}},
			read: withClient(rep, func(ctx context.Context, c *reportingclient.Client, a getArgs) (any, error) {
				rs, err := c.List(ctx)
				if a.typ == "" {
					return rs, err
				}
				return slices.DeleteFunc(rs, func(r reporting.Report) bool { return r.Type != a.typ }), err
			})},
		{name: "report", aliases: []string{"report-rows"}, arg: "ID", summary: "a report's rows (PAYMENT_OPS or RECON), or --raw its content", flags: []string{"raw"},
			read: withClient(rep, readReport)},
	}
	return append(rs, walletResources()...)
}

// paymentStates are the states a payment filter may name: spec 3.1's seven
// and the real service's QUOTED and AWAITING_FUNDING, in lifecycle order.
func paymentStates() []string {
	return []string{string(payments.Quoted), string(payments.AwaitingFunding), string(payments.Initiated),
		string(payments.Validating), string(payments.Transferring), string(payments.Completed),
		string(payments.Failed), string(payments.Declined), string(payments.Returned)}
}

// withClient adapts a read of one client to a resource's read, failing
// when the profile lacks the interface.
func withClient[C any](get func(*platform.Platform) (C, error), read func(context.Context, C, getArgs) (any, error)) func(context.Context, *platform.Platform, getArgs) (any, error) {
	return func(ctx context.Context, p *platform.Platform, a getArgs) (any, error) {
		c, err := get(p)
		if err != nil {
			return nil, err
		}
		return read(ctx, c, a)
	}
}

// paymentByAnyID reads a payment by paymentId, else by internalId. When
// neither finds it, the error is that of the paymentId read.
func paymentByAnyID(ctx context.Context, c *payclient.Client, id string) (payments.Payment, error) {
	byInternal := func() (payments.Payment, error) {
		pm, err := c.ByInternalID(ctx, id)
		if err != nil {
			return pm, err
		}
		// The lookup answers the filter's record: the record by id
		// carries the errors and payout details too.
		if full, err := c.Get(ctx, pm.PaymentID); err == nil {
			return full, nil
		}
		return pm, nil
	}
	if !payments.IsPaymentID(id) {
		// Not a uuid: only an internalId (nothing is sent by id).
		pm, err := byInternal()
		if errors.Is(err, payclient.ErrNoPayment) {
			return pm, fmt.Errorf("no payment with internalId %q (and it is not a paymentId, which is a uuid): %w", id, err)
		}
		return pm, err
	}
	pm, err := c.Get(ctx, id)
	if err == nil {
		return pm, nil
	}
	if cl := apierr.ClassOf(err); cl != apierr.ClassNotFound && cl != apierr.ClassFixRequest {
		return pm, err
	}
	if pm2, err2 := byInternal(); err2 == nil {
		return pm2, nil
	} else if !errors.Is(err2, payclient.ErrNoPayment) && apierr.ClassOf(err2) != apierr.ClassFixRequest {
		return pm2, err2
	}
	return pm, err
}

// instrumentsOf reads an identity's financial instruments. The document's
// server answers 404 both for an identity without instruments and for
// none at all, and the client reads either as none: an empty answer is
// said to be of an identity only when the directory lists it.
func instrumentsOf(ctx context.Context, c *payclient.Client, id string) ([]payments.FinancialInstrument, error) {
	ins, err := c.Instruments(ctx, id)
	if err != nil || len(ins) > 0 {
		return ins, err
	}
	for x, err := range c.IdentitySeq(ctx) {
		if err != nil {
			return ins, fmt.Errorf("no instruments, and whether identity %q exists could not be read: %w", id, err)
		}
		if x.IdentityID == id {
			return ins, nil
		}
	}
	return nil, fmt.Errorf("no identity with id %q: GET %s lists none", id, payments.PathIdentities)
}

// readReport downloads a report: its parsed rows, or with --raw its bytes.
func readReport(ctx context.Context, c *reportingclient.Client, a getArgs) (any, error) {
	d, err := c.DownloadByID(ctx, a.id)
	if a.raw && d != nil && d.Raw != nil {
		return rawBytes(d.Raw), nil // written as is even when it does not parse
	}
	if err != nil {
		return nil, err
	}
	if a.raw {
		return rawBytes(nil), nil
	}
	if d.Rows == nil {
		return []reporting.PaymentOpsRow{}, nil
	}
	skipped := make([]wire.Skip, len(d.Rows.Skipped))
	for i, pe := range d.Rows.Skipped {
		skipped[i] = wire.Skip{Index: max(pe.Line-1, 0), ID: "line " + strconv.Itoa(pe.Line), Reason: pe.Error()}
	}
	wire.Note(ctx, "report rows", skipped) // printed, and the command fails
	wire.NoteUnlisted(ctx, d.Rows.Skips()-len(skipped))
	if d.Rows.Type == reporting.TypeRecon {
		return d.Rows.Recon, nil
	}
	return d.Rows.PaymentOps, nil
}
