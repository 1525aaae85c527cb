package variant

import (
	"bytes"
	"io"
	"net/http"
)

// mode is what a capture does with the answer of the wrapped handler.
type mode uint8

const (
	// buffered keeps the whole body for a rewrite once the handler is done.
	buffered mode = iota
	// streamed pipes the body through a transform as it is written (report
	// contents, which may be larger than is worth holding).
	streamed
	// passed writes the body through unchanged.
	passed
	// replaced answers with plan.replace instead and drops the body.
	replaced
)

// plan is what to do with an answer, decided from its status and headers
// when the handler starts it.
type plan struct {
	mode      mode
	transform func(in io.Reader, out io.Writer) error // streamed
	replace   func(w http.ResponseWriter)             // replaced
}

// capture stands between a simulator and the client's ResponseWriter.
type capture struct {
	w      http.ResponseWriter
	decide func(status int, h http.Header) plan
	status int
	begun  bool
	plan   plan
	buf    bytes.Buffer
	pw     *io.PipeWriter
	done   chan error
}

func newCapture(w http.ResponseWriter, decide func(int, http.Header) plan) *capture {
	return &capture{w: w, decide: decide}
}

func (c *capture) Header() http.Header { return c.w.Header() }

func (c *capture) WriteHeader(status int) {
	if c.begun {
		return
	}
	c.begun, c.status = true, status
	c.plan = c.decide(status, c.w.Header())
	switch c.plan.mode {
	case passed:
		c.w.WriteHeader(status)
	case replaced:
		c.plan.replace(c.w)
	case streamed:
		c.w.Header().Del("Content-Length")
		c.w.WriteHeader(status)
		pr, pw := io.Pipe()
		c.pw, c.done = pw, make(chan error, 1)
		go func() {
			err := c.plan.transform(pr, c.w)
			pr.CloseWithError(err) // the handler's next write fails instead of blocking
			c.done <- err
		}()
	}
}

func (c *capture) Write(b []byte) (int, error) {
	if !c.begun {
		c.WriteHeader(http.StatusOK)
	}
	switch c.plan.mode {
	case passed:
		return c.w.Write(b)
	case replaced:
		return len(b), nil
	case streamed:
		return c.pw.Write(b)
	}
	return c.buf.Write(b)
}

// finish ends a streamed body and waits for its transform. It returns the
// status and the body of a buffered answer (ok false when the handler wrote
// nothing or the answer is not buffered).
func (c *capture) finish() (status int, body []byte, ok bool) {
	switch {
	case !c.begun:
		return 0, nil, false
	case c.plan.mode == streamed:
		c.pw.Close()
		<-c.done
		return 0, nil, false
	case c.plan.mode == buffered:
		return c.status, c.buf.Bytes(), true
	}
	return 0, nil, false
}

// write sends a buffered answer, rewritten or not.
func (c *capture) write(status int, body []byte) {
	c.w.Header().Del("Content-Length")
	c.w.WriteHeader(status)
	c.w.Write(body)
}
