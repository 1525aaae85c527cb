package sshserve

import (
	"bytes"
	"os"
	"sync"
)

// watchedFile is one of the files that say who may connect
// (authorized_keys, the trusted CA keys, the roles, the revocation list),
// parsed. It is read again at each authentication and parsed again when
// its content changed, so an edit takes effect for the next connection
// without a restart (sessions already open keep running); Reload (SIGHUP)
// reads it at once and says what it holds. A file that became unreadable
// or invalid fails closed: get reports it unusable until it is fixed, and
// the fault is reported once per change.
type watchedFile[T any] struct {
	path string
	what string // "authorized keys", "trusted CA keys", ...
	// governs is what the file being unusable refuses: "every key",
	// "every certificate".
	governs string
	parse   func(path string, data []byte) (T, error)

	mu      sync.Mutex
	val     T
	ok      bool
	content []byte
	lastErr string
}

// newWatched reads and parses the file once; its fault is New's.
func newWatched[T any](path, what, governs string, parse func(string, []byte) (T, error)) (*watchedFile[T], error) {
	w := &watchedFile[T]{path: path, what: what, governs: governs, parse: parse}
	if _, err := w.reload(); err != nil {
		return nil, err
	}
	return w, nil
}

// get returns the parsed file, re-reading it first. ok is false while the
// file is unusable; changeErr (an *unusable) is the fault of a read that
// failed just now (nil when the same fault was already reported), for
// the caller to log.
func (w *watchedFile[T]) get() (val T, ok bool, changeErr error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	data, err := os.ReadFile(w.path)
	switch {
	case err != nil:
		changeErr = w.fail(&fileError{what: w.what, err: err})
	case !w.ok || !bytes.Equal(data, w.content):
		v, err := w.parse(w.path, data)
		if err != nil {
			changeErr = w.fail(err)
			break
		}
		w.val, w.ok, w.content, w.lastErr = v, true, data, ""
	}
	return w.val, w.ok, changeErr
}

// reload reads and parses the file whatever its content, and returns
// what it holds or why it is unusable (which then refuses, as get does).
func (w *watchedFile[T]) reload() (T, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	data, err := os.ReadFile(w.path)
	if err != nil {
		err = &fileError{what: w.what, err: err}
		w.fail(err)
		return w.val, err
	}
	v, err := w.parse(w.path, data)
	if err != nil {
		w.fail(err)
		return w.val, err
	}
	w.val, w.ok, w.content, w.lastErr = v, true, data, ""
	return v, nil
}

// fail drops what was read; it returns err unless the same fault was
// reported.
func (w *watchedFile[T]) fail(err error) error {
	var zero T
	w.val, w.ok, w.content = zero, false, nil
	if w.lastErr == err.Error() {
		return nil
	}
	w.lastErr = err.Error()
	return &unusable{what: w.what, governs: w.governs, err: err}
}

// unusable is a file of the access found unusable: what it is, what it
// refuses meanwhile, and why.
type unusable struct {
	what, governs string
	err           error
}

func (u *unusable) Error() string { return u.err.Error() }
func (u *unusable) Unwrap() error { return u.err }

// Message is the log line of the fault.
func (u *unusable) Message() string {
	return u.what + " unusable: refusing " + u.governs + " until fixed"
}

// fileError is a file of the access that cannot be read.
type fileError struct {
	what string
	err  error
}

func (e *fileError) Error() string { return e.what + ": " + e.err.Error() }
func (e *fileError) Unwrap() error { return e.err }
