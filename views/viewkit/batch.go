package viewkit

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/shopspring/decimal"

	"treasury/desk/actions"
	"treasury/kit/parallel"
	"treasury/ui"
	"treasury/wire/apierr"
)

// Batch is one action on the marked records of a table page (a freeze of
// the nine transactions of one fraud ring), confirmed in one dialog: it
// lists each record and the totals per asset, leaves out the records the
// action cannot take (their state, an attempt on its way, a record no
// longer held), each listed with why, and asks for one reason. Each
// record is then its own attempt with its own key (actions.Actor.Plan,
// and the actor's batch), and the result names each: done, refused,
// failed with its error, or unknown; a batch not wholly done is never
// reported as done.
type Batch[T any] struct {
	Act *actions.Actor
	// Action is the action's name in the audit log (actions.Freeze);
	// Verb its button and title ("Freeze"); Noun and Nouns name one and
	// several records ("transaction", "transactions"); KeyName the key's
	// ("mutationId"); Again the action's key, which retries an unknown
	// outcome.
	Action, Verb, Noun, Nouns, KeyName, Again string
	// Did says what was done to the records, before their count
	// ("froze", "proposed the lock of"): only what the platform's answer
	// says.
	Did string
	// Intro says what the action does to each record.
	Intro []string
	// Request is the request each record's attempt sends, as a pattern
	// ("PUT …/transactions/<id>/freeze"); Waiting names the interface.
	Request, Waiting string
	ID               func(T) string
	// Cells are the record on one line of the dialog, in columns: its
	// id, its owner, its amount, its state.
	Cells func(T) []string
	// Amount, when set, is what the record moves, for the totals.
	Amount func(T) (asset string, qty decimal.Decimal)
	// Ruled says why the record's state rules the action out ("" when
	// it does not): as read when the dialog opens (Read).
	Ruled func(T) string
	// Read, when set, reads a record again before the dialog opens: the
	// state the dialog shows, and that rules, is the platform's now.
	Read func(ctx context.Context, rec T) (T, error)
	// Key takes the record's key, each key left open on it reconciled
	// with the platform first (actions.Actor.TxKey, EndpointKey).
	Key func(ctx context.Context, rec T) (actions.Key, error)
	// Attempt is the record's attempt (for refusals and cancels).
	Attempt func(rec T, reason, key string) actions.Attempt
	// Asking is the view's read before a dialog (one at a time).
	Asking *Asking
	// Send sends the records that go, each under its key, with reason:
	// the actor's batch, its results in the records' order.
	Send func(ctx context.Context, recs []T, keys []actions.Key, reason string) []actions.Result
}

// Ask reads the marked records again (Read), takes and reconciles their
// keys (Key) and opens the batch's confirmation; gone are the marked ids
// the page no longer holds. All of it runs in a command, never in Update:
// a batch the session may not act on is refused there, each record's
// refusal recorded.
func (b Batch[T]) Ask(ctx *ui.Context, recs []T, gone []string) tea.Cmd {
	if b.Act == nil {
		return ui.ErrorCmd(errors.New("actions are not available in this session"))
	}
	open := func() tea.Msg {
		if err := b.Act.Can(b.Action); err != nil {
			var errs []error
			for _, r := range recs {
				if rerr := b.Act.Refused(b.Attempt(r, "", ""), err); !errors.Is(rerr, err) {
					errs = append(errs, rerr)
				}
			}
			return ui.Flash{Err: errors.Join(append([]error{err}, errs...)...)}
		}
		now, failed := b.read(recs)
		return b.confirm(ctx, now, failed, gone)
	}
	what := fmt.Sprintf("%s of %d marked %s", b.Action, len(recs), b.Nouns)
	if b.Asking == nil {
		return tea.Sequence(ui.PendingCmd("waiting for the record… ("+what+")"), open)
	}
	return b.Asking.Ask(what, open)
}

// read reads each record again, four at a time; failed[i] says why
// record i could not be read ("" when it was): it is left out.
func (b Batch[T]) read(recs []T) (now []T, failed []string) {
	now, failed = slices.Clone(recs), make([]string, len(recs))
	if b.Read == nil {
		return now, failed
	}
	parallel.Each(len(recs), 4, func(i int) {
		c, cancel := context.WithTimeout(context.Background(), CallTimeout)
		defer cancel()
		if got, err := b.Read(c, recs[i]); err != nil {
			failed[i] = "could not be read just now: " + err.Error()
		} else {
			now[i] = got
		}
	}) // each failure is the record's, in failed
	return now, failed
}

