package sandboxtest

import (
	"sync"
	"testing"

	"treasury/sandbox"
	"treasury/sandbox/contract"
)

// maxViolations bounds the violations reported in full; the rest are
// counted.
const maxViolations = 20

// Violations collects what the contract check finds in a sandbox's
// exchanges (package contract: every payments exchange against the
// vendor's published document) until it is reported.
type Violations struct {
	doc  *contract.Document
	mu   sync.Mutex
	seen []string
	n    int
}

// NewViolations loads the document for a new collection.
func NewViolations() (*Violations, error) {
	doc, err := contract.Load()
	if err != nil {
		return nil, err
	}
	return &Violations{doc: doc}, nil
}

// Observe checks one exchange (a sandbox.Options.Observe).
func (v *Violations) Observe(x sandbox.Exchange) {
	err := v.doc.Check(contract.Exchange{Method: x.Method, Path: x.Path, Header: x.Header, Body: x.Body,
		Status: x.Status, RespHeader: x.RespHeader, RespBody: x.RespBody,
		Description: string(x.Interface) + " " + x.Method + " " + x.Path})
	if err == nil {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	v.n++
	if len(v.seen) < maxViolations {
		v.seen = append(v.seen, err.Error())
	}
}

// Report fails tb with the violations seen since the last report, and
// forgets them.
func (v *Violations) Report(tb testing.TB) {
	tb.Helper()
	v.mu.Lock()
	seen, n := v.seen, v.n
	v.seen, v.n = nil, 0
	v.mu.Unlock()
	for _, s := range seen {
		tb.Errorf("contract: %s", s)
	}
	if n > len(seen) {
		tb.Errorf("contract: and %d more violations", n-len(seen))
	}
}

// Contract returns an Options.Observe that checks every payments exchange
// of the sandbox against the document and fails tb, when it ends, with
// every violation seen. Listen installs it on every default-face sandbox:
// the tests cannot start one that is not checked.
func Contract(tb testing.TB) func(sandbox.Exchange) {
	tb.Helper()
	v, err := NewViolations()
	if err != nil {
		tb.Fatal(err)
	}
	// Registered before the sandbox's own Close (cleanups run last first),
	// so the answers of requests still in flight at the end are judged.
	tb.Cleanup(func() { v.Report(tb) })
	return v.Observe
}
