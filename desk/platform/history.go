package platform

import (
	"context"
	"encoding/json"
	"path/filepath"
	"sync"
	"time"

	"treasury/desk/history"
	"treasury/desk/live"
	"treasury/wire/liquidity"
)

// historyRun is the history file of a started Platform: read by the
// store's charts, written by its recorder while this process holds it.
type historyRun struct {
	wg sync.WaitGroup
	// files are the stores this process opened, the one charts read last:
	// a reader, then the writer it became when the writer ended.
	mu    sync.Mutex
	files []*history.Store
	// stopPast ends following the site's past (nil: no site).
	stopPast func()
}

// PastRelay carries the platform's past a backfill read between the
// processes of a site (a *site.Site): the poller shares what it read,
// every other process keeps it in its history as its own backfill would
// have, and reads none of it from the platform.
type PastRelay interface {
	SharePast([]byte) error
	FollowPast(apply func([]byte)) (stop func())
}

// SharePastWith, before Start, joins the history to a site's past.
func (p *Platform) SharePastWith(r PastRelay) { p.past = r }

// pastPiece bounds the rates and the balances of one message of the
// site's past (a week of a currency's minutes would not fit one).
const pastPiece = 1000

// Alert keys of the history file.
const (
	alertHistory      = "history"
	alertHistoryWrite = "history:write"
)

// startHistory opens the profile's history file in dir (desk/history),
// seeds the store's memory with its last HistoryWindow and makes longer
// chart reads come from it; when this process is the file's writer, it
// records the store into it until ctx ends (reading back what the
// platform can give when the file is new); when another process writes
// it, this one checks every o.WriterCheck whether that process has ended,
// and then takes the role over, so that history has a writer while any
// process runs. What goes wrong is told in the log and, for a file
// replaced, not readable or not writable, as an alert: the dashboard runs
// without history rather than not at all.
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
		p.Store.Notice(live.Alert{Key: alertHistory, Severity: live.Low, Code: "HISTORY",
			Title:    "History unavailable: " + err.Error(),
			Guidance: "Charts show what this process polled. Another process may be replacing the file: start again."})
		return nil
	}
	h := &historyRun{}
	h.adopt(p, opened, log)
	if samples, err := opened.Recent(ctx, p.now().Add(-p.Store.HistoryWindow())); err != nil {
		log("history: reading back", "file", path, "err", err)
	} else {
		p.Store.Remember(samples)
	}
	if p.past != nil {
		h.stopPast = p.past.FollowPast(func(b []byte) { h.takePast(ctx, p, b, log) })
	}
	if !opened.Writer() {
		log("history: another process writes the file; this one reads it, and takes the role over when that process ends", "file", path)
		h.wg.Add(1)
		go func() {
			defer h.wg.Done()
			h.waitForTheRole(ctx, p, path, o, log)
		}()
		return h
	}
	last, err := opened.Newest(ctx)
	if err != nil {
		log("history: reading", "file", path, "err", err)
	}
	var bf *history.Backfill
	switch pl := p.Store.Poller(); {
	case err == nil && pl.Here:
		// Only the process that polls reads the platform's past: in a
		// site, a bastion that follows keeps what it is handed.
		bf = &history.Backfill{Ledger: last.Empty()}
		if p.Liquidity != nil && !opened.Done(ctx, history.QuotesDone) {
			bf.QuotesPage = p.pastQuotes()
		}
	case err == nil && p.past != nil && p.Liquidity != nil && !opened.Done(ctx, history.QuotesDone):
		// A bastion of a site that does not poll yet (the site forms,
		// another holds the lease) reads the quotes' past once it polls,
		// unless the poller's read reached it whole meanwhile; it reads
		// only the minutes it was not handed.
		bf = &history.Backfill{QuotesPage: p.pastQuotes()}
	}
	if bf != nil && bf.QuotesPage != nil && p.past != nil {
		// In a site, each page of the past is read under the lease, as a
		// poll is: a process that no longer polls (stopped, cut off, the
		// lease taken by another) sends nothing more of it, and goes on
		// once it polls again.
		bf.Wait = p.waitToPoll
	}
	h.record(ctx, p, opened.Store, bf)
	return h
}

// adopt makes an opened store the one charts read, and says what opening
// it did (a damaged file moved aside, modes made 0600).
func (h *historyRun) adopt(p *Platform, opened *history.Opened, log func(msg string, args ...any)) {
	h.mu.Lock()
	h.files = append(h.files, opened.Store)
	h.mu.Unlock()
	p.Store.SetArchive(opened.Store)
	for _, m := range opened.Modes {
		log("history: " + m)
	}
	if opened.Notice != "" {
		log(opened.Notice)
		p.Store.Notice(live.Alert{Key: alertHistory, Severity: live.Low, Code: "HISTORY", Title: opened.Notice,
			Guidance: "The damaged file is kept for inspection and can be deleted; history is recorded afresh."})
	}
}

// waitForTheRole checks every o.WriterCheck whether the process that
// writes the file has ended (its lock is free) and, when it has, becomes
// the writer and records until ctx ends.
func (h *historyRun) waitForTheRole(ctx context.Context, p *Platform, path string, o history.Options, log func(msg string, args ...any)) {
	every := o.WriterCheck
	if every <= 0 {
		every = history.DefaultWriterCheck
	}
	t := time.NewTicker(every)
	defer t.Stop()
	var failed string
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		opened, err := history.TryWrite(path, o)
		if err != nil {
			if err.Error() != failed { // once per failure, not once per check
				failed = err.Error()
				log("history: the writer ended, and this process cannot take its role over", "file", path, "err", err)
			}
			continue
		}
		if opened == nil {
			continue // still written by another process
		}
		log("history: the process that wrote the file ended; this one writes it now", "file", path)
		h.adopt(p, opened, log)
		h.record(ctx, p, opened.Store, nil)
		return
	}
}

