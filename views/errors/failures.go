// Package errorsview is the errors view (":errors"): the webhook receiver's
// state and refusals per reason, in a section of their own, then the
// recent failed calls to the platform, newest first, with what spec 7.1 rule 4 asks to log:
// time, interface, method and path (ids, never secrets), status, code,
// type, the server's timestamp, the whole message, the request id, the
// attempts and what to do. A failure met again in a row is counted, not
// repeated. Enter opens one, wrapped and scrollable, so that a long
// message can be read whole. Opened with an interface (":errors custody",
// or enter on a page that could not read its data), it is filtered to it.
package errorsview

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"treasury/config/route"
	"treasury/desk/live"
	"treasury/kit/words"
	"treasury/ui"
	"treasury/ui/sanitize"
	"treasury/ui/table"
	"treasury/views/viewkit"
)

// View is the errors view.
type View struct {
	viewkit.Stack
	ctx  *ui.Context
	root *viewkit.TablePage[live.Failure]
}

// New builds the errors view.
func New(ctx *ui.Context) *View {
	v := &View{ctx: ctx}
	v.root = viewkit.NewOwnTable(ctx, viewkit.TableSpec[live.Failure]{
		Columns: []table.Column{
			{Title: "Last (UTC)", Width: 19}, {Title: "Interface", Width: 9}, {Title: "Call", Width: 24, Flex: 3},
			{Title: "Status", Width: 6, Align: table.Right}, {Title: "Code", Width: 10, Flex: 1},
			{Title: "Times", Width: 5, Align: table.Right}, {Title: "Message", Width: 20, Flex: 3},
		},
		Enter: v.open,
		Above: v.summary, AboveShare: 0.25,
		Empty: "no call has failed since the dashboard started",
		Live:  true,
		What:  "failed calls",
		Export: &viewkit.Export[live.Failure]{
			Header: []string{"last_at", "first_at", "times", "interface", "method", "path", "http_status", "code", "type",
				"grpc_code", "class", "title", "message", "request_id", "server_timestamp", "attempts", "left_unread", "topic"},
			Row: exportRow,
		},
	}, viewkit.Own[live.Failure]{
		Read: v.read,
		Row:  v.row,
	})
	v.Stack.Reset(v.root)
	return v
}

// Name is the palette name.
func (v *View) Name() route.Route { return route.Errors }

// Title is the tab label.
func (v *View) Title() string { return "Errors" }

// Init does nothing.
func (v *View) Init() tea.Cmd { return nil }

// read lists the failures; the book is the store's own, always known.
func (v *View) read() ([]live.Failure, live.Snapshot) {
	if v.ctx.Store == nil {
		return nil, live.Snapshot{FetchedAt: v.ctx.Clock()}
	}
	return v.ctx.Store.Failures(), live.Snapshot{FetchedAt: v.ctx.Clock(), Seq: v.ctx.Store.Seq()}
}

func key(f live.Failure) string { return f.Key() + " " + f.First.Format(time.RFC3339Nano) }

func (v *View) row(f live.Failure) table.Row {
	e := f.Err
	status := ""
	if e.HTTPStatus != 0 {
		status = fmt.Sprint(e.HTTPStatus)
	}
	code := e.Label()
	if code == "" {
		code = e.Class.String()
	}
	call := e.Call()
	if f.Range != "" {
		call += " · left unread: " + f.Range
	}
	return table.Row{ID: key(f), Cells: []string{
		viewkit.Time(f.At), string(e.Interface), sanitize.Line(call), status,
		sanitize.Line(code), fmt.Sprint(f.Count), sanitize.Line(e.Summary()),
	}, Keys: []table.Key{table.Time(f.At), {}, {}, table.Int(int64(e.HTTPStatus)), {}, table.Int(int64(f.Count))}}
}

// summary is the webhook receiver's section, then the selected failure's
// guidance, above the table.
func (v *View) summary(w, h int, sel *live.Failure) string {
	lines := v.webhookLines(w)
	if len(lines) > h {
		lines = lines[:h]
	}
	if room := h - len(lines); sel != nil && room > 0 {
		errLines := ui.ErrorLines(v.ctx.Theme, sel.Err, w)
		if len(errLines) > room {
			errLines = append(errLines[:room-1], v.ctx.Theme.Muted.Render("… "+v.ctx.Key("open").Help().Key+" shows it whole"))
		}
		lines = append(lines, errLines...)
	}
	return strings.Join(lines, "\n")
}

