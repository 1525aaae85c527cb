package sandbox

import (
	"bytes"
	"io"
	"net/http"

	"treasury/wire/apierr"
)

// Exchange is one request an interface answered and its answer, as
// Options.Observe sees it. Path is relative to the interface's base URL and
// carries the query.
type Exchange struct {
	Interface  apierr.Interface
	Method     string
	Path       string
	Header     http.Header
	Body       []byte
	Status     int
	RespHeader http.Header
	RespBody   []byte
}

// observed tells see of every exchange of next (buffering the request body
// for it and teeing the answer).
func observed(iface apierr.Interface, see func(Exchange), next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body []byte
		if r.Body != nil {
			body, _ = io.ReadAll(io.LimitReader(r.Body, 1<<20))
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		tee := &teeWriter{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(tee, r)
		see(Exchange{Interface: iface, Method: r.Method, Path: r.URL.RequestURI(), Header: r.Header.Clone(), Body: body,
			Status: tee.status, RespHeader: w.Header().Clone(), RespBody: tee.body.Bytes()})
	})
}

// teeWriter keeps a copy of what it writes.
type teeWriter struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
}

func (t *teeWriter) WriteHeader(status int) {
	t.status = status
	t.ResponseWriter.WriteHeader(status)
}

func (t *teeWriter) Write(b []byte) (int, error) {
	t.body.Write(b)
	return t.ResponseWriter.Write(b)
}
