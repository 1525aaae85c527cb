package paymentsview

import (
	"slices"
	"strings"
	"time"

	"treasury/desk/live"
	"treasury/desk/paystats"
	"treasury/figures"
	cols "treasury/figures/columns"
	"treasury/ui/sanitize"
	"treasury/ui/table"
	"treasury/views/viewkit"
	"treasury/wire/apierr"
	"treasury/wire/payments"
)

// columns of the root table: a payment's short columns (package
// columns), as `treasury get payments` prints them.
func columns() []table.Column { return viewkit.Columns(cols.Payments()) }

// scopeRowsName names the rows of a scope and window.
type scopeRowsName struct {
	scope scope
	win   time.Duration
}

// scopeRows is the rows of a scope: a projection of the payment set shared
// by every session, newest first, rebuilt only where payments changed.
func scopeRows(s *live.Store, sc scope, win time.Duration) live.Key[viewkit.Projected[*payments.Payment]] {
	return viewkit.Project(s, viewkit.Projection[*live.PaymentSet, *payments.Payment]{
		Name: scopeRowsName{sc, win}, From: live.PaymentsKey,
		All: func(ps *live.PaymentSet) []*payments.Payment {
			out := make([]*payments.Payment, ps.Len())
			for i := range out {
				out[i] = ps.At(i)
			}
			return out
		},
		Pick: func(ps *live.PaymentSet, ids map[string]bool) []*payments.Payment {
			out := make([]*payments.Payment, 0, len(ids))
			for id := range ids {
				if p, ok := ps.Get(id); ok {
					out = append(out, p)
				}
			}
			return out
		},
		// The set finds its payments by id: the rows keep no map of them.
		Lookup:  func(ps *live.PaymentSet, id string) (*payments.Payment, bool) { return ps.Get(id) },
		Keep:    func(p *payments.Payment) bool { return sc.Match(p) },
		Expired: func(p *payments.Payment, now time.Time) bool { return p.When().Before(now.Add(-win)) },
		ID:      func(p *payments.Payment) string { return p.PaymentID },
		RowAt:   rowBuilder(),
		Given:   newestFirst,
		// The rows are judged on the payments interface's clock: a quote
		// is expired, a time is of today, by the platform's time.
		Clock: func(fetched time.Time) time.Time { return s.PlatformTime(apierr.Payments, fetched) },
		Due:   quoteDue,
		Epoch: day,
	})
}

// quoteDue is when the row of a quote not expired yet changes by itself:
// at its expiry, it is marked expired.
func quoteDue(p *payments.Payment, now time.Time) time.Time {
	if p.PaymentState != payments.Quoted || p.ExpiresAt.IsZero() || p.QuoteExpired(now) {
		return time.Time{}
	}
	return p.ExpiresAt
}

// day is the UTC day of t: a row's time of today is shown without its
// date, so the rows are built again when the day turns.
func day(t time.Time) int64 { return t.Unix() / 86400 }

// newestFirst orders rows by their first key (the initiation time),
// newest first.
func newestFirst(a, b *table.Row) int { return b.Key(0).Compare(a.Key(0)) }

// scopeCounts is the payments per scope in a window, counted once per
// change of the set for every session (the set may hold a wider window
// than this one, for another view).
func scopeCounts(s *live.Store, win time.Duration) live.Key[counts] {
	return paystats.ScopeCounts(s, win)
}

// expiredMark follows the state of a QUOTED payment whose quote expired.
const expiredMark = cols.ExpiredMark

// rowBuilder builds a payment's row at now, the platform's time: a quote
// whose expiresAt has passed is marked expired, the time of its last
// change is shown with its date unless it is of today. Its group is the
// payment's reason group (paystats.GroupCode: the code of the error its
// retry verdict is of): the code page of "(reason not read)" lists those
// of its scope whose reason is not read.
func rowBuilder() func(p *payments.Payment, now time.Time) table.Row {
	set := cols.Payments()
	return func(p *payments.Payment, now time.Time) table.Row {
		row := viewkit.RowOf(set, p.PaymentID, p, cols.At{Now: now})
		row.Group = paystats.GroupCode(p)
		row.Fields = searchFields(p)
		return row
	}
}

