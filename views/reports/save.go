package reports

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	tea "charm.land/bubbletea/v2"

	"treasury/desk/live"
	"treasury/ui"
	"treasury/ui/sanitize"
	"treasury/views/viewkit"
	"treasury/wire/reporting"
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
	return saveFile(saveDir(p.v.ctx), p.dl)
}

// downloaded is the answer of a download made to be saved from the list.
type downloaded struct {
	viewkit.Replied
	d   *reporting.Download
	err error
}

// downloadAndSave downloads the report selected in the list (the store's
// read of it, shared with its page) and saves it as save does.
func (v *View) downloadAndSave(r reporting.Report) tea.Cmd {
	if v.p == nil || v.p.Reporting == nil {
		return ui.ErrorCmd(errors.New("save report: this profile has no reporting interface"))
	}
	store := v.ctx.Store
	if r.Status != reporting.StatusReady {
		r = reporting.Report{ID: r.ID} // asked for by id: it may be ready now
	}
	k := live.Ask(store, v.p.Reads.Report, r)
	return tea.Batch(ui.FlashCmd("downloading "+sanitize.Line(r.ID)+" to save it…"),
		viewkit.Run(v.ctx, func(ctx context.Context) (*reporting.Download, error) {
			if err := store.ReadNow(ctx, k.Topic(), time.Time{}).Err; err != nil {
				return nil, err
			}
			return live.Get(store, k).Data, nil
		}, func(d *reporting.Download, err error) downloaded { return downloaded{d: d, err: err} }))
}

// saveDownloaded saves a download made by downloadAndSave; content that
// could not be parsed is saved all the same, as downloaded.
func (v *View) saveDownloaded(msg downloaded) tea.Cmd {
	if msg.d == nil {
		if msg.err == nil {
			msg.err = errors.New("nothing was downloaded")
		}
		return ui.ErrorCmd(fmt.Errorf("save report: %w", msg.err))
	}
	return saveFile(saveDir(v.ctx), msg.d)
}

// saveDir is where reports are saved: the session's save directory, by
// its full path.
func saveDir(ctx *ui.Context) string { return ui.SaveDir(ctx) }

// saveFile creates the download's file in dir (mode 0600, refusing to
// replace a file) with its bytes as downloaded.
func saveFile(dir string, d *reporting.Download) tea.Cmd {
	path, data := filepath.Join(dir, d.FileName()), d.Raw
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
