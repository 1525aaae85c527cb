// Package audit is the operator action log: one JSON line per attempted
// action (freeze, unfreeze, lock, unlock, sweep), whether it succeeded,
// failed or was refused, appended to a file of mode 0600 in the XDG state
// directory. The file is only ever opened for appending; nothing here
// rewrites or truncates it.
package audit

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"
)

// FileName is the log's name inside the state directory.
const FileName = "audit.jsonl"

// Outcomes of an attempt.
const (
	OutcomeOK      = "ok"      // the platform accepted the action
	OutcomeError   = "error"   // the platform or the network refused it
	OutcomeRefused = "refused" // the dashboard refused it (read-only)
)

// Entry is one attempted action.
type Entry struct {
	Time        time.Time `json:"time"`
	Profile     string    `json:"profile"`
	Environment string    `json:"environment"`
	// Operator is the local user, or "ssh:<user> <key fingerprint>".
	Operator string `json:"operator"`
	Action   string `json:"action"`
	// Targets names the records acted on, by kind ("transaction",
	// "wallet", "endpoint", "sweep").
	Targets    map[string]string `json:"targets"`
	Reason     string            `json:"reason,omitempty"`
	MutationID string            `json:"mutationId,omitempty"`
	IntentID   string            `json:"intentId,omitempty"`
	Outcome    string            `json:"outcome"`
	ErrorCode  string            `json:"errorCode,omitempty"`
	Error      string            `json:"error,omitempty"`
}

// Log appends entries to one file. It is safe for concurrent use by every
// session of a process.
type Log struct {
	mu   sync.Mutex
	path string
	f    *os.File
	// appended counts the entries this process appended, so a reader
	// knows without touching the file whether there is anything new.
	appended atomic.Int64
}

// Open opens (creating it, mode 0600, in a directory of mode 0700) the log
// in dir. A log file that group or others can read is refused: it names
// who did what to which money.
func Open(dir string) (*Log, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	path := filepath.Join(dir, FileName)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("audit: %w", err)
	}
	if st.Mode().Perm()&0o077 != 0 {
		f.Close()
		return nil, fmt.Errorf("audit: %s has mode %v; it must be readable by its owner only (chmod 600 %s)", path, st.Mode().Perm(), path)
	}
	return &Log{path: path, f: f}, nil
}

// Path is the log file.
func (l *Log) Path() string { return l.path }

// Append writes e as one line. A zero Time is set to now.
func (l *Log) Append(e Entry) error {
	if e.Time.IsZero() {
		e.Time = time.Now()
	}
	e.Time = e.Time.UTC()
	b, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	b = append(b, '\n')
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return errors.New("audit: log closed")
	}
	if _, err := l.f.Write(b); err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	l.appended.Add(1)
	return nil
}

// Appended is how many entries this process has appended so far.
func (l *Log) Appended() int64 { return l.appended.Load() }

// Read returns the entries of the log, oldest first. A line that does not
// parse is returned as an entry whose Error says so, so nothing is hidden.
func (l *Log) Read() ([]Entry, error) {
	f, err := os.Open(l.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	defer f.Close()
	return ReadFrom(f)
}

// ReadFrom parses a log.
func ReadFrom(r io.Reader) ([]Entry, error) {
	var out []Entry
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		if len(sc.Bytes()) == 0 {
			continue
		}
		var e Entry
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			out = append(out, Entry{Outcome: "unreadable", Error: fmt.Sprintf("line %d: %v", n, err)})
			continue
		}
		out = append(out, e)
	}
	return out, sc.Err()
}

// Close closes the file.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}
