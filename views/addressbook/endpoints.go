package addressbook

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"treasury/desk/live"
	"treasury/figures/columns"
	"treasury/kit/words"
	"treasury/ui"
	"treasury/ui/sanitize"
	"treasury/ui/table"
	"treasury/views/viewkit"
	"treasury/wire/custody"
)

func (v *View) newEndpointsPage() *viewkit.TablePage[custody.Endpoint] {
	return viewkit.NewSharedTable(v.ctx, viewkit.TableSpec[custody.Endpoint]{
		Crumb:   "endpoints",
		Columns: viewkit.Columns(columns.Endpoints()),
		Topics:  []live.Topic{live.Endpoints},
		Enter:   func(ep custody.Endpoint) tea.Cmd { return v.pushDetail(ep.ID) },
		Above:   v.following, AboveShare: 0.2,
		Actions: v.endpointActions(),
		Empty:   "the domain has no custody endpoints",
		What:    "custody endpoints",
		Export:  endpointsExport,
	}, viewkit.Shared[custody.Endpoint]{
		Source: viewkit.ListProjection(v.ctx.Store, live.EndpointsKey, "rows", func(ep custody.Endpoint) string { return ep.ID }, endpointRow, nil),
	})
}

// endpointsExport is the endpoints' CSV: an endpoint's fields as
// received, its listing "" when it has none, whether it carries an ABI
// true or false, its times in ISO 8601 UTC.
var endpointsExport = &viewkit.Export[custody.Endpoint]{
	Header: []string{"endpoint_id", "alias", "address", "ledger_id", "lock", "listing", "has_abi", "trust_score",
		"domain_id", "description", "revision", "created_at", "created_by", "last_modified_at"},
	Row: func(ep custody.Endpoint) []string {
		m := ep.Metadata
		return []string{ep.ID, ep.Alias, ep.Address, ep.LedgerID, ep.Lock, ep.Listing(), viewkit.Bool(ep.HasABI()),
			strconv.Itoa(ep.TrustScore), ep.DomainID, m.Description, strconv.Itoa(m.Revision), viewkit.ISO(m.CreatedAt),
			m.CreatedBy, viewkit.ISO(m.LastModifiedAt)}
	},
}

func (v *View) readEndpoints() ([]custody.Endpoint, live.Snapshot) {
	snap := live.Get(v.ctx.Store, live.EndpointsKey)
	return snap.Data, snap.Snapshot
}

// endpoint is the endpoint with id as the store holds it now.
func (v *View) endpoint(id string) (custody.Endpoint, bool, live.Snapshot) {
	eps, snap := v.readEndpoints()
	for _, ep := range eps {
		if ep.ID == id {
			return ep, true, snap
		}
	}
	return custody.Endpoint{}, false, snap
}

