package variant

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"treasury/sandbox/internal/simkit"
	"treasury/wire/apierr"
)

// Gate refuses, after the simulator has authenticated them, the requests a
// stricter legal implementation refuses: page sizes above the variant's
// caps where the spec shows none, filter fields beyond the spec's, and the
// wallet's filter parameter on transaction lists. It is the sandbox's
// simkit.Env.Gate in the variant face.
func Gate(iface apierr.Interface, r *http.Request) *simkit.Refusal {
	switch iface {
	case apierr.Liquidity:
		return pageCap(r, "pageSize", LiquidityMaxPageSize)
	case apierr.Custody:
		if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/endpoints") {
			return pageCap(r, "limit", CustodyMaxLimit)
		}
	case apierr.Payments:
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/payments/filter") {
			return filterFields(r)
		}
	case apierr.Wallet:
		if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/transactions") && r.URL.Query().Has("filter") {
			return &simkit.Refusal{Status: http.StatusBadRequest, Parser: true,
				Message: `unknown query parameter "filter": transaction lists take no filter`}
		}
	}
	return nil
}

// pageCap refuses an integer page size above max, naming the parameter.
// Values that are not integers are left to the simulator.
func pageCap(r *http.Request, name string, max int) *simkit.Refusal {
	n, err := strconv.Atoi(r.URL.Query().Get(name))
	if err != nil || n <= max {
		return nil
	}
	return &simkit.Refusal{Status: http.StatusBadRequest,
		Message: fmt.Sprintf("%s %d is above the maximum %d", name, n, max)}
}

// filterFields refuses a payments filter body whose filter object holds a
// field other than paymentStates (the only one the spec shows), naming the
// first such field. The body is put back for the simulator; a body that is
// not JSON is left to it.
func filterFields(r *http.Request) *simkit.Refusal {
	b, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	r.Body = io.NopCloser(bytes.NewReader(b))
	if err != nil {
		return nil
	}
	var req struct {
		Filter map[string]json.RawMessage `json:"filter"`
	}
	if json.Unmarshal(b, &req) != nil {
		return nil
	}
	var unknown []string
	for k := range req.Filter {
		if k != "paymentStates" {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	slices.Sort(unknown)
	return &simkit.Refusal{Status: http.StatusBadRequest, Code: "USR_001",
		Message: "Unknown field filter." + unknown[0] + ": this service filters on filter.paymentStates only."}
}
