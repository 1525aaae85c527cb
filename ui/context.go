// Package ui is the dashboard's shell: the frame every view plugs into
// (header with environment badge, health and alerts; tabs; footer with
// flash messages), the command palette, help generated from key bindings,
// the raw-record pager, the confirmation dialog, and the shared Context that
// carries the session's renderer, theme, size and store. Views live in
// views/ and reach the shell only through the View interface; ui never
// imports them.
package ui

import (
	"io"
	"time"

	"github.com/charmbracelet/lipgloss"

	"treasury/data/live"
)

// Context is what every view of one session shares: the session's renderer
// and theme (an SSH client's colours are not the server's), the store, the
// profile, and the body size. It is built once per session and handed down.
type Context struct {
	Renderer *lipgloss.Renderer
	Theme    Theme
	Store    *live.Store
	// Profile and Environment ("test", "prod") name where the data comes
	// from; Environment drives the header badge and confirmations.
	Profile     string
	Environment string
	ReadOnly    bool
	// Operator names who acts, for the audit log (local user, or SSH user
	// and key fingerprint).
	Operator string
	// Now is the clock; time.Now when nil.
	Now func() time.Time
	// Output receives OSC 52 clipboard sequences (the terminal or the SSH
	// session); nil disables copying.
	Output io.Writer
	// SaveDir is where ctrl+s writes CSV files and reports are saved.
	SaveDir string
	// Webhooks says whether this process receives the platform's payment
	// notifications (a webhook receiver runs): without one none can
	// arrive, and a view says so rather than "none received".
	Webhooks bool
	// Width and Height are the size of the view body, kept up to date by
	// the shell.
	Width, Height int
}

// Clock returns the context's current time.
func (c *Context) Clock() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// Prod reports whether the session acts on production.
func (c *Context) Prod() bool { return c.Environment == "prod" }
