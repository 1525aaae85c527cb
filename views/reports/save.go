package reports

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	tea "github.com/charmbracelet/bubbletea"

	"treasury/ui"
)

// save writes the report shown to the session's save directory, byte for
// byte as downloaded, with mode 0600; an existing file is never
// overwritten. The file is written off the update loop.
func (p *reportPage) save() tea.Cmd {
	if p.dl == nil {
		if p.loading {
			return ui.FlashCmd("the report is still downloading")
		}
		return ui.ErrorCmd(errors.New("save report: nothing downloaded (r downloads it again)"))
	}
	dir := p.v.ctx.SaveDir
	if dir == "" {
		dir = "."
	}
	return saveFile(filepath.Join(dir, p.dl.FileName()), p.dl.Raw)
}

// saveFile creates path (mode 0600, refusing to replace a file) with data.
func saveFile(path string, data []byte) tea.Cmd {
	return func() tea.Msg {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if errors.Is(err, fs.ErrExist) {
			return ui.Flash{Err: fmt.Errorf("save report: %s already exists; not overwritten", path)}
		}
		if err != nil {
			return ui.Flash{Err: fmt.Errorf("save report: %w", err)}
		}
		_, err = f.Write(data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(path)
			return ui.Flash{Err: fmt.Errorf("save report: %w", err)}
		}
		return ui.Flash{Text: fmt.Sprintf("saved %s (%d bytes as downloaded)", path, len(data))}
	}
}
