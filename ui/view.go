package ui

import (
	"io"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"treasury/config/route"
	"treasury/desk/live"
)

// Explainer is a view whose figures need saying how they are computed
// (the runway, the exposure): help (?) shows its paragraphs under its
// keys.
type Explainer interface {
	Explain() []string
}

// View is one screen of the dashboard. Views are pointers updated in place
// by the shell; all I/O happens in the tea.Cmds they return. The contract
// is small; what a view may also do (search, export, select, commands) is
// a capability the shell discovers (Filterer, Exporter, Selecter,
// Commander), on the view or, for a view made of pages (Shower), on the
// page it shows.
type View interface {
	// Name is the view's palette name ("payments"); Title its tab label.
	// Both are constant: the shell draws the tabs again only when the view
	// shown, its trail or the width change.
	Name() route.Route
	Title() string
	// Topics are the store topics the view watches now (they may change
	// with drill-down).
	Topics() []live.Topic
	Init() tea.Cmd
	// Update handles a message: keys not taken by the shell, StoreChanged,
	// Tick, Open and the view's own messages.
	Update(msg tea.Msg) tea.Cmd
	// Render draws the body at the given size.
	Render(width, height int) string
	// Keys are the view's own bindings, for help and the footer. A read-only
	// session must not be offered action keys.
	Keys() []key.Binding
	// Crumbs is the trail below the view's root ("payments", "FAILED",
	// "a3f…"); Back pops one level and reports whether it did.
	Crumbs() []string
	Back() bool
}

// Shower is a view made of pages: the capabilities it does not have
// itself are looked for on the page it shows.
type Shower interface {
	Shown() any
}

// Filterer searches what it shows (/): SetFilter filters (a large table
// in the command it returns); Filter returns the active text.
type Filterer interface {
	SetFilter(text string) tea.Cmd
	Filter() string
}

// Exporter saves what it shows (ctrl+s): CSV returns a writer of it, as
// filtered and sorted now, holding immutable data, so that it may run on
// any goroutine.
type Exporter interface {
	CSV() func(io.Writer) error
}

// Selecter has a record under the cursor: its id (for copy) and the
// record (for the raw JSON pager); ok is false when there is none.
type Selecter interface {
	Selected() (id string, record any, ok bool)
}

// Commander offers palette commands.
type Commander interface {
	Commands() []Command
}

// As finds capability C on v, else on what v shows (and so on, down
// to a page that shows nothing else).
func As[C any](v any) (C, bool) {
	for range 8 { // a view of a view of pages is as deep as it goes
		if c, ok := v.(C); ok {
			return c, true
		}
		s, ok := v.(Shower)
		if !ok {
			break
		}
		v = s.Shown()
	}
	var none C
	return none, false
}

// FilterOf is v's search ("" when it has none).
func FilterOf(v any) string {
	if f, ok := As[Filterer](v); ok {
		return f.Filter()
	}
	return ""
}

// SetFilterOf sets v's search, if it has one.
func SetFilterOf(v any, text string) tea.Cmd {
	if f, ok := As[Filterer](v); ok {
		return f.SetFilter(text)
	}
	return nil
}

// SelectedOf is the record under v's cursor, if any.
func SelectedOf(v any) (id string, record any, ok bool) {
	if s, ok := As[Selecter](v); ok {
		return s.Selected()
	}
	return "", nil, false
}

// CSVOf is v's export (nil when it has none).
func CSVOf(v any) func(io.Writer) error {
	if e, ok := As[Exporter](v); ok {
		return e.CSV()
	}
	return nil
}

// CommandsOf are v's palette commands.
func CommandsOf(v any) []Command {
	if c, ok := v.(Commander); ok {
		return c.Commands()
	}
	return nil
}

// Command is a palette command, such as "payments failed" or
// "payment <id>".
type Command struct {
	Name string
	Args string // hint shown in completion, such as "<id or internalId>"
	Help string
	// Complete proposes values for the argument being typed.
	Complete func(prefix string) []string
	// Run executes the command with its arguments; the shell switches to
	// the command's view first when View is set.
	View route.Route
	Run  func(args []string) tea.Cmd
	// Global runs Run without opening the view that offers the command
	// first (":search <title>" opens the tab its argument names).
	Global bool
}

// Marker holds marks on its records (a table whose page acts on several
// at once): Marks counts them, for the header; esc clears them
// (ClearMarks returns how many there were) before it goes back.
type Marker interface {
	Marks() int
	ClearMarks() int
}

// MarksOf is how many records v has marked.
func MarksOf(v any) int {
	if m, ok := As[Marker](v); ok {
		return m.Marks()
	}
	return 0
}

// Layouter is a table page whose layout a saved view keeps (:save,
// searches:): the columns shown, by the names a search uses (none: every
// one), and the column sorted by ("" the given order).
type Layouter interface {
	Layout() (columns []string, sort string, desc bool)
	SetLayout(columns []string, sort string, desc bool) (tea.Cmd, error)
}

// FilterKeeper is a view whose search is what it shows (a saved search):
// esc on its root does not clear it.
type FilterKeeper interface {
	KeepsFilter() bool
}

