package ui

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"treasury/ui/sanitize"
)

// :ctx switches the session to another profile of the configuration file
// (k9s's :ctx): the shell does not, the program that runs it does (the
// dashboard's or serve's, commands/dashboard.Shell), which opens the
// profile's runtime, drops this session's shell with the data of the
// profile it showed, and starts a new one on the other profile. :ctx with
// no name lists the profiles to pick from in the palette.

// SwitchProfile asks the program that runs the shell to switch this
// session to profile Name.
type SwitchProfile struct{ Name string }

// openPaletteWith opens the palette with a line typed (its completions).
type openPaletteWith struct{ text string }

// ctxCommand is the palette's :ctx.
func (a *App) ctxCommand() Command {
	return Command{Name: "ctx", Args: "[profile]", Help: "switch to another profile of the configuration file (the data of this one dropped)",
		Global: true,
		Complete: func(prefix string) []string {
			var out []string
			for _, n := range a.profiles() {
				if strings.HasPrefix(strings.ToLower(n), strings.ToLower(prefix)) && sanitize.Safe(n) {
					out = append(out, n)
				}
			}
			return out
		},
		Run: a.switchProfile}
}

// profiles are the profiles :ctx may name.
func (a *App) profiles() []string {
	if a.ctx.Profiles == nil {
		return nil
	}
	return a.ctx.Profiles()
}

// switchProfile is :ctx [name].
func (a *App) switchProfile(args []string) tea.Cmd {
	names := a.profiles()
	if a.ctx.Profiles == nil {
		return ErrorCmd(errors.New(":ctx: this session has no other profile to switch to (no configuration file)"))
	}
	if len(args) == 0 {
		return func() tea.Msg { return openPaletteWith{text: "ctx "} }
	}
	name := strings.Join(args, " ")
	switch {
	case name == a.ctx.Profile:
		return FlashCmd("already on profile " + sanitize.Line(name))
	case !slices.Contains(names, name):
		return ErrorCmd(fmt.Errorf(":ctx: no profile %q in the configuration file (profiles: %s)", sanitize.Line(name),
			sanitize.Line(strings.Join(names, ", "))))
	}
	if busy := a.Busy(); busy != "" {
		return ErrorCmd(fmt.Errorf(":ctx %s: not while %s", sanitize.Line(name), busy))
	}
	return func() tea.Msg { return SwitchProfile{Name: name} }
}

// Busy says what of this session a switch would cut short: an action
// whose answer has not come (its dialog shown or hidden), a confirmation
// being answered; "" when nothing.
func (a *App) Busy() string {
	if d := a.shownDialog(); d != nil && (d.state == running || d.state == settling) {
		return "an action runs (its dialog is open)"
	}
	if len(a.background) > 0 {
		return "an action runs in the background"
	}
	if len(a.dialogs()) > 0 {
		return "a confirmation is open"
	}
	return ""
}

// reopenPalette opens the palette with text typed.
func (a *App) reopenPalette(text string) {
	a.palette.open()
	a.palette.input.SetValue(text)
	a.palette.input.CursorEnd()
	a.palette.refresh()
	a.push(a.palette)
}
