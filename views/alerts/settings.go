package alerts

import (
	"errors"
	"io"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"treasury/config"
	"treasury/desk/live"
	"treasury/ui"
	"treasury/ui/sanitize"
	"treasury/ui/table"
	"treasury/views/viewkit"
)

// Settings are the alert settings the editor shows and writes: those in
// effect for every session, and where they are kept.
type Settings interface {
	// Alerts are the settings in effect.
	Alerts() *config.Alerts
	// Where says where the settings are written (the file and the
	// profile's key), or why they cannot be; Writable whether they can.
	Where() string
	Writable() bool
	// Save writes values (key to text, "" to take the default) into the
	// rule at path of the profile's alerts section and puts the file's
	// settings in effect for every session; who made the change is
	// logged.
	Save(who string, path []string, values map[string]string) error
}

// rulesPage lists the alert settings, one rule per line: what each level
// is and where it comes from; enter edits the rule.
type rulesPage struct {
	*viewkit.TablePage[config.AlertRule]
	v *View
}

func (v *View) newRulesPage() viewkit.Page {
	p := &rulesPage{v: v}
	p.TablePage = viewkit.NewOwnTable(v.ctx, viewkit.TableSpec[config.AlertRule]{
		Crumb: "thresholds",
		Columns: []table.Column{
			{Title: "Kind", Width: 9}, {Title: "For", Width: 12},
			{Title: "Warning", Width: 22, Flex: 2}, {Title: "Critical", Width: 20, Flex: 2},
			{Title: "Note", Width: 24, Flex: 1}, {Title: "From", Width: 8},
		},
		Topics: []live.Topic{live.PaymentBalances, live.LiquidityBalances},
		Enter:  p.edit,
		Above:  p.above, AboveShare: 0.2, AboveAlways: true,
		Empty: "no alert settings",
		What:  "alert settings",
	}, viewkit.Own[config.AlertRule]{
		Read: p.read,
		Row:  ruleRow,
	})
	return p
}

// read lists the rules: the settings in effect over the currencies held.
func (p *rulesPage) read() ([]config.AlertRule, live.Snapshot) {
	st := p.v.ctx.Store
	var prefunded, liquidity []string
	for _, b := range live.Get(st, live.PaymentBalancesKey).Data.Balances {
		prefunded = append(prefunded, b.Currency)
	}
	for _, b := range live.Get(st, live.LiquidityBalancesKey).Data {
		liquidity = append(liquidity, b.Asset)
	}
	return p.v.settings.Alerts().Rules(prefunded, liquidity), live.Snapshot{FetchedAt: p.v.ctx.Clock(), Seq: st.Seq()}
}

// ruleRow is a rule's line: each level in effect, in its column.
func ruleRow(r config.AlertRule) table.Row {
	var warn, crit, note []string
	from := "—"
	for _, f := range r.Fields {
		if f.Value != "" {
			from = "file"
		} else if from == "—" && f.Effective != "" {
			from = f.From
		}
		if f.Effective == "" {
			continue
		}
		switch {
		case strings.Contains(f.Key, "critical"):
			crit = append(crit, fieldText(r, f))
		case strings.Contains(f.Key, "warning") || f.Key == "low_balance":
			warn = append(warn, fieldText(r, f))
		default:
			note = append(note, fieldText(r, f))
		}
	}
	cell := func(parts []string) string {
		if len(parts) == 0 {
			return "—"
		}
		return strings.Join(parts, ", ")
	}
	return table.Row{ID: ruleID(r), Cells: []string{r.Kind, sanitize.Line(r.For), cell(warn), cell(crit), cell(note), from}}
}

func ruleID(r config.AlertRule) string { return r.Kind + "/" + r.For }

// fieldText is one level in effect as the table says it: "runway < 24 h",
// "balance < 10,000.00 USD" (an amount as every screen writes it), "≥ 10
// %", "after 1m", "of ≥ 20 finished in 1h".
func fieldText(r config.AlertRule, f config.AlertField) string {
	unit := ""
	if f.Unit != "" {
		unit = " " + sanitize.Line(f.Unit)
	}
	switch {
	case strings.HasPrefix(f.Key, "runway_") && f.Key != "runway_window":
		return "runway < " + f.Effective + unit
	case isAmount(f):
		return "balance < " + shownValue(f, f.Effective) + unit
	case r.Kind == "payments" && f.Key == "min_finished":
		return "of ≥ " + f.Effective + unit
	case r.Kind == "payments":
		return "≥ " + f.Effective + unit
	case f.Key == "runway_window":
		return "outflow over " + f.Effective
	}
	return "after " + f.Effective
}

// above says where the settings are kept and how to change them.
func (p *rulesPage) above(w, h int, _ *config.AlertRule) string {
	t := p.v.ctx.Theme
	lines := []string{t.Muted.Render(sanitize.Line(p.v.settings.Where()))}
	switch {
	case p.v.ctx.ReadOnly:
		lines = append(lines, t.Muted.Render("read-only session: the thresholds are shown, not changed"))
	case !p.v.settings.Writable():
		lines = append(lines, t.Muted.Render("the thresholds are shown; to change them here, start with a profile from a file"))
	default:
		lines = append(lines, t.Muted.Render("enter edits a line; saved to the file and in effect for every session at once"))
	}
	return strings.Join(lines, "\n")
}

// edit opens the form of a rule.
func (p *rulesPage) edit(r config.AlertRule) tea.Cmd {
	if p.v.ctx.ReadOnly {
		return ui.ErrorCmd(errReadOnly)
	}
	if !p.v.settings.Writable() {
		return ui.ErrorCmd(errors.New(p.v.settings.Where()))
	}
	return p.v.Push(newForm(p.v, r))
}

// CSV writes the rules as shown.
func (p *rulesPage) CSV() func(io.Writer) error { return p.TablePage.CSV() }

// Keys are the table's.
func (p *rulesPage) Keys() []key.Binding { return p.TablePage.Keys() }