// searchFields are what a payment's row is searched by besides its cells
// (`/title:closed`, `/label:payroll`): every error's code, title and
// description, the identities, the labels, the rail and the tracking
// references.
func searchFields(p *payments.Payment) []table.Field {
	var fs []table.Field
	add := func(name, v string) {
		if v != "" {
			fs = append(fs, table.Field{Name: name, Value: sanitize.Line(v)})
		}
	}
	for _, e := range p.Errors {
		add("code", e.Code)
		add("title", e.Title)
		add("description", e.Description)
	}
	add("originator", p.Originator.OriginatorIdentityNickName)
	add("beneficiaryid", p.Destination.BeneficiaryIdentityID)
	add("country", p.Destination.DestinationCountry)
	add("currency", p.Originator.SourceCurrency)
	add("currency", p.Destination.DestinationCurrency)
	for _, l := range p.PaymentLabels {
		add("label", l)
	}
	add("memo", string(p.PaymentMemo))
	if x, ok := p.PayoutExecutionDetails.Get(); ok {
		add("rail", string(x.PaymentRailUsed))
		for _, r := range x.TrackingReferences {
			add("tracking", string(r.Value))
		}
	}
	add("tracking", p.CryptoTransactionHash)
	return fs
}

// stateText is the payment's state, marked expired for a quote whose time
// has passed at now.
func stateText(p *payments.Payment, now time.Time) string {
	return sanitize.Line(cols.PaymentState(p, now))
}

// corridor is "GBP→EUR FR": source and destination currencies and the
// destination country.
func corridor(p *payments.Payment) string { return sanitize.Line(cols.Corridor(p)) }

// byID finds a held payment by payment id, else by internalId.
func byID(ps *live.PaymentSet, ref string) (*payments.Payment, bool) {
	if p, ok := ps.Get(ref); ok {
		return p, true
	}
	return ps.ByInternalID(ref)
}

// completeRefs proposes held payment ids and internalIds starting with
// prefix (case-insensitive), newest first, at most limit.
func completeRefs(ps *live.PaymentSet, prefix string, limit int) []string {
	var out []string
	for i := ps.Len() - 1; i >= 0 && len(out) < limit; i-- {
		p := ps.At(i)
		for _, s := range [...]string{p.PaymentID, p.InternalID()} {
			if s != "" && hasPrefixFold(s, prefix) && sanitize.Safe(s) && !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		a, b := s[i], prefix[i]
		if 'A' <= a && a <= 'Z' {
			a += 'a' - 'A'
		}
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		if a != b {
			return false
		}
	}
	return true
}

// paymentsExport is the payments' CSV: one meaning per column, amounts
// apart from their currencies at their decimals (no grouping), times RFC
// 3339 UTC to the second, "" for what a record does not have; its funding
// class, every error's code, the code the reason groups count it under and
// the one retry verdict, as every surface gives them (package figures).
var paymentsExport = &viewkit.Export[*payments.Payment]{
	Header: []string{"initiated_at", "payment_id", "internal_id", "state", "funding", "error_codes", "reason_code", "error_title",
		"retry", "retry_why", "source_amount", "source_currency", "destination_amount", "destination_currency", "destination_country",
		"last_state_updated_at", "expires_at", "jit_funding_expires_at", "beneficiary", "beneficiary_id", "originator", "labels"},
	Row: func(p *payments.Payment) []string {
		e, _ := figures.Reason(p)
		var retry, why string
		if figures.RetryOf(p) != figures.RetryNone {
			a := figures.VerdictOf(p)
			retry, why = a.Word.Word(), a.Why
		}
		o, d := p.Originator, p.Destination
		return []string{viewkit.ISO(p.InitiatedAt), p.PaymentID, o.InternalID, string(p.PaymentState), figures.FundingOf(p).Name(),
			strings.Join(figures.Codes(p), ";"), e.Code, e.Title, retry, why,
			viewkit.Money(o.SourceAmount.Decimal(), o.SourceCurrency), o.SourceCurrency, viewkit.Money(d.DestinationAmount.Decimal(), d.DestinationCurrency), d.DestinationCurrency, d.DestinationCountry,
			viewkit.ISO(p.LastStateUpdatedAt), viewkit.ISO(p.ExpiresAt), viewkit.ISO(p.JITFundingExpiresAt), d.BeneficiaryIdentityNickName, d.BeneficiaryIdentityID,
			o.OriginatorIdentityNickName, strings.Join(p.PaymentLabels, ";")}
	},
}