// confirm is the dialog of the batch over recs as read now.
func (b Batch[T]) confirm(ctx *ui.Context, recs []T, failed []string, gone []string) tea.Msg {
	ids := make([]string, len(recs))
	for i, r := range recs {
		ids[i] = b.ID(r)
	}
	rctx, cancel := context.WithTimeout(context.Background(), CallTimeout)
	defer cancel()
	plan := b.Act.Plan(rctx, len(recs), func(c context.Context, i int) (actions.Key, error) {
		if failed[i] != "" {
			return actions.Key{}, nil // left out for it (ruled)
		}
		return b.Key(c, recs[i])
	}, func(i int) string { return cmp.Or(failed[i], b.Ruled(recs[i])) })
	var goes, out []int
	for i, p := range plan {
		if p.Out == "" {
			goes = append(goes, i)
		} else {
			out = append(out, i)
		}
	}
	if len(goes) == 0 {
		lines := []string{fmt.Sprintf("none of the %d marked %s can be taken by this %s:", len(recs)+len(gone), b.Nouns, b.Action)}
		for _, i := range out {
			lines = append(lines, ids[i]+": "+plan[i].Out)
		}
		for _, id := range gone {
			lines = append(lines, id+": no longer held")
		}
		return ui.Flash{Text: strings.Join(lines, " · "), Warn: true}
	}
	line := aligned(recs, b.Cells)
	n := len(goes)
	lines := []string{fmt.Sprintf("%d %s to %s, %d left out", n, b.plural(n), strings.ToLower(b.Verb), len(out)+len(gone))}
	if t := b.totals(recs, goes); t != "" {
		lines = append(lines, "Totals       "+t)
	}
	lines = append(lines, "Request      "+b.Request+" each, its own "+b.KeyName)
	if len(out)+len(gone) > 0 {
		lines = append(lines, "Left out, not sent:")
		for _, i := range out {
			lines = append(lines, "  "+line(i), "    ↳ "+plan[i].Out)
		}
		for _, id := range gone {
			lines = append(lines, "  "+id, "    ↳ no longer held by this view")
		}
	}
	var reconciled []string
	for _, p := range plan {
		reconciled = append(reconciled, Reconciled(p.Key)...)
	}
	if len(reconciled) > 0 {
		lines = append(lines, "Reconciled with the platform first:")
		for _, r := range reconciled {
			lines = append(lines, "  "+strings.TrimPrefix(r, "Reconciled: "))
		}
	}
	lines = append(lines, "To "+strings.ToLower(b.Verb)+":")
	retries := 0
	for _, i := range goes {
		l := "  " + line(i)
		if plan[i].Key.Retry != nil {
			l += "  ↻ retry of " + plan[i].Key.ID
			retries++
		}
		lines = append(lines, l)
	}
	sent := make([]T, n)
	keys := make([]actions.Key, n)
	for j, i := range goes {
		sent[j], keys[j] = recs[i], plan[i].Key
	}
	ruled := make([]actions.Attempt, 0, len(out))
	why := make([]string, 0, len(out))
	for _, i := range out {
		ruled = append(ruled, b.Attempt(recs[i], "", plan[i].Key.ID))
		why = append(why, plan[i].Out)
	}
	c := ui.Confirm{
		Title:  fmt.Sprintf("%s %d %s", b.Verb, n, b.plural(n)),
		Intro:  b.Intro,
		Lines:  lines,
		Action: b.Verb,
		Reason: "Reason",
		RunReason: func(reason string) tea.Cmd {
			return func() tea.Msg { return b.run(sent, keys, ruled, why, reason) }
		},
		OnCancel: b.cancel(sent, keys),
		Waiting:  fmt.Sprintf("%s: %d %s", b.Waiting, n, b.plural(n)),
	}
	if retries > 0 {
		c.Retry = fmt.Sprintf("%d of them retry an attempt whose outcome is not known, each under its own %s: the platform applies each at most once", retries, b.KeyName)
	}
	if ctx.Prod() {
		c.TypeToConfirm, c.CodeIs = strconv.Itoa(n), "the number of "+b.Nouns+" to "+strings.ToLower(b.Verb)
	}
	return c
}

// BatchDone is the outcome of a batch, delivered to the view that asked
// it: the records sent, their results, and the result to show (Flash:
// the dialog shows it, each record on its line). The view refreshes what
// the action changed, then returns Show.
type BatchDone[T any] struct {
	Action  string
	Recs    []T
	Results []actions.Result
	Flash   ui.Flash
	// done are the ids of the records done: the table page unmarks them
	// (unmarker), and keeps marked those not done, for a retry.
	done []string
}

// unmarker is a message that says which marks to drop.
type unmarker interface{ unmark() []string }

func (d BatchDone[T]) unmark() []string { return d.done }

// Show is the batch's result, for the dialog and the footer.
func (d BatchDone[T]) Show() tea.Cmd { return func() tea.Msg { return d.Flash } }

