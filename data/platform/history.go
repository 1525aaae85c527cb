package platform

import (
	"context"
	"path/filepath"
	"sync"

	"treasury/data/history"
	"treasury/data/live"
)

// historyRun is the history file of a started Platform: read by the
// store's charts, written by its recorder when this process holds it.
type historyRun struct {
	file *history.Store
	wg   sync.WaitGroup
}

// startHistory opens the profile's history file in dir (data/history),
// seeds the store's memory with its last HistoryWindow and makes longer
// chart reads come from it; when this process is the file's writer, it
// records the store into it until ctx ends (reading back what the
// platform can give when the file is new). What goes wrong is told in the
// log and, for a file replaced or not readable, as an alert: the
// dashboard runs without history rather than not at all.
func (p *Platform) startHistory(ctx context.Context, dir string, o history.Options, log func(msg string, args ...any)) *historyRun {
	path := filepath.Join(dir, history.FileName(p.Config.Profile))
	if p.rate != nil && p.rate() != 1 {
		// A clock faster than real time (the sandbox's --speed) would
		// write minutes ahead of the next start's.
		log("history: not kept: the clock runs faster than real time", "file", path)
		return nil
	}
	opened, err := history.Open(path, o)
	if err != nil {
		log("history: not kept", "file", path, "err", err)
		p.Store.Notice(live.Alert{Key: "history", Severity: live.Low, Code: "HISTORY",
			Title:    "History unavailable: " + err.Error(),
			Guidance: "Charts show what this process polled. Another process may be replacing the file: start again."})
		return nil
	}
	if opened.Notice != "" {
		log(opened.Notice)
		p.Store.Notice(live.Alert{Key: "history", Severity: live.Low, Code: "HISTORY", Title: opened.Notice,
			Guidance: "The damaged file is kept for inspection and can be deleted; history is recorded afresh."})
	}
	h := &historyRun{file: opened.Store}
	p.Store.SetArchive(h.file)
	if samples, err := h.file.Recent(ctx, p.now().Add(-p.Store.HistoryWindow())); err != nil {
		log("history: reading back", "file", path, "err", err)
	} else {
		p.Store.Remember(samples)
	}
	if !h.file.Writer() {
		log("history: another process writes the file; this one reads it", "file", path)
		return h
	}
	last, err := h.file.Newest(ctx)
	if err != nil {
		log("history: reading", "file", path, "err", err)
	}
	var bf *history.Backfill
	if err == nil {
		bf = &history.Backfill{Ledger: last.Empty()}
		if p.Liquidity != nil && !h.file.Done(ctx, history.QuotesDone) {
			bf.QuotesPage = p.Liquidity.QuotesPage
		}
	}
	rec := history.NewRecorder(h.file, p.Store, history.RecordOptions{Now: p.now, Runway: p.Runway, Log: p.log})
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		rec.Run(ctx, bf)
	}()
	return h
}

// close waits for the recorder's last write and closes the file.
func (h *historyRun) close() {
	if h == nil {
		return
	}
	h.wg.Wait()
	h.file.Close()
}
