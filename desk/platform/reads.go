package platform

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"treasury/desk/live"
	"treasury/wire/apierr"
	"treasury/wire/payments"
	"treasury/wire/reporting"
	"treasury/wire/wallet"
	walletclient "treasury/wire/wallet/client"
)

// Reads are the one-off reads pages ask of the platform: each a family
// of the store's reads (live.Read), read with live.Ask and live.Get as a
// table is, and shared by every session that asks for the same argument.
// A read whose interface the profile does not configure answers
// ErrNotConfigured.
type Reads struct {
	// Payment is GET /v3/payments/{id} as of a state of the payment (its
	// errors, payout details, a partial record's fields): read once per
	// state.
	Payment live.Read[PaymentAt, payments.Payment]
	// PaymentJSON is GET /v3/payments/{id} as it comes, as of a state:
	// the raw view (y) of a payment, held decoded without it.
	PaymentJSON live.Read[PaymentAt, json.RawMessage]
	// QuoteJSON is a quote as the liquidity interface sends it: the raw
	// view (y) of a quote, held decoded without it.
	QuoteJSON live.Read[QuoteAt, json.RawMessage]
	// PaymentStates is GET /v3/payments/{id}/states as of a state.
	PaymentStates live.Read[PaymentAt, []payments.StateTransition]
	// FindPayment finds a payment by a typed reference: payment id or
	// internalId (payclient.Find).
	FindPayment live.Read[string, payments.Payment]
	// SearchPayments are the newest payments a filter finds: at most
	// SearchMax+1, the last saying that there are more.
	SearchPayments live.Read[payments.Filter, []payments.Payment]
	// Instruments are an identity's financial instruments.
	Instruments live.Read[string, []payments.FinancialInstrument]
	// Ledger is the ledger transactions of every currency in a span,
	// newest first: a window longer than the polled one (LedgerWindow),
	// or a payment's own dates.
	Ledger live.Read[LedgerSpan, []payments.LedgerTransaction]
	// Report is a report's download (by its record when READY, else by id).
	Report live.Read[reporting.Report, *reporting.Download]
	// Recon is a RECON report's lines grouped per payment.
	Recon live.Read[reporting.Report, Recon]
	// WalletBalances, WalletLimits and WalletPolicies are a wallet's
	// balances (monitoring credential), limits and the policies
	// (controls credential).
	WalletBalances live.Read[walletclient.Ref, []wallet.Balance]
	WalletLimits   live.Read[string, []wallet.Limit]
	WalletPolicies live.Read[struct{}, []wallet.PolicyRule]
	// Transaction and FreezeHistory are a wallet transaction and its
	// freeze history, read from its wallet.
	Transaction   live.Read[walletclient.Ref, wallet.Transaction]
	FreezeHistory live.Read[walletclient.Ref, []wallet.FreezeEvent]
	// Sweep is a sweep configuration; SweepTransactions the transactions
	// of its last run.
	Sweep             live.Read[string, wallet.SweepConfig]
	SweepTransactions live.Read[string, []wallet.Transaction]
	// Addresses are a wallet counterparty's addresses.
	Addresses live.Read[string, []wallet.Address]
}

// PaymentAt names a payment as of a state: its id and its
// lastStateUpdatedAt.
type PaymentAt struct {
	ID   string
	AsOf time.Time
}

func (a PaymentAt) String() string {
	return a.ID + "/" + strconv.FormatInt(a.AsOf.UnixNano(), 10)
}

// QuoteAt names a quote: its id and when it was created.
type QuoteAt struct {
	ID string
	At time.Time
}

func (q QuoteAt) String() string { return q.ID }

// LedgerSpan is a span of the ledger [From, To), on the platform's clock.
// A span ending on a whole minute is shared by the sessions that ask for
// it in that minute.
type LedgerSpan struct {
	From, To time.Time
}

func (l LedgerSpan) String() string {
	return l.From.UTC().Format(time.RFC3339) + "/" + l.To.UTC().Format(time.RFC3339)
}

// Recon is a RECON report read for payment details: its lines grouped
// per payment (by network_payment_id), and how many payments it has.
type Recon struct {
	Payments  int
	ByPayment map[string]reporting.ReconPayment
}

// SearchMax is how many payments a search lists (SearchPayments).
const SearchMax = 20

// ErrNotConfigured is the answer of a read whose interface the profile
// does not configure.
var ErrNotConfigured = errors.New("the profile does not configure this interface")