// Jump opens the view named View as a tab or the palette does: the links
// followed are forgotten, esc does not come back.
type Jump struct{ View route.Route }

// JumpCmd returns a command that jumps to the view named name.
func JumpCmd(name route.Route) tea.Cmd { return func() tea.Msg { return Jump{View: name} } }

// StoreChanged tells views that the store has new data; they read the
// snapshots they need.
type StoreChanged struct{}

// Refresh is sent to the active view when the operator asks for a refresh
// (the shell's Refresh key): the store's topics are polled by the shell,
// and a page reads again what it fetched itself.
type Refresh struct{}

// Tick is sent every second: clocks, ages and change highlights move.
type Tick struct{ Now time.Time }

// Open asks a view to show something (sent by palette commands and
// cross-view links); Args are the command's arguments.
type Open struct {
	View route.Route
	Args []string
}

// Copy asks the shell to copy Text to the clipboard of the session's
// terminal (OSC 52), What naming it in the flash ("the ticket summary").
// Text is shown to select by hand where the terminal cannot take it.
type Copy struct {
	What, Text string
}

// Flash shows a message in the footer; an Err shows as an error with its
// code and guidance, after Text when both are set.
type Flash struct {
	Text string
	Err  error
	// Detail, when set, are the lines of a result of several records
	// (a batch), one per record, failures first: the dialog shows them
	// under Text; the footer shows Text only.
	Detail []string
	// Warn shows Text as a warning, as long as an error: what the
	// operator must not miss (an action cancelled, so not done).
	Warn bool
	// Pending shows Text until what it waits for replaces it (the next
	// flash, or a dialog): a read before a dialog that may take long.
	Pending bool
}

// PendingCmd returns a command that flashes text until the next flash or
// dialog: "waiting for the record…".
func PendingCmd(text string) tea.Cmd {
	return func() tea.Msg { return Flash{Text: text, Pending: true} }
}

// Confirm asks the shell to show a confirmation dialog; Run is executed only
// when the operator confirms. While it runs the dialog shows a spinner, the
// time elapsed and Waiting; its message is delivered to the views as any
// other, and the first flash that follows (the view's ResultCmd) is its
// outcome: the dialog, if still shown, shows it until closed (a failure in
// full: code, message, guidance), and the footer flashes it.
type Confirm struct {
	Title string
	// Intro says what the action will do (and any warning about it, such as
	// "the platform will likely refuse"); it is shown until the action has
	// run, and dropped from the result: it speaks of what was to come.
	Intro []string
	// Lines say which record: ids, names, amounts, the idempotency key,
	// what stays true once the action has run.
	Lines []string
	// Before are the record's state lines as shown when the dialog opened
	// ("Status  PENDING_APPROVAL, not frozen"). Once the action has run they
	// are not current: the result shows them under a "before" heading, so
	// that they are not read as the state the action left.
	Before []string
	// TypeToConfirm, when set (prod), must be typed before the confirm
	// button works: the last four characters of the record's id, or what
	// CodeIs says it is (a batch: the number of records).
	TypeToConfirm string
	CodeIs        string
	Action        string // button label, such as "Freeze"
	Run           tea.Cmd
	// Reason, when set, is the label of a required free-text reason (a
	// freeze, a lock); RunReason then runs instead of Run, with the text
	// typed.
	Reason      string
	ReasonValue string
	RunReason   func(reason string) tea.Cmd
	// Retry, when set, says that the action retries an attempt whose
	// outcome is unknown under the same idempotency key ("retry of <id>:
	// ...").
	Retry string
	// Waiting names what the running action waits for: "the wallet
	// interface: PUT …/transactions/<id>/freeze".
	Waiting string
	// OnCancel, when set, is called instead of the "cancelled" flash when
	// the dialog ends without running the action, or the shell would not
	// open it; its command says so (the actions layer records the attempt
	// first).
	OnCancel func(Cancelled) tea.Cmd
}

// Cancelled says how a confirmation ended without its action.
type Cancelled struct {
	// WrongCode: the operator had typed a code other than TypeToConfirm.
	WrongCode bool
	// Ended: the session ended with the dialog open.
	Ended bool
	// Reason is the reason typed before the cancel, if any: the audit log
	// keeps it.
	Reason string
	// Refused is why the shell did not open the dialog (ErrReadOnly).
	Refused error
}

// FlashCmd returns a command that flashes text.
func FlashCmd(text string) tea.Cmd { return func() tea.Msg { return Flash{Text: text} } }

// ErrorCmd returns a command that flashes an error.
func ErrorCmd(err error) tea.Cmd { return func() tea.Msg { return Flash{Err: err} } }

// ResultCmd returns the outcome of a confirmed action: text says what the
// server answered (new state, ids); a failure is err, with text saying what
// it means for the action (an unknown outcome, what a retry does).
func ResultCmd(text string, err error) tea.Cmd {
	return func() tea.Msg { return Flash{Text: text, Err: err} }
}

// OpenCmd returns a command that opens a view with arguments.
func OpenCmd(view route.Route, args ...string) tea.Cmd {
	return func() tea.Msg { return Open{View: view, Args: args} }
}
