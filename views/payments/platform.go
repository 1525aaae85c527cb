package paymentsview

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"treasury/desk/live"
	"treasury/desk/platform"
	"treasury/kit/span"
	"treasury/ui"
	"treasury/ui/sanitize"
	"treasury/ui/table"
	"treasury/views/viewkit"
	"treasury/wire/payments"
)

// A search of fields the platform's filter knows (internalid:,
// beneficiary:, currency:, label:, state:, date:, since:) is asked of the
// platform too, for what lies beyond the window held: one page of at most
// platformMax payments, listed apart as coming from the platform ("o"
// opens them). The document's filter (PaymentFilterV2) matches internalId
// by prefix; it does not say so of the beneficiary's nickname, which is
// taken as exact (as typed, case and spaces kept: `beneficiary:"Carlos
// Santos"`).

// platformMax is how many payments one platform search lists (the read
// gives one more, to tell that there are more).
const platformMax = platform.SearchMax

// platformDelay is how long a search must stay as typed before it is
// asked of the platform: not one request per key typed.
const platformDelay = 600 * time.Millisecond

// platformDue says that search f has stayed typed platformDelay.
type platformDue struct {
	v *View
	f string
}

// beyond is the platform's answer to a search of fields.
type beyond struct {
	search string // as typed
	filter payments.Filter
	key    live.Key[[]payments.Payment] // the store's read of the filter
	state  findState
	found  []*payments.Payment
	more   bool // the platform has more than platformMax
	err    error
}

var currencyRe = regexp.MustCompile(`^[A-Z]{3,5}$`)

// knownStates are the states a state: term can name for the platform.
func knownStates() []payments.State {
	return []payments.State{payments.Quoted, payments.AwaitingFunding, payments.Initiated, payments.Validating,
		payments.Transferring, payments.Completed, payments.Failed, payments.Declined, payments.Returned}
}

// platformFilter maps search f to the platform's filter of the payments
// beyond the window win ending at now; ok is false when a term has no
// field of the filter (a plain word, a negation, an expression), or when
// nothing can lie beyond the window.
func platformFilter(f string, now time.Time, win time.Duration) (payments.Filter, bool) {
	var pf payments.Filter
	start := now.Add(-win)
	before := start
	var after *time.Time
	for _, t := range table.Terms(f) {
		name, v, ok := strings.Cut(t, ":")
		if !ok || v == "" || strings.HasPrefix(t, "!") || strings.HasPrefix(v, "~") {
			return pf, false
		}
		switch strings.ToLower(name) {
		case "internalid", "internal":
			if pf.InternalID != "" || len(v) > 36 {
				return pf, false
			}
			pf.InternalID = v
		case "beneficiary":
			if pf.BeneficiaryIdentityNickname != "" || len(v) > 100 {
				return pf, false
			}
			pf.BeneficiaryIdentityNickname = v
		case "currency":
			c := strings.ToUpper(v)
			if !currencyRe.MatchString(c) {
				return pf, false
			}
			pf.DestinationCurrencies = append(pf.DestinationCurrencies, c)
		case "label":
			pf.PaymentLabels = append(pf.PaymentLabels, v)
		case "state":
			s := payments.State(strings.ToUpper(v))
			if !slices.Contains(knownStates(), s) {
				return pf, false
			}
			pf.PaymentStates = append(pf.PaymentStates, s)
		case "date":
			d, err := time.Parse("2006-01-02", v)
			if err != nil || after != nil {
				return pf, false
			}
			after = &d
			if end := d.Add(24*time.Hour - time.Millisecond); end.Before(before) {
				before = end
			}
		case "since":
			d, err := span.Parse(v)
			if err != nil || after != nil {
				return pf, false
			}
			a := now.Add(-d)
			after = &a
		default:
			return pf, false
		}
	}
	if after != nil && !after.Before(before) {
		return pf, false // the window holds all of it
	}
	pf.AfterTimestamp, pf.BeforeTimestamp = after, &before
	pf.FilterRangeType = payments.RangeCreation
	return pf, true
}

// askPlatform schedules the platform search of f when it maps to the
// filter and was not asked yet.
func (v *View) askPlatform(f string) tea.Cmd {
	if v.p.Payments == nil || f == "" || v.beyond.search == f {
		return nil
	}
	pf, ok := platformFilter(f, v.now(), v.window)
	if !ok {
		v.beyond = beyond{}
		return nil
	}
	v.beyond = beyond{search: f, filter: pf, state: findNone}
	return tea.Tick(platformDelay, func(time.Time) tea.Msg { return platformDue{v: v, f: f} })
}

