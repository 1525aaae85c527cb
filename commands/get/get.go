// Package get is the `treasury get` command: one resource of the platform
// printed for scripts and tickets, every page of it, as a table, JSON or
// CSV. A failed call exits 1 with the error's code and guidance.
package get

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"treasury/commands/cli"
	"treasury/config"
	"treasury/desk/platform"
	"treasury/kit/span"
	"treasury/kit/words"
	"treasury/process"
	"treasury/ui/sanitize"
	"treasury/wire"
	"treasury/wire/apierr"
)

// getFlags are the flags of `treasury get`. Which of since, state, type,
// wallet and raw a resource takes is in its getResource entry.
type getFlags struct {
	output string
	since  time.Duration
	states stringList
	typ    string
	wallet string
	raw    bool
	// retryable keeps the payments whose one retry verdict is YES.
	retryable bool
	// hours is the funding plan's (--hours; "" to the end of the
	// business day).
	hours string
}

// stringList is a flag that may be repeated and takes comma-separated values.
type stringList []string

func (s *stringList) String() string { return strings.Join(*s, ",") }

func (s *stringList) Set(v string) error {
	for _, x := range strings.Split(v, ",") {
		if x = strings.TrimSpace(x); x != "" {
			*s = append(*s, x)
		}
	}
	return nil
}

func (f *getFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.output, "o", "table", "output `format`: table, json or csv; summary for a payment (the text a support ticket needs)")
	fs.StringVar(&f.output, "output", "table", "output `format`: table, json or csv; summary for a payment (the text a support ticket needs)")
	fs.Var(span.Value{D: &f.since}, "since", "read the records of this `duration` before now (90s, 15m, 24h, 7d, 2w); 0 reads the whole history (default quotes 15m, trades and ledger 24h, payments 0)")
	fs.Var(&f.states, "state", "only records in this `state` (repeat or comma-separate for payments); an unknown state is a usage error that lists the valid ones")
	fs.StringVar(&f.typ, "type", "", "reports: only reports of this `type` (PAYMENT_OPS or RECON)")
	fs.StringVar(&f.wallet, "wallet", "", "only the transactions of this wallet `id`")
	fs.BoolVar(&f.raw, "raw", false, "report: write the downloaded content as is")
	fs.StringVar(&f.hours, "hours", "", "funding: carry each currency this many `hours` (default: to the end of the business day, the profile's funding.day_ends in funding.time_zone)")
	fs.BoolVar(&f.retryable, "retryable", false, "payments: only those whose retry verdict is YES (the strictest of their errors; the dashboard's :payments retryable)")
}

// Command prints one resource of the platform for scripts and tickets:
// every page of it, as a table, JSON or CSV. A failed call exits 1 with
// the error's code and guidance on stderr.
func Command(ctx context.Context, e *process.Env, g cli.Globals, args []string) error {
	var f getFlags
	fs := flag.NewFlagSet("get", flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	f.register(fs)
	g.Register(fs)
	if g.Described(fs) {
		return flag.ErrHelp
	}
	// A bad flag is said in two lines (the flag package's and where the
	// rest is), not above the whole usage; -h prints the usage.
	// Help asked for is the output (stdout, to page or grep).
	help := cli.AsksHelp(args)
	fs.Usage = func() {
		if !help {
			fmt.Fprintln(e.Stderr, "treasury get --help lists the resources and the flags")
		}
	}
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			getUsage(e.Stdout, fs)
			return err
		}
		return cli.ErrUsage
	}
	if len(pos) == 0 {
		fmt.Fprintln(e.Stderr, "treasury get: which resource?")
		getUsage(e.Stderr, fs)
		return cli.ErrUsage
	}
	res, ok := findResource(pos[0])
	if !ok {
		fmt.Fprintf(e.Stderr, "treasury get: unknown resource %q\n\n", sanitize.Line(pos[0]))
		getUsage(e.Stderr, fs)
		return cli.ErrUsage
	}
	a, err := res.check(fs, f, pos[1:])
	if err != nil {
		fmt.Fprintf(e.Stderr, "treasury get %s: %v\nusage: treasury get %s\n", res.name, err, res.synopsis())
		return cli.ErrUsage
	}
	// A display setting (keys:, theme:, commands:, searches:) that is
	// wrong is a warning here: a cron export does not fail on it.
	cfg, err := g.LoadConfigNoScreen(e)
	if err != nil {
		return err
	}
	p, closeAll, err := openClients(e, cfg)
	if err != nil {
		return err
	}
	defer closeAll()
	a.now = p.Now
	if res.clock != "" && (a.since > 0 || res.timed) {
		a.now = platformClock(ctx, p, res.clock)
	}
	a.source = cfg.Profile + " (" + cfg.Environment + ")"
	ctx, skips := wire.WithSkips(ctx)
	what := strings.TrimSpace(res.name + " " + a.id)
	v, err := res.read(ctx, p, a)
	var part *wire.Partial
	if err != nil && !(errors.As(err, &part) && v != nil) {
		return &getError{what: what, err: err}
	}
	// Content as downloaded goes to a terminal only when the terminal
	// would act on none of it.
	if raw, ok := v.(rawBytes); ok && cli.IsTerminal(e.Stdout) {
		if n := sanitize.Unsafe(string(raw)); n > 0 {
			return fmt.Errorf("get %s --raw: the content holds %s a terminal would act on (escape sequences, controls): "+
				"not written to the terminal; write it to a file or a pipe (treasury get %s --raw > FILE), or leave out --raw to see its rows",
				sanitize.Line(what), words.Count(n, "character"), sanitize.Line(what))
		}
	}
	// What could be read is written; a partial read or a skipped record
	// still fails the command: a script must not take it for the whole.
	if werr := writeRecords(e.Stdout, f.output, v, a.now()); werr != nil {
		return werr
	}
	if err != nil {
		return &getError{what: what, err: err}
	}
	if n := skips.Count(); n > 0 {
		return &getError{what: what, err: fmt.Errorf("%s", wire.Summary(n, skips.List()))}
	}
	return nil
}

