package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"time"
)

// Fault kinds the proxy injects into one action's request.
const (
	faultHold        = "held answer"  // applied; the answer comes after the caller gave up
	faultLoseAnswer  = "lost answer"  // applied; the connection closes before any answer
	faultLoseRequest = "lost request" // never reaches the platform
)

// proxy stands between the agents and the sandbox: reads pass through;
// a write (not GET) naming a record a rule names (in its path or body)
// meets the rule's fault once.
type proxy struct {
	next *httputil.ReverseProxy
	srv  *httptest.Server

	mu    sync.Mutex
	rules map[string]*rule // by record id
}

// rule is one fault waiting for a write on a record; hit is closed when
// it met one, release ends a held answer early.
type rule struct {
	fault   string
	hit     chan struct{}
	release chan struct{}
	once    sync.Once
}

func newProxy(target string) (*proxy, error) {
	u, err := url.Parse(target)
	if err != nil {
		return nil, err
	}
	p := &proxy{next: httputil.NewSingleHostReverseProxy(u), rules: map[string]*rule{}}
	p.srv = httptest.NewServer(p)
	return p, nil
}

// URL is where agents reach the platform.
func (p *proxy) URL() string { return p.srv.URL }

func (p *proxy) Close() { p.srv.Close() }

// arm sets fault for the next write on record id.
func (p *proxy) arm(id, fault string) *rule {
	r := &rule{fault: fault, hit: make(chan struct{}), release: make(chan struct{})}
	p.mu.Lock()
	p.rules[id] = r
	p.mu.Unlock()
	return r
}

// disarm drops the rule of id (one that never met its write) and ends a
// held answer.
func (p *proxy) disarm(id string) {
	p.mu.Lock()
	r := p.rules[id]
	delete(p.rules, id)
	p.mu.Unlock()
	if r != nil {
		r.once.Do(func() { close(r.release) })
	}
}

func (p *proxy) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if req.Method == http.MethodGet {
		p.next.ServeHTTP(w, req)
		return
	}
	body, _ := io.ReadAll(req.Body)
	req.Body = io.NopCloser(bytes.NewReader(body))
	p.mu.Lock()
	var r *rule
	for id, x := range p.rules {
		if strings.Contains(req.URL.Path, id) || bytes.Contains(body, []byte(id)) {
			r = x
			delete(p.rules, id)
			break
		}
	}
	p.mu.Unlock()
	if r == nil {
		p.next.ServeHTTP(w, req)
		return
	}
	close(r.hit)
	switch r.fault {
	case faultLoseRequest:
		<-req.Context().Done()
		return
	case faultLoseAnswer:
		p.next.ServeHTTP(httptest.NewRecorder(), req.Clone(context.Background()))
		if conn, _, err := w.(http.Hijacker).Hijack(); err == nil {
			conn.Close()
		}
		return
	}
	// Held: applied now, answered once released or after a while, unless
	// the caller has given up (or died) by then.
	rec := httptest.NewRecorder()
	p.next.ServeHTTP(rec, req.Clone(context.Background()))
	select {
	case <-r.release:
	case <-req.Context().Done():
		return
	case <-time.After(30 * time.Second):
	}
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.WriteHeader(rec.Code)
	w.Write(rec.Body.Bytes())
}
