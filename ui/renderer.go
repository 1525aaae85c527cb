package ui

import (
	"io"
	"strconv"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

// NewRenderer builds a session's renderer without asking its terminal
// anything: the colour profile comes from the environment (TERM,
// COLORTERM, NO_COLOR: TERM=dumb or NO_COLOR give plain text), and the
// background is taken as dark unless COLORFGBG says it is light. A
// terminal query (OSC 11) would be answered on the input the program
// reads its keys from: the first frame would wait on it and keys typed
// meanwhile would be lost. getenv is the session's environment (the
// process's for the local terminal, what an SSH client sent for it).
func NewRenderer(out io.Writer, getenv func(string) string, opts ...termenv.OutputOption) *lipgloss.Renderer {
	r := lipgloss.NewRenderer(out, opts...)
	if term := getenv("TERM"); getenv("NO_COLOR") != "" || term == "" || term == "dumb" {
		r.SetColorProfile(termenv.Ascii)
	}
	r.SetHasDarkBackground(darkBackground(getenv("COLORFGBG")))
	return r
}

// darkBackground reads COLORFGBG ("15;0": foreground;background, the
// background's ANSI colour last): 7 and 15 are light backgrounds. Unset
// or unreadable means dark, the common terminal default.
func darkBackground(colorfgbg string) bool {
	parts := strings.Split(colorfgbg, ";")
	bg, err := strconv.Atoi(parts[len(parts)-1])
	if colorfgbg == "" || err != nil {
		return true
	}
	return bg != 7 && bg != 15
}