// following is a line per lock intent this session follows, above the
// endpoints (the rows are shared by every session: they hold the lock
// state as the service reports it, not one operator's intents).
func (v *View) following(w, h int, _ *custody.Endpoint) string {
	var lines []string
	for _, f := range v.follows {
		if len(lines) == h {
			break
		}
		lines = append(lines, v.ctx.Theme.Warn.Render(ansi.Truncate(sanitize.Line(f.ep.Alias)+": "+f.verb()+" ("+f.status()+")", w, "…")))
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
}

// endpointRow is an endpoint's row: its short columns (package columns),
// as `treasury get endpoints` prints them.
func endpointRow(ep custody.Endpoint) table.Row {
	return viewkit.RowOf(columns.Endpoints(), ep.ID, ep, columns.At{})
}

// pushDetail opens the detail of an endpoint above the endpoints.
func (v *View) pushDetail(id string) tea.Cmd {
	crumb := "…"
	if ep, ok, _ := v.endpoint(id); ok {
		crumb = sanitize.Line(ep.Alias)
		if r := []rune(crumb); len(r) > 28 {
			crumb = string(r[:27]) + "…"
		}
	}
	v.detail = viewkit.NewDetailPage(v.ctx, viewkit.DetailSpec[custody.Endpoint]{
		Crumb:   crumb,
		Topics:  []live.Topic{live.Endpoints},
		Get:     func() (custody.Endpoint, bool, live.Snapshot) { return v.endpoint(id) },
		ID:      func(ep custody.Endpoint) string { return ep.ID },
		Body:    v.endpointBody,
		Actions: v.endpointActions(),
		Fields:  v.endpointFields,
	})
	return v.Stack.Push(v.detail)
}

// endpointFields are every field of an endpoint, labelled.
func (v *View) endpointFields(ep custody.Endpoint) [][2]string {
	m := ep.Metadata
	fs := [][2]string{
		{"Alias", ep.Alias}, {"Id", ep.ID}, {"Domain", ep.DomainID}, {"Address", ep.Address}, {"Ledger", ep.LedgerID},
		{"Lock", ep.Lock}, {"Listing", viewkit.Dash(ep.Listing())}, {"Trust score", fmt.Sprint(ep.TrustScore)},
		{"Description", viewkit.Dash(m.Description)}, {"Revision", fmt.Sprint(m.Revision)},
		{"Created", viewkit.Time(m.CreatedAt) + " UTC"}, {"Created by", viewkit.Dash(m.CreatedBy)},
		{"Last modified", viewkit.Time(m.LastModifiedAt) + " UTC"},
	}
	props := make([]string, 0, len(m.CustomProperties))
	for k := range m.CustomProperties {
		props = append(props, k)
	}
	slices.Sort(props)
	for _, k := range props {
		fs = append(fs, [2]string{"Property " + k, m.CustomProperties[k]})
	}
	if ep.Parameters != nil {
		fs = append(fs, [2]string{"Parameters type", viewkit.Dash(ep.Parameters.Type)})
	}
	return fs
}

// endpointBody draws an endpoint: its fields, its ABI summarized, and the
// intent followed on it or the outcome of the last one.
func (v *View) endpointBody(ep custody.Endpoint, width int) string {
	t := v.ctx.Theme
	var b strings.Builder
	b.WriteString(viewkit.Section(t, "Endpoint") + "\n")
	b.WriteString(viewkit.KV(t, width, v.endpointFields(ep)...))
	if f, ok := v.follows[ep.ID]; ok {
		b.WriteString("\n" + viewkit.Section(t, "Pending intent") + "\n")
		b.WriteString(viewkit.KV(t, width, f.fields(v.ctx.Clock())...))
	} else if it, ok := v.last[ep.ID]; ok {
		b.WriteString("\n" + viewkit.Section(t, "Last intent") + "\n")
		b.WriteString(viewkit.KV(t, width, intentFields(it)...))
	}
	b.WriteString("\n" + viewkit.Section(t, "Smart-contract interface (ABI)") + "\n")
	if !ep.HasABI() {
		b.WriteString(t.Muted.Render("none: a plain address") + "\n")
	} else {
		for _, l := range summarizeABI(ep.Parameters.ABI) {
			b.WriteString(ansi.Truncate(l, width, "…") + "\n")
		}
	}
	return b.String()
}

// openEndpoint shows the detail of the endpoint named by text: an alias
// (any case), an id, or the only alias containing it; when several match,
// the endpoints filtered by it.
func (v *View) openEndpoint(text string) tea.Cmd {
	text = strings.TrimSpace(text)
	if text == "" {
		return tea.Batch(v.showSection(endpointsSection), ui.FlashCmd("usage: :endpoint <alias or id> (tab completes)"))
	}
	eps, snap := v.readEndpoints()
	if !snap.Loaded() {
		// "No endpoint with that alias" only once the endpoints were read.
		why := "are still loading"
		if snap.Err != nil {
			why = "could not be read (" + strings.TrimPrefix(ui.ErrorText(snap.Err), "✖ ") + ")"
		}
		return tea.Batch(v.showSection(endpointsSection),
			ui.FlashCmd(fmt.Sprintf("endpoint %q cannot be looked up: the custody endpoints %s", sanitize.Line(text), why)))
	}
	var hits []custody.Endpoint
	low := strings.ToLower(text)
	for _, ep := range eps {
		if strings.EqualFold(ep.Alias, text) || ep.ID == text {
			hits = []custody.Endpoint{ep}
			break
		}
		if strings.Contains(strings.ToLower(ep.Alias), low) {
			hits = append(hits, ep)
		}
	}
	cmd := v.showSection(endpointsSection)
	switch len(hits) {
	case 0:
		return tea.Batch(cmd, ui.ErrorCmd(fmt.Errorf("no endpoint with alias or id %q", sanitize.Line(text))))
	case 1:
		fcmd := v.endpoints.SetFilter("")
		v.endpoints.Table().Select(hits[0].ID)
		return tea.Batch(cmd, fcmd, v.pushDetail(hits[0].ID))
	}
	return tea.Batch(cmd, v.endpoints.SetFilter(text), ui.FlashCmd(fmt.Sprintf("%s match %q", words.Count(len(hits), "endpoint"), sanitize.Line(text))))
}

// completeAlias proposes the aliases containing the word being typed.
func (v *View) completeAlias(prefix string) []string {
	eps, _ := v.readEndpoints()
	low := strings.ToLower(prefix)
	var starts, inside []string
	for _, ep := range eps {
		a := sanitize.Line(ep.Alias)
		switch la := strings.ToLower(a); {
		case strings.HasPrefix(la, low):
			starts = append(starts, a)
		case strings.Contains(la, low):
			inside = append(inside, a)
		}
	}
	slices.Sort(starts)
	slices.Sort(inside)
	return append(starts, inside...)
}
