package sandboxtest

import (
	"crypto/sha256"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
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
	// checked are the exchanges checked already, by a hash of all the
	// check reads: a frozen world answers the same poll alike many times
	// (the identities, the ledger), and the same exchange is judged alike.
	checked map[[sha256.Size]byte]error
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
	key := exchangeKey(x)
	v.mu.Lock()
	err, done := v.checked[key]
	v.mu.Unlock()
	if !done {
		err = v.check(x)
		v.mu.Lock()
		if v.checked == nil {
			v.checked = map[[sha256.Size]byte]error{}
		}
		v.checked[key] = err
		v.mu.Unlock()
	}
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

// check checks x against the document.
func (v *Violations) check(x sandbox.Exchange) error {
	return v.doc.Check(contract.Exchange{Method: x.Method, Path: x.Path, Header: x.Header, Body: x.Body,
		Status: x.Status, RespHeader: x.RespHeader, RespBody: x.RespBody,
		Description: string(x.Interface) + " " + x.Method + " " + x.Path})
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

// exchangeKey is a hash of what the check of x reads: the request (its
// headers too) and the answer, but for the answer's Date.
func exchangeKey(x sandbox.Exchange) [sha256.Size]byte {
	h := sha256.New()
	part := func(b []byte) {
		h.Write([]byte{byte(len(b) >> 24), byte(len(b) >> 16), byte(len(b) >> 8), byte(len(b))})
		h.Write(b)
	}
	headers := func(hd http.Header, skip string) {
		for _, k := range slices.Sorted(maps.Keys(hd)) {
			if k != skip {
				part([]byte(k))
				part([]byte(strings.Join(hd[k], "\n")))
			}
		}
		part(nil)
	}
	part([]byte(x.Interface))
	part([]byte(x.Method))
	part([]byte(x.Path))
	headers(x.Header, "")
	part(x.Body)
	part([]byte(strconv.Itoa(x.Status)))
	headers(x.RespHeader, "Date")
	part(x.RespBody)
	var key [sha256.Size]byte
	h.Sum(key[:0])
	return key
}