// run records the records left out as refused, each with why and the
// operator's reason, sends the others, and answers the result.
func (b Batch[T]) run(recs []T, keys []actions.Key, ruled []actions.Attempt, why []string, reason string) tea.Msg {
	ctx, cancel := context.WithTimeout(context.Background(), CallTimeout*time.Duration(len(recs)/4+2))
	defer cancel()
	var detail []string
	failed := 0
	for i, at := range ruled {
		at.Reason = reason
		err := b.Act.Refused(at, errors.New(why[i]))
		failed++
		detail = append(detail, "✘ "+b.Noun+" "+at.Target.ID+": refused, not sent: "+err.Error())
	}
	rs := b.Send(ctx, recs, keys, reason)
	var ok, doneIDs []string
	for i, r := range rs {
		id := b.ID(recs[i])
		switch {
		case actions.Applied(r.Err):
			doneIDs = append(doneIDs, id)
			l := "✔ " + Head(id, IDWidth) + SentNote(b.KeyName, r.Sent)
			if r.Err != nil {
				l += " · ⚠ " + r.Err.Error()
			}
			ok = append(ok, l)
		default:
			failed++
			detail = append(detail, b.failure(id, cmp.Or(r.Sent.Key, keys[i].ID), r.Err))
		}
	}
	total := len(recs) + len(ruled)
	f := ui.Flash{Detail: append(detail, ok...)}
	if failed == 0 {
		f.Text = fmt.Sprintf("✔ %s %d %s", b.Did, len(ok), b.plural(len(ok)))
	} else {
		f.Text = fmt.Sprintf("%s %d of %d %s", b.Did, len(ok), total, b.Nouns)
		f.Err = fmt.Errorf("%d of %d %s not done: each is named below, with why", failed, total, b.Nouns)
	}
	return BatchDone[T]{Action: b.Action, Recs: recs, Results: rs, Flash: f, done: doneIDs}
}

// failure is the result line of a record not done: unknown (it may have
// been applied; the action's key retries it under the same key), failed
// (the platform refused it: not applied), or not sent (refused here, or
// its request could not be made).
func (b Batch[T]) failure(id, key string, err error) string {
	what := b.Noun + " " + id
	if actions.Unknown(err) {
		return fmt.Sprintf("? %s: outcome unknown, the platform may have applied it; %s again reconciles %s %s with the platform first (%s)",
			what, b.Again, b.KeyName, key, errText(err))
	}
	if _, ok := apierr.As(err); ok {
		return "✘ " + what + ": failed, not applied: " + errText(err)
	}
	return "✘ " + what + ": not sent: " + errText(err)
}

// errText is an error on one line, with the platform's code when it gave
// one.
func errText(err error) string {
	if e, ok := apierr.As(err); ok {
		return e.Label() + " " + e.Message
	}
	return strings.ReplaceAll(err.Error(), "\n", " ")
}

// cancel records, when the dialog ends without the action, a cancelled
// attempt for each record that would have gone (with the reason typed).
func (b Batch[T]) cancel(recs []T, keys []actions.Key) func(ui.Cancelled) tea.Cmd {
	return func(c ui.Cancelled) tea.Cmd {
		return func() tea.Msg {
			var errs []error
			for i, r := range recs {
				at := b.Attempt(r, c.Reason, keys[i].ID)
				var err error
				switch {
				case c.Refused != nil:
					err = b.Act.Refused(at, c.Refused)
				default:
					err = b.Act.Cancelled(at, c.WrongCode)
				}
				if err != nil && !errors.Is(err, actions.ErrWrongCode) {
					errs = append(errs, err)
				}
			}
			if err := errors.Join(errs...); err != nil {
				return ui.Flash{Err: err}
			}
			return ui.CancelledFlash(fmt.Sprintf("%s of %d %s", b.Action, len(recs), b.plural(len(recs))), c.Reason)
		}
	}
}

// totals are the amounts of the records at, per asset, in the order the
// assets first come: "1,500.00 USDC (6) · 0.75 ETH (2)".
func (b Batch[T]) totals(recs []T, at []int) string {
	if b.Amount == nil {
		return ""
	}
	var order []string
	sum := map[string]decimal.Decimal{}
	n := map[string]int{}
	for _, i := range at {
		asset, qty := b.Amount(recs[i])
		if _, ok := sum[asset]; !ok {
			order = append(order, asset)
		}
		sum[asset] = sum[asset].Add(qty)
		n[asset]++
	}
	parts := make([]string, len(order))
	for i, a := range order {
		parts[i] = fmt.Sprintf("%s (%d)", Amount(sum[a], a), n[a])
	}
	return strings.Join(parts, " · ")
}

// plural names n records.
func (b Batch[T]) plural(n int) string {
	if n == 1 {
		return b.Noun
	}
	return b.Nouns
}

// aligned lays the records' cells out in columns, each as wide as its
// widest cell: line(i) is record i's line.
func aligned[T any](recs []T, cells func(T) []string) func(i int) string {
	rows := make([][]string, len(recs))
	var widths []int
	for i, r := range recs {
		rows[i] = cells(r)
		for c, cell := range rows[i] {
			if c >= len(widths) {
				widths = append(widths, 0)
			}
			widths[c] = max(widths[c], lipgloss.Width(cell))
		}
	}
	return func(i int) string {
		var b strings.Builder
		for c, cell := range rows[i] {
			if c > 0 {
				b.WriteString("  ")
			}
			b.WriteString(cell)
			if c < len(rows[i])-1 {
				b.WriteString(strings.Repeat(" ", widths[c]-lipgloss.Width(cell)))
			}
		}
		return b.String()
	}
}
