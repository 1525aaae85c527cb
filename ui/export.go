package ui

import (
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/aymanbagabas/go-osc52/v2"
	tea "github.com/charmbracelet/bubbletea"

	"treasury/ui/sanitize"
)

// What leaves the dashboard: the selected id copied to the clipboard (OSC
// 52, through the session's terminal) and tables saved as CSV files.

func (a *App) copySelected() tea.Cmd {
	id, _, ok := a.Active().Selected()
	if !ok || id == "" {
		a.setFlash(Flash{Text: "nothing selected to copy"})
		return nil
	}
	if a.ctx.Output == nil {
		a.setFlash(Flash{Text: "copy is not available in this session"})
		return nil
	}
	seq := osc52.New(id)
	if os.Getenv("TMUX") != "" {
		seq = seq.Tmux()
	}
	if _, err := seq.WriteTo(a.ctx.Output); err != nil {
		a.setFlash(Flash{Err: fmt.Errorf("copy: %w", err)})
		return nil
	}
	a.setFlash(Flash{Text: "copied " + id})
	return nil
}

func (a *App) saveCSV() tea.Cmd {
	v := a.Active()
	dir := a.ctx.SaveDir
	if dir == "" {
		dir = "."
	}
	name := filepath.Join(dir, fmt.Sprintf("%s-%s.csv", strings.Join(append([]string{v.Name()}, v.Crumbs()...), "-"), a.ctx.Clock().UTC().Format("20060102T150405Z")))
	name = filepath.Join(dir, safeFileName(filepath.Base(name)))
	write := v.CSV() // what is shown now, immutable: the command may run while the view moves on
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
			safe[i] = sanitize.CSVCell(c)
		}
		if err := w.Write(safe); err != nil {
			return err
		}
	}
	w.Flush()
	return w.Error()
}
