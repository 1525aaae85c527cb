// Package journal writes log records to a stream the way systemd's
// journal keeps them (sd-daemon(3)): one line a record, led by its
// syslog priority in angle brackets (<3> error, <4> warning, <6> info,
// <7> debug), which journald takes as the entry's priority and strips;
// no time stamp, which journald adds; then the message and its
// attributes as key=value, quoted where needed (slog's text form):
// `<6>ssh session start user=ana role=viewer`. `journalctl -u treasury
// -p warning` and a grep both work.
package journal

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// Handler is a slog.Handler writing journal lines to its writer.
type Handler struct {
	out  *output
	text slog.Handler
}

// output is the writer and the buffer the handlers derived from one
// share, with the lock that keeps their lines whole.
type output struct {
	mu  sync.Mutex
	w   io.Writer
	buf bytes.Buffer
}

// NewHandler writes to w records at level and above (nil: Info).
func NewHandler(w io.Writer, level slog.Leveler) *Handler {
	out := &output{w: w}
	text := slog.NewTextHandler(&out.buf, &slog.HandlerOptions{Level: level, ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
		if len(groups) == 0 && (a.Key == slog.TimeKey || a.Key == slog.LevelKey || a.Key == slog.MessageKey) {
			return slog.Attr{}
		}
		return a
	}})
	return &Handler{out: out, text: text}
}

// Enabled reports whether records of level are written.
func (h *Handler) Enabled(ctx context.Context, l slog.Level) bool { return h.text.Enabled(ctx, l) }

// Handle writes r as one line.
func (h *Handler) Handle(ctx context.Context, r slog.Record) error {
	o := h.out
	o.mu.Lock()
	defer o.mu.Unlock()
	o.buf.Reset()
	if err := h.text.Handle(ctx, r); err != nil {
		return err
	}
	attrs := bytes.TrimSpace(o.buf.Bytes())
	// One line whatever the message holds: a newline would start an
	// entry of its own, without the priority.
	msg := strings.NewReplacer("\n", " ", "\r", " ").Replace(r.Message)
	line := make([]byte, 0, len(msg)+len(attrs)+8)
	line = append(line, "<"+strconv.Itoa(Priority(r.Level))+">"+msg...)
	if len(attrs) > 0 {
		line = append(append(line, ' '), attrs...)
	}
	_, err := o.w.Write(append(line, '\n'))
	return err
}

// WithAttrs is the handler with attrs on every record.
func (h *Handler) WithAttrs(attrs []slog.Attr) slog.Handler {
	return &Handler{out: h.out, text: h.text.WithAttrs(attrs)}
}

// WithGroup is the handler with its later attributes in group name.
func (h *Handler) WithGroup(name string) slog.Handler {
	return &Handler{out: h.out, text: h.text.WithGroup(name)}
}

// Priority is the syslog priority of a level: 3 error, 4 warning, 6
// info, 7 debug.
func Priority(l slog.Level) int {
	switch {
	case l >= slog.LevelError:
		return 3
	case l >= slog.LevelWarn:
		return 4
	case l >= slog.LevelInfo:
		return 6
	}
	return 7
}

// IsJournal reports whether f is the stream systemd connected to the
// journal: JOURNAL_STREAM (device:inode, set by systemd for a service
// whose output goes to the journal) names f's file.
func IsJournal(f *os.File, getenv func(string) string) bool {
	dev, ino, ok := strings.Cut(getenv("JOURNAL_STREAM"), ":")
	if !ok || f == nil {
		return false
	}
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && strconv.FormatUint(uint64(st.Dev), 10) == dev && strconv.FormatUint(st.Ino, 10) == ino
}
