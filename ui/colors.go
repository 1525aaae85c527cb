package ui

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/colorprofile"
)

// ColorProfile is the colour profile of a session's terminal, from its
// environment (getenv: the process's for the local terminal, what an SSH
// client sent for it), asking the terminal nothing: TERM, COLORTERM and
// the rest colorprofile reads give the colours; NO_COLOR (any value, as
// no-color.org says), an empty TERM, TERM=dumb or a terminal without
// colours give plain text (NoTTY: no colours and no attributes, as the
// dashboard has always drawn for them; what styles would mark is marked
// by characters, see Context.Plain). The session's program writes with
// this profile (tea.WithColorProfile) and its theme is built for it.
func ColorProfile(getenv func(string) string) colorprofile.Profile {
	var env []string
	for _, k := range []string{"TERM", "COLORTERM", "NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "TMUX", "GOOGLE_CLOUD_SHELL"} {
		if v := getenv(k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	p := colorprofile.Env(env)
	if term := getenv("TERM"); getenv("NO_COLOR") != "" || term == "" || term == "dumb" || p <= colorprofile.ASCII {
		p = colorprofile.NoTTY
	}
	return p
}

// DarkBackground reads COLORFGBG ("15;0": foreground;background, the
// background's ANSI colour last): 7 and 15 are light backgrounds. Unset
// or unreadable means dark, the common terminal default. It is the guess
// a session starts with; the terminal's own answer (tea.BackgroundColorMsg,
// asked without waiting for it) replaces it when it comes.
func DarkBackground(colorfgbg string) bool {
	parts := strings.Split(colorfgbg, ";")
	bg, err := strconv.Atoi(parts[len(parts)-1])
	if colorfgbg == "" || err != nil {
		return true
	}
	return bg != 7 && bg != 15
}
