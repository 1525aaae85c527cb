package paymentsview

import (
	"slices"
	"time"

	"treasury/data/live"
	"treasury/data/payments"
	"treasury/ui/sanitize"
	"treasury/ui/table"
	"treasury/views/viewkit"
)

// columns of the root table. The error code comes early so that it stays
// visible in an 80-column window; the table hides what does not fit from
// the right.
func columns() []table.Column {
	return []table.Column{
		{Title: "Initiated UTC", Width: 14},
		{Title: "Payment id", Width: 12, Flex: 3},
		{Title: "Internal id", Width: 11, Flex: 1},
		{Title: "State", Width: 12},
		{Title: "Error", Width: 7},
		{Title: "Sent", Width: 14, Align: table.Right, Flex: 1},
		{Title: "Corridor", Width: 10},
		{Title: "Updated", Width: 8},
		{Title: "Payout", Width: 14, Align: table.Right, Flex: 1},
		{Title: "Beneficiary", Width: 11, Flex: 1},
	}
}

// rows keeps what the root table is built from: the set last read, the
// payments of the current scope newest first, and one table row per
// payment record. A PaymentSet shares the records that did not change
// between snapshots, so a row is built once per record version (a changed
// payment is a new pointer) and a poll that changed nothing costs nothing.
type rows struct {
	set     *live.PaymentSet
	scope   scope
	recs    []*payments.Payment
	counts  counts
	version uint64 // increases when set or scope change: the page's Seq
	cache   map[*payments.Payment]table.Row
}

// read returns the payments of scope sc in set ps, newest first, and
// whether they changed since the last call.
func (r *rows) read(ps *live.PaymentSet, sc scope) []*payments.Payment {
	if ps == r.set && sc == r.scope && r.version != 0 {
		return r.recs
	}
	if ps != r.set || r.version == 0 {
		r.counts = countScopes(ps)
	}
	r.set, r.scope = ps, sc
	r.version++
	n := ps.Len()
	if sc != scopeAll {
		n = r.counts[sc]
	}
	out := make([]*payments.Payment, 0, n)
	for i := ps.Len() - 1; i >= 0; i-- {
		if p := ps.At(i); sc.match(p.PaymentState) {
			out = append(out, p)
		}
	}
	r.recs = out
	r.prune(ps)
	return out
}

// prune drops cached rows of records no longer held once the cache is
// clearly larger than the set.
func (r *rows) prune(ps *live.PaymentSet) {
	if r.cache == nil {
		r.cache = make(map[*payments.Payment]table.Row, ps.Len())
		return
	}
	if len(r.cache) <= ps.Len()+ps.Len()/4+1024 {
		return
	}
	next := make(map[*payments.Payment]table.Row, ps.Len())
	for i := range ps.Len() {
		p := ps.At(i)
		if row, ok := r.cache[p]; ok {
			next[p] = row
		}
	}
	r.cache = next
}

// row returns the table row of a record, built once per record pointer.
func (r *rows) row(p *payments.Payment) table.Row {
	if row, ok := r.cache[p]; ok {
		return row
	}
	row := buildRow(p)
	if r.cache == nil {
		r.cache = map[*payments.Payment]table.Row{}
	}
	r.cache[p] = row
	return row
}

func buildRow(p *payments.Payment) table.Row {
	src := p.Originator.SourceAmount.Decimal
	dst := p.Destination.DestinationAmount.Decimal
	return table.Row{ID: p.PaymentID, Cells: []string{
		shortTime(p.InitiatedAt), sanitize.Line(p.PaymentID), sanitize.Line(p.InternalID()),
		sanitize.Line(string(p.PaymentState)), sanitize.Line(errorCode(p)),
		viewkit.Amount(src, p.Originator.SourceCurrency), corridor(p), clock(p.LastStateUpdatedAt),
		viewkit.Amount(dst, p.Destination.DestinationCurrency), sanitize.Line(p.Destination.BeneficiaryIdentityNickName),
	}, Keys: []table.Key{table.Time(p.InitiatedAt), {}, {}, {}, {}, table.Decimal(src), {},
		table.Time(p.LastStateUpdatedAt), table.Decimal(dst)}}
}

// errorCode is the first error's code, when the record carries one.
func errorCode(p *payments.Payment) string {
	if len(p.Errors) > 0 {
		return p.Errors[0].Code
	}
	return ""
}

// corridor is "GBP→EUR FR": source and destination currencies and the
// destination country.
func corridor(p *payments.Payment) string {
	s := sanitize.Line(p.Originator.SourceCurrency) + "→" + sanitize.Line(p.Destination.DestinationCurrency)
	if c := p.Destination.DestinationCountry; c != "" {
		s += " " + sanitize.Line(c)
	}
	return s
}

// shortTime is month, day and time of day in UTC.
func shortTime(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.UTC().Format("01-02 15:04:05")
}

// clock is the time of day in UTC.
func clock(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.UTC().Format("15:04:05")
}

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
