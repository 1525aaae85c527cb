package transport

import (
	"errors"
	"log/slog"
	"os"
	"path/filepath"

	"treasury/kit/logfile"
)

// LogFile is the name of the request log inside the state directory.
const LogFile = "requests.log"

// Log is the request log: one JSON line per attempt (interface, method,
// path, status, duration, error code, attempt). It never holds a token, a
// secret or a header, and never writes to the terminal. It rotates by
// size (rot).
type Log struct {
	*slog.Logger
	f *logfile.File
}

// OpenLog opens (appending) dir/requests.log, creating dir with mode 0700
// and the file with 0600, rotated as rot says. dir is the application's
// state directory (see StateDir).
func OpenLog(dir string, rot logfile.Options) (*Log, error) {
	if dir == "" {
		return nil, errors.New("transport: no state directory for the request log")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	f, err := logfile.Open(filepath.Join(dir, LogFile), rot)
	if err != nil {
		return nil, err
	}
	return &Log{Logger: slog.New(slog.NewJSONHandler(f, nil)), f: f}, nil
}

// Close closes the file.
func (l *Log) Close() error { return l.f.Close() }

// StateDir is the XDG state directory of the application:
// $XDG_STATE_HOME/<app>, else ~/.local/state/<app>.
func StateDir(app string) (string, error) {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, app), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".local", "state", app), nil
}