// platformCall asks the platform once the search stayed as typed.
func (v *View) platformCall(m platformDue) tea.Cmd {
	if m.v != v || v.beyond.search != m.f || v.beyond.state != findNone || strings.TrimSpace(v.page.Table().Filter()) != m.f {
		return nil
	}
	v.beyond.state = findAsked
	v.beyond.key = live.Ask(v.ctx.Store, v.p.Reads.SearchPayments, v.beyond.filter)
	return viewkit.Fetch(v.ctx, v.beyond.key, viewkit.Opening(v.ctx))
}

// platformAnswer takes the platform's answer, once the read of it
// (topic) has answered.
func (v *View) platformAnswer(topic live.Topic) {
	if v.beyond.state != findAsked || topic != v.beyond.key.Topic() {
		return
	}
	got := live.Get(v.ctx.Store, v.beyond.key)
	if got.Err != nil {
		v.beyond.state, v.beyond.err = findFailed, got.Err
		return
	}
	if !got.Loaded() {
		return // not answered: the read was cut short
	}
	ps := got.Data
	v.beyond.state = findFound
	v.beyond.more = len(ps) > platformMax
	for i := range ps[:min(len(ps), platformMax)] {
		v.beyond.found = append(v.beyond.found, &ps[i])
	}
}

// platformLine says what the platform answered for the search shown;
// "" when it was not asked.
func (v *View) platformLine() string {
	b := v.beyond
	if b.search == "" || strings.TrimSpace(v.page.Table().Filter()) != b.search {
		return ""
	}
	t := v.ctx.Theme
	what := sanitize.Line(b.search) + ", beyond the " + windowWord(v.window) + " window"
	switch b.state {
	case findNone, findAsked:
		return t.Muted.Render("from the platform: asking for the payments matching " + what + "…")
	case findFailed:
		return t.Bad.Render("from the platform: asking for " + what + " failed: " + strings.TrimPrefix(ui.ErrorText(b.err), "✖ "))
	}
	if len(b.found) == 0 {
		return t.Muted.Render("from the platform: no payment matching " + what)
	}
	n := fmt.Sprint(len(b.found))
	if b.more {
		n = "the newest " + n
	}
	return t.Accent.Render("from the platform: "+n+" payments matching "+what) + t.Muted.Render("  o opens them")
}

// openBeyond shows the payments the platform found, apart. The filter's
// records carry no reason: each failure among them is read by id (the
// store's shared read, as the detail page makes it) and its row shows
// the error code once read.
func (v *View) openBeyond() tea.Cmd {
	b := v.beyond
	if b.state != findFound || len(b.found) == 0 {
		return nil
	}
	found, fetched := b.found, v.ctx.Clock()
	st := v.ctx.Store
	byID := map[string]live.Key[payments.Payment]{}
	var topics []live.Topic
	var reads []tea.Cmd
	for _, p := range found {
		if v.p.Payments == nil || !p.PaymentState.FailedTerminal() || len(p.Errors) > 0 || p.Detailed {
			continue
		}
		k := live.Ask(st, v.p.Reads.Payment, platform.PaymentAt{ID: p.PaymentID, AsOf: p.LastStateUpdatedAt})
		byID[p.PaymentID] = k
		topics = append(topics, k.Topic())
		reads = append(reads, viewkit.Fetch(v.ctx, k, time.Time{}))
	}
	build := rowBuilder()
	page := viewkit.NewOwnTable(v.ctx, viewkit.TableSpec[*payments.Payment]{
		Crumb:   "from the platform: " + b.search,
		Columns: columns(),
		Topics:  topics,
		Enter:   func(p *payments.Payment) tea.Cmd { return v.Push(newDetailPage(v, p.PaymentID)) },
		Empty:   "the platform has none",
		What:    "payments from the platform",
	}, viewkit.Own[*payments.Payment]{
		Read: func() ([]*payments.Payment, live.Snapshot) {
			out := make([]*payments.Payment, len(found))
			for i, p := range found {
				out[i] = p
				if k, ok := byID[p.PaymentID]; ok {
					if got := live.Get(st, k); got.Loaded() && got.Err == nil && got.Data.PaymentID == p.PaymentID {
						read := got.Data
						out[i] = &read
					}
				}
			}
			return out, live.Snapshot{FetchedAt: fetched}
		},
		Row: func(p *payments.Payment) table.Row { return build(p, v.now()) },
	})
	return tea.Batch(append(reads, v.Push(page))...)
}