// parseInterleaved parses flags that may come before, between or after the
// positional arguments, and returns those.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		rest := fs.Args()
		if len(args) > 0 && len(rest) < len(args) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil // everything after "--" is positional
		}
		pos, args = append(pos, rest[0]), rest[1:]
	}
}

// openClients starts what `treasury get` needs and nothing more: the
// embedded sandbox when the profile asks for it, the request log and the
// platform's clients. Unlike process.Open it starts no polling and no
// webhook receiver. The returned func releases it all.
func openClients(e *process.Env, cfg *config.Config) (*platform.Platform, func(), error) {
	rt, err := process.OpenPlatform(e, cfg)
	if err != nil {
		return nil, nil, err
	}
	// -o json prints the records as received.
	if c := rt.Platform.Payments; c != nil {
		c.KeepRaw()
	}
	if c := rt.Platform.Liquidity; c != nil {
		c.KeepRaw()
	}
	return rt.Platform, rt.Close, nil
}

// platformClock is iface's clock as its answers tell it: a --since window
// is the platform's last span, as the dashboard's windows are, whatever
// this host's clock says. A get that has not heard iface yet asks it one
// small call of it first (its failure is the read's to report).
func platformClock(ctx context.Context, p *platform.Platform, iface apierr.Interface) func() time.Time {
	if _, known := p.Store.ClockOffset(iface); !known {
		switch {
		case iface == apierr.Liquidity && p.Liquidity != nil:
			_, _ = p.Liquidity.AllBalances(ctx)
		case iface == apierr.Payments && p.Payments != nil:
			_, _ = p.Payments.Balances(ctx) // the token test is the auth interface's
		}
	}
	return p.Store.PlatformClock(iface)
}

// getError is a failed read: the call, then the error's code and what to
// do about it. Its network text is sanitized for the terminal.
type getError struct {
	what string
	err  error
}

func (e *getError) Unwrap() error { return e.err }

func (e *getError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "get %s: %s", sanitize.Line(e.what), sanitize.Line(e.err.Error()))
	var part *wire.Partial
	if errors.As(e.err, &part) {
		for _, f := range part.Failed {
			fmt.Fprintf(&b, "\n  %s failed: %s", sanitize.Line(f.Name), sanitize.Line(f.Err.Error()))
			if ae, ok := apierr.As(f.Err); ok {
				fmt.Fprintf(&b, "\n    what to do: %s", sanitize.Line(ae.Guidance()))
			}
		}
		return b.String()
	}
	ae, ok := apierr.As(e.err)
	if !ok {
		return b.String()
	}
	code := ae.Label()
	if code == "" && ae.HTTPStatus != 0 {
		code = fmt.Sprintf("HTTP %d", ae.HTTPStatus)
	}
	if code != "" {
		fmt.Fprintf(&b, "\n  code: %s (%s)", sanitize.Line(code), ae.Class)
	}
	// The server's description names what it refused (the field, the
	// value); the title alone ("Bad Request") does not.
	if ae.Message != "" && ae.Message != ae.Summary() {
		fmt.Fprintf(&b, "\n  server says: %s", sanitize.Line(ae.Message))
	}
	fmt.Fprintf(&b, "\n  what to do: %s", sanitize.Line(ae.Guidance()))
	return b.String()
}

// getOutputHelp says what the formats carry and what the exit status means.
const getOutputHelp = `
output:
  -o json   each record exactly as the server sent it; a payment with one
            key added, _treasury: its funding class, errorCodes, the
            reasonCode it is grouped under, and the one retry verdict
            (retry: YES, NO, NOT YET or UNKNOWN; retryAdvice, retryWhy,
            guidance) the dashboard shows
  -o table, -o csv
            every field (a table of a list: the main ones), amounts exact
            with at least their currency's decimals (grouped in a table,
            plain in CSV), times RFC 3339 UTC to the second, CSV headers
            in snake_case (originator.source_amount), then derived
            columns: for payments funding, fee_total, fee_currency,
            tax_total, tax_currency (instead of the fees and taxes
            lists), errors_count, error_codes (every code), reason_code
            and its error_type, error_title, error_timestamp, and the one
            retry verdict (the strictest of its errors): retry,
            retry_advice, retry_why, guidance; for wallet transactions
            error_code, retry, retry_advice and guidance

exit status:
  0  every record was read and printed
  1  a call failed, or some records could not be read (what was read is
     printed; stderr names the error's code and what to do), or the
     profile could not be loaded
  2  usage: unknown resource, flag or output format, a missing or extra
     argument, or a value outside a flag's valid set (stderr lists them)
`

// getUsage lists the resources and the flags of `treasury get`.
func getUsage(w io.Writer, fs *flag.FlagSet) {
	var b strings.Builder
	b.WriteString("usage: treasury get RESOURCE [ID] [flags]\n\nresources:\n")
	for _, r := range getResources() {
		line := "  " + r.synopsis()
		if len(r.aliases) > 0 {
			line += " (" + strings.Join(r.aliases, ", ") + ")"
		}
		fmt.Fprintf(&b, "%-58s %s\n", line, r.summary)
	}
	b.WriteString("\nflags:\n")
	out := fs.Output()
	fs.SetOutput(&b)
	fs.PrintDefaults()
	fs.SetOutput(out)
	b.WriteString(getOutputHelp)
	io.WriteString(w, b.String())
}
