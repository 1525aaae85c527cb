package ui

import (
	"encoding/csv"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"treasury/ui/sanitize"
)

// What leaves the dashboard: the selected id copied to the clipboard (OSC
// 52, through the session's terminal) and tables saved as CSV files.

// tmuxSetBuffer sets the local tmux's paste buffer to text; tests replace
// it.
var tmuxSetBuffer = func(text string) error { return exec.Command("tmux", "set-buffer", "--", text).Run() }

// copySelected copies the selected id to the clipboard of the terminal of
// the session that asked (OSC 52, tea.SetClipboard: the session's program
// writes it on its own output, between frames, never on the server's
// terminal). Inside tmux (the local program's own TMUX) tmux's buffer is
// set directly, which works whatever tmux's set-clipboard; an SSH client
// whose TERM names tmux or screen gets the sequence plain (tmux with
// set-clipboard on takes it) and wrapped for passthrough (allow-passthrough
// on). A terminal that cannot take it (TERM=dumb, no terminal) gets the id
// in a dialog to select by hand.
//
// OSC 52 is fire and forget: no answer says whether the terminal took it
// (tmux with set-clipboard external, a terminal that ignores it), so the
// flash says it was sent, not copied. Only a tmux set-buffer that exits 0
// is a known copy, and only then does the flash say "copied".
func (a *App) copySelected() tea.Cmd {
	id, _, ok := SelectedOf(a.Active())
	if !ok || id == "" {
		a.setFlash(Flash{Text: "nothing selected to copy"})
		return nil
	}
	return a.copyText("", id)
}

// copyText copies text as copySelected does; what names it in the flash
// ("" for an id, which the flash quotes).
func (a *App) copyText(what, text string) tea.Cmd {
	name := what
	if name == "" {
		name = sanitize.Line(text)
	}
	if !a.ctx.Terminal || a.ctx.Term == "" || a.ctx.Term == "dumb" {
		closes := a.keys.Back.Help().Key + " closes:"
		title := "This terminal cannot take the id (no OSC 52): select it by hand; " + closes
		if what != "" {
			title = "This terminal cannot take " + what + " (no OSC 52): select it by hand; " + closes
		}
		a.showCopy(title, text)
		return nil
	}
	cmds := []tea.Cmd{tea.SetClipboard(text)}
	if t := a.ctx.Term; !a.ctx.LocalTmux && (strings.HasPrefix(t, "tmux") || strings.HasPrefix(t, "screen")) {
		cmds = append(cmds, tea.Raw(ansi.TmuxPassthrough(ansi.SetSystemClipboard(text))))
	}
	sent := "sent " + name + " to your terminal's clipboard (OSC 52; if it did not arrive, C shows it)"
	a.setFlash(Flash{Text: sent})
	if a.ctx.LocalTmux {
		cmds = append(cmds, func() tea.Msg {
			if err := tmuxSetBuffer(text); err != nil {
				return Flash{Text: sent, Err: fmt.Errorf("copy to tmux's buffer: %w", err)}
			}
			return Flash{Text: "copied " + name + " to tmux's buffer (C shows it to select by hand)"}
		})
	}
	return tea.Batch(cmds...)
}

// showCopy opens the dialog that shows text to select by hand.
func (a *App) showCopy(title, text string) {
	a.push(a.pager(newTextPager(a.ctx, title, text, a.width, a.height-a.chrome())))
}

func (a *App) saveCSV() tea.Cmd {
	v := a.Active()
	dir := SaveDir(a.ctx)
	name := filepath.Join(dir, fmt.Sprintf("%s-%s.csv", strings.Join(append([]string{string(v.Name())}, v.Crumbs()...), "-"), a.ctx.Clock().UTC().Format("20060102T150405Z")))
	name = filepath.Join(dir, safeFileName(filepath.Base(name)))
	write := CSVOf(v) // what is shown now, immutable: the command may run while the view moves on
	if write == nil {
		a.setFlash(Flash{Text: "nothing to save here"})
		return nil
	}
	return func() tea.Msg {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return Flash{Err: fmt.Errorf("save CSV: %w", err)}
		}
		f, err := os.OpenFile(name, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err != nil {
			return Flash{Err: fmt.Errorf("save CSV: %w", err)}
		}
		err = write(f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(name)
			return Flash{Err: fmt.Errorf("save CSV: %w", err)}
		}
		return Flash{Text: "saved " + name}
	}
}

// SaveDir is the folder the session saves files to (CSV, reports) by its
// full path, which every flash of a save names: "saved ledger-….csv"
// leaves the reader to guess the folder (the working directory, or an
// SSH user's exports).
func SaveDir(ctx *Context) string {
	dir := ctx.SaveDir
	if dir == "" {
		dir = "."
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	return dir
}

func safeFileName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r < 0x20 || r == ' ' || r == ':' {
			return '_'
		}
		return r
	}, s)
}

// WriteCSVRows is a helper for views that are not tables: header and rows,
// each cell guarded as the table guards its cells (sanitize.CSVCell).
func WriteCSVRows(w *csv.Writer, header []string, rows [][]string) error {
	for _, rec := range append([][]string{header}, rows...) {
		safe := make([]string, len(rec))
		for i, c := range rec {
			safe[i] = sanitize.CSVCell(sanitize.Line(c))
		}
		if err := w.Write(safe); err != nil {
			return err
		}
	}
	w.Flush()
	return w.Error()
}
