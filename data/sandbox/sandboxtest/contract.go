package sandboxtest

import (
	"sync"
	"testing"

	"treasury/data/sandbox"
	"treasury/data/sandbox/contract"
)

// maxViolations bounds the violations one test reports in full; the rest
// are counted.
const maxViolations = 20

// Contract returns an Options.Observe that checks every payments exchange
// of the sandbox against the vendor's published document (package
// contract) and fails tb, when it ends, with every violation seen. Listen
// installs it on every default-face sandbox: the tests cannot start one
// that is not checked.
func Contract(tb testing.TB) func(sandbox.Exchange) {
	tb.Helper()
	doc, err := contract.Load()
	if err != nil {
		tb.Fatal(err)
	}
	var mu sync.Mutex
	var seen []string
	n := 0
	// Registered before the sandbox's own Close (cleanups run last first),
	// so the answers of requests still in flight at the end are judged.
	tb.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		for _, v := range seen {
			tb.Errorf("contract: %s", v)
		}
		if n > len(seen) {
			tb.Errorf("contract: and %d more violations", n-len(seen))
		}
	})
	return func(x sandbox.Exchange) {
		err := doc.Check(contract.Exchange{Method: x.Method, Path: x.Path, Header: x.Header, Body: x.Body,
			Status: x.Status, RespHeader: x.RespHeader, RespBody: x.RespBody,
			Description: string(x.Interface) + " " + x.Method + " " + x.Path})
		if err == nil {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		n++
		if len(seen) < maxViolations {
			seen = append(seen, err.Error())
		}
	}
}
