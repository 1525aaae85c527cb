// Package ui is the dashboard's shell: the frame every view plugs into
// (header with environment badge, health and alerts; tabs; footer with
// flash messages), the command palette, help generated from key bindings,
// the raw-record pager, the confirmation dialog, and the shared Context that
// carries the session's renderer, theme, size and store. Views live in
// views/ and reach the shell only through the View interface; ui never
// imports them.
package ui

import (
	"context"
	"time"

	"github.com/charmbracelet/colorprofile"

	"treasury/config"
	"treasury/desk/live"
	"treasury/kit/keep"
	"treasury/wire/webhook"
)

// Context is what a view is given: what its session owns (Session: the
// terminal, its colours, size and operator) and what the process shares
// with every session (Shared: the store, what is kept for display, the profile, the
// process's hooks). A session's Context is built once and handed down;
// two sessions' Contexts hold the same *Shared and Sessions of their own.
// The fields of both are promoted (ctx.Store, ctx.Theme).
type Context struct {
	*Shared
	Session
}

// Apart is a copy of c whose Shared is a copy too: a context of another
// process (its own store, its own kept drawings), for a test that sets them;
// a copy of the Context alone shares c's Shared, as sessions do.
func (c *Context) Apart() *Context {
	out := *c
	sh := *c.Shared
	out.Shared = &sh
	return &out
}

// Shared is what every session of the process shares.
type Shared struct {
	Store *live.Store
	// Profile and Environment ("test", "prod") name where the data comes
	// from; Environment drives the header badge and confirmations.
	Profile     string
	Environment string
	// Now is the clock; time.Now when nil.
	Now func() time.Time
	// Webhooks reports the PAYMENT_STATE_TRANSITION receiver: listening
	// or why not (the header says when it is not), and what it refused
	// (the errors view); nil when the profile configures none.
	Webhooks func() webhook.Status
	// Token says when the payments token the client holds now was asked
	// for and when it expires, on Now's clock (zeros when none is held):
	// the header's time to expiry is that token's, not the one the last
	// token test read, which the client may have replaced since. Nil: the
	// header shows the last test's reading.
	Token func() (issued, expiry time.Time)
	// Kept is what the process makes for display once for every session
	// (charts, panels, table rows, fitted lines: kit/keep), each dropped
	// when no session asked for it in a while; nil makes each in the
	// session.
	Kept *keep.Registry
	// Keys are the profile's keys in force (keys:; zero: the defaults).
	Keys config.Keymap
}

// Session is what belongs to one session: its terminal, colours, size,
// operator and life.
type Session struct {
	// Colors is the colour profile of the session's terminal (see
	// ColorProfile) and Dark whether its background is dark; Theme is
	// built for both (NewTheme) and rebuilt when the terminal says its
	// background is not what was assumed.
	Colors colorprofile.Profile
	Dark   bool
	Theme  Theme
	// Skin is the profile's theme: (its colours; nil: the default).
	Skin Skin
	// Commands are the profile's custom commands, as this session may
	// run them; CommandLog logs each run (nil: not logged).
	Commands   []CustomCommand
	CommandLog func(msg string, args ...any)
	// ReadOnly refuses every action in this session (a viewer, or
	// --read-only).
	ReadOnly bool
	// Operator names who acts, for the audit log (local user, or SSH user
	// and key fingerprint).
	Operator string
	// Terminal says the session's program writes to a terminal (the local
	// one or the SSH session), which then gets the clipboard (OSC 52) and
	// alert notifications, written by the program between frames; false
	// disables both.
	Terminal bool
	// Mouse says the terminal reports clicks and the wheel (the profile's
	// mouse: true).
	Mouse bool
	// Term is the session's TERM (the local one, or what the SSH client
	// sent); LocalTmux says the local program runs inside tmux (its own
	// TMUX variable), never set for an SSH session.
	Term      string
	LocalTmux bool
	// SaveDir is where ctrl+s writes CSV files and reports are saved.
	SaveDir string
	// SaveView writes a view's layout as a saved search to the profile's
	// file (:save), says where ("file:line") and returns its tab (nil
	// when none could be built: it opens at the next start); nil where a
	// session may not (over treasury serve the file is the server's).
	SaveView func(config.Search) (where string, tab View, err error)
	// Life ends when the session does (an SSH client disconnects, the
	// program quits): the reads made for the session end with it. Nil
	// means the process's lifetime.
	Life context.Context
	// AlertTerminal says whether a new critical alert rings the bell and
	// raises a desktop notification (alerts.terminal, as in effect now);
	// nil does neither.
	AlertTerminal func() (bell, desktop bool)
	// Profiles are the profiles :ctx may name (the configuration file's),
	// for its completion; nil where the session cannot switch (a test's
	// shell, a profile without a file).
	Profiles func() []string
	// Width and Height are the size of the view body, kept up to date by
	// the shell.
	Width, Height int
	// shown is the clock at the session's last tick (Shown).
	shown time.Time
}

// Clock returns the context's current time.
func (c *Context) Clock() time.Time {
	if c.Shared != nil && c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// Shown is the time a frame's clock and ages are drawn for: the clock at
// the session's last tick (the host clock's second), or now before the
// first. A frame drawn for a store change between two ticks shows the
// ages and the clock its tick did, which hold until the next tick (Age's
// bound is taken a second ahead): they change at ticks only, all in the
// same frame, and a frame drawn for new data does not also step an age
// and differ from the last one for that alone. What is judged rather than
// shown (an expiry passed, a deadline) reads Clock.
func (c *Context) Shown() time.Time {
	if c.shown.IsZero() {
		return c.Clock()
	}
	return c.shown
}

// Plain reports whether the session's terminal shows no styles at all
// (NO_COLOR, TERM=dumb): what styles mark (the selected row, the open tab,
// the focused field) must then be marked by characters.
func (c *Context) Plain() bool {
	return c.Colors <= colorprofile.NoTTY
}

// Prod reports whether the session acts on production.
func (c *Context) Prod() bool { return c.Environment == "prod" }
