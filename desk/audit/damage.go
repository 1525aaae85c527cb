package audit

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// TornSuffix names the file beside the log that a torn last line is moved
// to: audit.jsonl.torn-<UTC time>.
const TornSuffix = ".torn-"

// repairTorn moves a torn last line (raw, found at offset at: a write cut
// short by a crash or a full disk) to a file beside the log, cuts the log
// back to its last whole line and appends a line that records the repair.
// The caller holds l.mu and the exclusive file lock, under which no
// writer is mid-line: the torn write's process ended. When the repair
// cannot be made (the directory cannot be written), the log is unwritable
// and the torn bytes stay, to be moved at the next append.
func (l *Log) repairTorn(raw []byte, at int64) error {
	name, err := l.keepTorn(raw)
	if err == nil {
		if err = l.f.Truncate(at); err == nil {
			err = l.f.Sync()
		}
	}
	if err != nil {
		l.unwritable = fmt.Errorf("audit: %s ends with a torn line (%s) that cannot be moved aside: %w", l.path, countBytes(len(raw)), err)
		return nil
	}
	l.end = at
	detail := map[string]string{"file": name, "bytes": strconv.Itoa(len(raw)), "offset": strconv.FormatInt(at, 10), "digest": digest(raw)}
	for k, v := range tornFields(raw) {
		detail[k] = v
	}
	r, err := l.appendLocked(Record{Who: l.who, Action: ActionRepair, Outcome: OutcomeDone,
		Target: Target{Kind: "audit", ID: filepath.Base(name), Detail: detail},
		Reason: "a torn last line (a write cut short) was moved aside; the lines before it are intact"})
	if err != nil {
		return nil // unwritable says why
	}
	l.notices = append(l.notices, fmt.Sprintf(
		"audit: the last line of %s was torn (%s: a write cut short by a crash or a full disk): moved to %s; the lines before it and the keys of their attempts are kept; the repair is line seq %d",
		l.path, countBytes(len(raw)), name, r.Seq))
	return nil
}

// tornField finds a string field of a record in a torn line.
var tornField = regexp.MustCompile(`"(seq|outcome|action|mutationId|intentId)":("[^"]*"|[0-9]+)`)

// tornFields are what can be read of a torn line that was an attempt
// (its "outcome" is "attempt"): "attempt" (the seq it had), and its action
// and key where the cut left them; nil for any other line. Verify lists a
// torn attempt that no copy replaced.
func tornFields(raw []byte) map[string]string {
	got := map[string]string{}
	for _, m := range tornField.FindAllSubmatch(raw, -1) {
		got[string(m[1])] = strings.Trim(string(m[2]), `"`)
	}
	if got["outcome"] != OutcomeAttempt {
		return nil
	}
	out := map[string]string{"attempt": cmp.Or(got["seq"], "?")}
	for _, k := range []string{"action", "mutationId", "intentId"} {
		if got[k] != "" {
			out[k] = got[k]
		}
	}
	return out
}

// keepTorn writes raw to a new file beside the log, synced, and returns
// its name.
func (l *Log) keepTorn(raw []byte) (string, error) {
	base := l.path + TornSuffix + l.now().UTC().Format("20060102T150405Z")
	for i := 0; ; i++ {
		name := base
		if i > 0 {
			name += "-" + strconv.Itoa(i)
		}
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, os.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		_, err = l.writer(f).Write(raw)
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(name)
			return "", err
		}
		syncDir(filepath.Dir(name))
		return name, nil
	}
}

// syncDir syncs a directory, so a file created in it survives a crash.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

// State is what the log says of itself now.
type State struct {
	// Breaks are the breaks of the chain no operator has acknowledged:
	// those of the file, then the times this process found it shrunk or
	// replaced.
	Breaks []Break
	// Acknowledged counts the breaks acknowledged.
	Acknowledged int
	// Unwritable is why an append would be refused now (read-only, a
	// directory that cannot be written, a failed write); nil when the
	// last write worked.
	Unwritable error
	// Lines and LastSeq are the file's as read.
	Lines   int
	LastSeq uint64
}

// State says what is wrong with the log now, as read at the last append,
// Refresh or Recent.
func (l *Log) State() State {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := State{Unwritable: l.cannot, Lines: l.w.s.Lines, LastSeq: l.w.s.LastSeq}
	if s.Unwritable == nil {
		s.Unwritable = l.unwritable
	}
	switch {
	case l.diverged != nil:
		s.Unwritable = l.diverged
	case s.Unwritable == nil && l.siteErr != nil:
		s.Unwritable = l.siteErr
	}
	for _, b := range append(append([]Break(nil), l.w.s.Breaks...), l.shrunk...) {
		if b.Ack != nil {
			s.Acknowledged++
		} else {
			s.Breaks = append(s.Breaks, b)
		}
	}
	return s
}

// Ack appends, for each break of the file no operator has acknowledged, a
// line that acknowledges it, by who (the log's own operator when zero)
// and with reason, and returns them: the breaks stay in the file (Verify
// lists them with their acknowledgement) and stop being reported. The
// times a running process found the file shrunk or replaced, which the
// file cannot show and this process may not have seen, are acknowledged
// by one more line naming them as reported (ReportedBreaks): every
// process withdraws the reports it made before it read that line.
func (l *Log) Ack(who Who, reason string) ([]Record, error) {
	if who == (Who{}) {
		who = l.who
	}
	var out []Record
	err := l.locked(func() error {
		ack := func(b Break, id string) error {
			name := "line " + strconv.Itoa(b.Line)
			if id == ReportedBreaks {
				name = ReportedBreaks
			}
			r, err := l.appendLocked(Record{Who: who, Action: ActionAck, Outcome: OutcomeDone, Reason: reason,
				Target: Target{Kind: "audit", ID: name, Detail: map[string]string{
					"break": id, "line": strconv.Itoa(b.Line), "kind": b.Kind, "detail": b.Detail}}})
			if err == nil {
				out = append(out, r)
			}
			return err
		}
		for _, b := range append([]Break(nil), l.w.s.Breaks...) {
			if b.Ack == nil {
				if err := ack(b, b.ID()); err != nil {
					return err
				}
			}
		}
		return ack(Break{Kind: Shrunk, Detail: "every time a running process found the file shrunk or replaced, before this line"}, ReportedBreaks)
	})
	return out, err
}

// ReportedBreaks is the break an acknowledgement names for the times a
// process found the file shrunk or replaced: it acknowledges every such
// report made before the line was read.
const ReportedBreaks = "reported"