// open shows one failure whole, scrollable.
func (v *View) open(f live.Failure) tea.Cmd {
	k := key(f)
	page := viewkit.NewDetailPage(v.ctx, viewkit.DetailSpec[live.Failure]{
		Crumb: sanitize.Line(string(f.Err.Interface) + " " + f.Err.Method),
		Get: func() (live.Failure, bool, live.Snapshot) {
			all, snap := v.read()
			for _, x := range all {
				if key(x) == k {
					return x, true, snap
				}
			}
			return f, true, snap // scrolled out of the book: keep what was opened
		},
		ID:   func(f live.Failure) string { return f.Err.Path },
		Body: v.body,
	})
	return v.Stack.Push(page)
}

func (v *View) body(f live.Failure, w int) string {
	t := v.ctx.Theme
	lines := ui.ErrorLines(t, f.Err, w)
	// Count is of the recent failures with this key, not of a run: calls
	// may have worked between them.
	times := fmt.Sprintf("%s recently, first %s UTC, last %s UTC (this host's clock)", words.Count(f.Count, "failure"),
		viewkit.Time(f.First), viewkit.Time(f.At))
	switch n := f.Err.Attempts; {
	case n > 1:
		times += fmt.Sprintf("; the last call was sent %d times: its earlier attempts failed and were retried, this answer ended it", n)
	case n == 1:
		times += "; the last call was sent once"
	}
	lines = append(lines, "", t.Muted.Render(ansi.Wrap(times, w, " ")))
	if f.Range != "" {
		clock := ""
		if off, ok := v.ctx.Store.ClockOffset(f.Err.Interface); ok && off.Abs() > live.ClockTolerance() {
			clock = " on the platform's clock"
		}
		lines = append(lines, t.Warn.Render(ansi.Wrap("left unread: "+sanitize.Line(f.Range)+clock+" (what was read before it is shown; the next poll reads this again)", w, " ")))
	}
	if f.Err.ConfigKey != "" {
		lines = append(lines, t.Muted.Render("profile section: "+sanitize.Line(f.Err.ConfigKey)))
	}
	return strings.Join(lines, "\n")
}

// Update filters to an interface when opened with one.
func (v *View) Update(msg tea.Msg) tea.Cmd {
	if o, ok := msg.(ui.Open); ok && o.View == v.Name() {
		for v.Stack.Back() {
		}
		filter := ""
		if len(o.Args) > 0 {
			filter = o.Args[0]
		}
		return v.root.SetFilter(filter)
	}
	return v.Stack.Update(msg)
}

// Commands offer ":errors [INTERFACE]".
func (v *View) Commands() []ui.Command {
	return []ui.Command{{Name: string(v.Name()), Args: "[interface]", Help: "recent failed calls, with code, message and what to do", View: v.Name(),
		Complete: func(prefix string) []string {
			var out []string
			for _, i := range []string{"liquidity", "payments", "auth", "reporting", "wallet", "custody"} {
				if strings.HasPrefix(i, prefix) {
					out = append(out, i)
				}
			}
			return out
		},
		Run: func(args []string) tea.Cmd { return ui.OpenCmd(v.Name(), args...) }}}
}

// exportRow is a failure's fields for the CSV: the error's parts each in
// a column (the screen puts the method and path in one, a code or else
// the class in another), its times ISO 8601 UTC, "" for what it has not
// (no HTTP status for a refused connection); a message, when the server
// sent none, is the cause's.
func exportRow(f live.Failure) []string {
	e := f.Err
	itoa := func(n int) string {
		if n == 0 {
			return ""
		}
		return strconv.Itoa(n)
	}
	msg := e.Message
	if msg == "" && e.Cause != nil {
		msg = e.Cause.Error()
	}
	return []string{viewkit.ISO(f.At), viewkit.ISO(f.First), strconv.Itoa(f.Count), string(e.Interface), e.Method, e.Path,
		itoa(e.HTTPStatus), e.Code, e.Type, itoa(e.GRPCCode), e.Class.String(), e.Title, msg, e.RequestID, e.Timestamp,
		itoa(e.Attempts), f.Range, string(f.Topic)}
}