// record runs the recorder of file (this process's to write) until ctx
// ends; bf reads back what the platform can give into a new file. A file
// that cannot be written raises an alert once, withdrawn when it can be.
func (h *historyRun) record(ctx context.Context, p *Platform, file *history.Store, bf *history.Backfill) {
	rec := history.NewRecorder(file, p.Store, history.RecordOptions{Now: p.now, Runway: p.Runway, Log: p.log,
		Failing: func(err error) {
			p.Store.Notice(live.Alert{Key: alertHistoryWrite, Severity: live.Medium, Code: "HISTORY",
				Title:    "History is not being written: " + err.Error(),
				Guidance: "Charts go on from what this process polls, but nothing is kept for the next start. Make " + file.Path() + " and its folder writable by this user, or free space; writing resumes by itself."})
		},
		Writing: func() { p.Store.Withdraw(alertHistoryWrite) },
	})
	if p.past != nil {
		out := &pastOut{kick: make(chan struct{}, 1)}
		rec.Share(out.add)
		h.wg.Add(1)
		go func() {
			defer h.wg.Done()
			out.send(ctx, p)
		}()
	}
	h.wg.Add(1)
	go func() {
		defer h.wg.Done()
		rec.Run(ctx, bf)
	}()
}

// close waits for the recorder's last write and closes the files.
func (h *historyRun) close() {
	if h == nil {
		return
	}
	if h.stopPast != nil {
		h.stopPast()
	}
	h.wg.Wait()
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, f := range h.files {
		f.Close()
	}
}

// takePast keeps a piece of the platform's past another process of the
// site read: in the history file, when this process writes it, and in
// the store's memory, for the charts.
func (h *historyRun) takePast(ctx context.Context, p *Platform, b []byte, log func(msg string, args ...any)) {
	var x history.Past
	if err := json.Unmarshal(b, &x); err != nil {
		log("history: a piece of the site's past not read", "err", err)
		return
	}
	h.mu.Lock()
	var w *history.Store
	if n := len(h.files); n > 0 && h.files[n-1].Writer() {
		w = h.files[n-1]
	}
	h.mu.Unlock()
	if w != nil {
		if err := w.TakePast(ctx, x); err != nil && ctx.Err() == nil {
			log("history: the site's past not kept", "file", w.Path(), "err", err)
		}
	}
	p.Store.Remember(x.Batch.Samples(p.now().Add(-p.Store.HistoryWindow())))
}

// pastQuotes reads a page of the platform's past quotes for the site:
// under the site's lease (live.Store.ForSite), when the store is part of
// one.
func (p *Platform) pastQuotes() func(ctx context.Context, w liquidity.Window, page, size int) (liquidity.QuotesPage, error) {
	return func(ctx context.Context, w liquidity.Window, page, size int) (liquidity.QuotesPage, error) {
		return p.Liquidity.QuotesPage(p.Store.ForSite(ctx), w, page, size)
	}
}

// waitToPoll waits until this process polls for the site (true), or ctx
// ends (false).
func (p *Platform) waitToPoll(ctx context.Context) bool {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for !p.Store.Poller().Here {
		select {
		case <-ctx.Done():
			return false
		case <-t.C:
		}
	}
	return true
}

// pastOut holds the pieces of the platform's past this process read
// until the site takes them: a site that cannot keep them yet (its
// nodes not all up) takes them later, in order, none lost.
type pastOut struct {
	mu      sync.Mutex
	pending [][]byte
	kick    chan struct{}
}

// pastHeld bounds the pieces held for a site that cannot take them (a
// week's read back is a few hundred).
const pastHeld = 20000

func (o *pastOut) add(x history.Past) {
	o.mu.Lock()
	for _, piece := range x.Pieces(pastPiece) {
		if b, err := json.Marshal(piece); err == nil && len(o.pending) < pastHeld {
			o.pending = append(o.pending, b)
		}
	}
	o.mu.Unlock()
	select {
	case o.kick <- struct{}{}:
	default:
	}
}

// send shares the pieces held, the oldest first, until ctx ends; a
// failure is logged once (not once per piece) and tried again.
func (o *pastOut) send(ctx context.Context, p *Platform) {
	var failed string
	for {
		o.mu.Lock()
		var next []byte
		if len(o.pending) > 0 {
			next = o.pending[0]
		}
		o.mu.Unlock()
		wait := o.kick
		var retry <-chan time.Time
		if next != nil {
			err := p.past.SharePast(next)
			if err == nil {
				o.mu.Lock()
				o.pending = o.pending[1:]
				o.mu.Unlock()
				failed = ""
				continue
			}
			if err.Error() != failed {
				failed = err.Error()
				p.logWarn("history: the platform's past not shared with the site yet: tried again", "err", err)
			}
			wait, retry = nil, time.After(pastRetry)
		}
		select {
		case <-ctx.Done():
			return
		case <-wait:
		case <-retry:
		}
	}
}

// pastRetry is how long a piece the site did not take waits.
const pastRetry = 5 * time.Second