// notConfigured is a read's fetch without a client.
func notConfigured[A, T any](context.Context, A) (T, error) {
	var zero T
	return zero, ErrNotConfigured
}

// RebuildReads builds the reads again on the platform's clients as they
// are now, under names of this copy's own: a copy of the platform whose
// clients were swapped (a test's other server) reads through them, and
// never answers from the reads of the platform it was copied from.
func (p *Platform) RebuildReads() { p.Reads = p.reads(fmt.Sprintf("%p/", p)) }

// reads builds the platform's reads on its clients, their names prefixed
// by ns.
func (p *Platform) reads(ns string) Reads {
	var r Reads
	r.Payment = live.Read[PaymentAt, payments.Payment]{Name: ns + "payment", Interface: apierr.Payments, Fetch: notConfigured[PaymentAt, payments.Payment], ID: PaymentAt.String}
	r.PaymentJSON = live.Read[PaymentAt, json.RawMessage]{Name: ns + "payment-json", Interface: apierr.Payments, Fetch: notConfigured[PaymentAt, json.RawMessage], ID: PaymentAt.String}
	r.PaymentStates = live.Read[PaymentAt, []payments.StateTransition]{Name: ns + "payment-states", Interface: apierr.Payments, Fetch: notConfigured[PaymentAt, []payments.StateTransition], ID: PaymentAt.String}
	r.FindPayment = live.Read[string, payments.Payment]{Name: ns + "payment-find", Interface: apierr.Payments, Fetch: notConfigured[string, payments.Payment]}
	r.SearchPayments = live.Read[payments.Filter, []payments.Payment]{Name: ns + "payment-search", Interface: apierr.Payments,
		Fetch: notConfigured[payments.Filter, []payments.Payment], ID: func(f payments.Filter) string {
			b, _ := json.Marshal(f) // the filter's fields name the read
			return string(b)
		}}
	r.Instruments = live.Read[string, []payments.FinancialInstrument]{Name: ns + "instruments", Interface: apierr.Payments, Fetch: notConfigured[string, []payments.FinancialInstrument]}
	r.Ledger = live.Read[LedgerSpan, []payments.LedgerTransaction]{Name: ns + "ledger-span", Interface: apierr.Payments, Fetch: notConfigured[LedgerSpan, []payments.LedgerTransaction], ID: LedgerSpan.String}
	if c := p.Payments; c != nil {
		r.Payment.Fetch = func(ctx context.Context, a PaymentAt) (payments.Payment, error) {
			got, err := c.Get(ctx, a.ID)
			if err == nil && p.Store != nil {
				// A payment held that lacks what the read gives (its
				// reason, a partial record's rest) takes it: its row shows
				// it, and the store does not read it again for it.
				if held, ok := live.Get(p.Store, live.PaymentsKey).Data.Get(a.ID); ok && live.NeedsDetails(held) {
					p.Store.PutPayment(got)
				}
			}
			return got, err
		}
		r.PaymentJSON.Fetch = func(ctx context.Context, a PaymentAt) (json.RawMessage, error) { return c.GetRaw(ctx, a.ID) }
		r.PaymentStates.Fetch = func(ctx context.Context, a PaymentAt) ([]payments.StateTransition, error) {
			return c.StateHistory(ctx, a.ID)
		}
		r.FindPayment.Fetch = c.Find
		r.SearchPayments.Fetch = func(ctx context.Context, f payments.Filter) ([]payments.Payment, error) {
			var out []payments.Payment
			for p, err := range c.Filter(ctx, f) {
				if err != nil {
					return out, err
				}
				out = append(out, p)
				if len(out) > SearchMax {
					break
				}
			}
			return out, nil
		}
		r.Instruments.Fetch = c.Instruments
		r.Ledger.Fetch = func(ctx context.Context, span LedgerSpan) ([]payments.LedgerTransaction, error) {
			return newestLedgerFirst(c.Ledger(ctx, span.From, span.To))
		}
	}

	r.QuoteJSON = live.Read[QuoteAt, json.RawMessage]{Name: ns + "quote-json", Interface: apierr.Liquidity, Fetch: notConfigured[QuoteAt, json.RawMessage], ID: QuoteAt.String}
	if c := p.Liquidity; c != nil {
		r.QuoteJSON.Fetch = func(ctx context.Context, q QuoteAt) (json.RawMessage, error) { return c.QuoteJSON(ctx, q.ID, q.At) }
	}

	reportID := func(rep reporting.Report) string { return rep.ID + "/" + rep.Status }
	r.Report = live.Read[reporting.Report, *reporting.Download]{Name: ns + "report", Interface: apierr.Reporting, Fetch: notConfigured[reporting.Report, *reporting.Download], ID: reportID}
	r.Recon = live.Read[reporting.Report, Recon]{Name: ns + "recon", Interface: apierr.Reporting, Fetch: notConfigured[reporting.Report, Recon], ID: reportID}
	if c := p.Reporting; c != nil {
		download := func(ctx context.Context, rep reporting.Report) (*reporting.Download, error) {
			// A record that was not READY when listed is asked for
			// again: it may be ready now.
			if rep.Type != "" && rep.Status == reporting.StatusReady {
				return c.Download(ctx, rep)
			}
			return c.DownloadByID(ctx, rep.ID)
		}
		r.Report.Fetch = func(ctx context.Context, rep reporting.Report) (*reporting.Download, error) {
			d, err := download(ctx, rep)
			if d != nil && err != nil {
				// Content that could not be read is the answer all the
				// same: it can be saved as downloaded.
				d.Unreadable, err = err, nil
			}
			return d, err
		}
		r.Recon.Fetch = func(ctx context.Context, rep reporting.Report) (Recon, error) {
			d, err := download(ctx, rep)
			if err != nil {
				return Recon{}, err
			}
			if d.Rows == nil {
				return Recon{}, errors.New("the report could not be read")
			}
			groups := reporting.GroupRecon(d.Rows.Recon)
			out := Recon{Payments: len(groups), ByPayment: make(map[string]reporting.ReconPayment, len(groups))}
			for _, g := range groups {
				out.ByPayment[g.NetworkPaymentID] = g
			}
			return out, nil
		}
	}

	refID := func(r walletclient.Ref) string { return r.VaultID + "/" + r.WalletID + "/" + r.TxID }
	r.WalletBalances = live.Read[walletclient.Ref, []wallet.Balance]{Name: ns + "wallet-balances", Interface: apierr.Wallet, Fetch: notConfigured[walletclient.Ref, []wallet.Balance], ID: refID}
	r.Transaction = live.Read[walletclient.Ref, wallet.Transaction]{Name: ns + "wallet-tx", Interface: apierr.Wallet, Fetch: notConfigured[walletclient.Ref, wallet.Transaction], ID: refID}
	r.FreezeHistory = live.Read[walletclient.Ref, []wallet.FreezeEvent]{Name: ns + "wallet-tx-freezes", Interface: apierr.Wallet, Fetch: notConfigured[walletclient.Ref, []wallet.FreezeEvent], ID: refID}
	r.Sweep = live.Read[string, wallet.SweepConfig]{Name: ns + "sweep", Interface: apierr.Wallet, Fetch: notConfigured[string, wallet.SweepConfig]}
	r.SweepTransactions = live.Read[string, []wallet.Transaction]{Name: ns + "sweep-txs", Interface: apierr.Wallet, Fetch: notConfigured[string, []wallet.Transaction]}
	r.Addresses = live.Read[string, []wallet.Address]{Name: ns + "addresses", Interface: apierr.Wallet, Fetch: notConfigured[string, []wallet.Address]}
	if c := p.Wallet; c != nil {
		r.WalletBalances.Fetch = func(ctx context.Context, ref walletclient.Ref) ([]wallet.Balance, error) {
			return c.Balances(ctx, ref.VaultID, ref.WalletID)
		}
		r.Transaction.Fetch = c.TransactionAt
		r.FreezeHistory.Fetch = c.FreezeHistory
		r.Sweep.Fetch = c.Sweep
		r.SweepTransactions.Fetch = func(ctx context.Context, id string) ([]wallet.Transaction, error) {
			return c.SweepTransactions(ctx, id, "")
		}
		r.Addresses.Fetch = c.Addresses
	}
	r.WalletLimits = live.Read[string, []wallet.Limit]{Name: ns + "wallet-limits", Interface: apierr.Wallet, Fetch: notConfigured[string, []wallet.Limit]}
	r.WalletPolicies = live.Read[struct{}, []wallet.PolicyRule]{Name: ns + "wallet-policies", Interface: apierr.Wallet, Fetch: notConfigured[struct{}, []wallet.PolicyRule]}
	if c := p.WalletControls; c != nil {
		r.WalletLimits.Fetch = c.Limits
		r.WalletPolicies.Fetch = func(ctx context.Context, _ struct{}) ([]wallet.PolicyRule, error) { return c.Policies(ctx) }
	}
	return r
}
