package variant

import (
	"net/http"
	"strconv"
	"strings"
)

// wallet answers quantities and balances as JSON numbers, reasons as
// objects, problems' retryable as a string, and "" for an absent hash or
// externalId of a transaction. Errors keep the wallet model (spec 7.2 fixes
// it).
type wallet struct{ base }

func walletAmount(key string) bool {
	switch key {
	case "qty", "balance", "availableBalance", "pendingBalance", "frozenBalance", "fiatValue", "limitQty", "fee":
		return true
	}
	return false
}

func (wallet) success(r *http.Request, v any) any {
	walk(v, func(o *object) {
		numbersOf(o, walletAmount)
		if ps, ok := o.get("problems"); ok {
			for _, p := range asArray(ps) {
				if po, ok := p.(*object); ok {
					if b, ok := po.get("retryable"); ok {
						if bv, ok := b.(bool); ok {
							po.set("retryable", strconv.FormatBool(bv))
						}
					}
				}
			}
		}
		if rs, ok := o.get("reasons"); ok {
			for i, x := range asArray(rs) {
				if s, ok := x.(string); ok {
					rs.([]any)[i] = reasonObject(s)
				}
			}
		}
		if isTransaction(o) {
			if _, has := o.get("externalId"); !has {
				o.insertAfter("vaultId", "externalId", "")
			}
			if _, has := o.get("hash"); !has {
				o.insertAfter("destinationAddress", "hash", "")
			}
		}
	})
	decorate(v, r.URL.Path)
	return v
}

func (wallet) failure(status int, h http.Header, v any) any { return v }

func asArray(v any) []any {
	a, _ := v.([]any)
	return a
}

// isTransaction recognizes a wallet transaction by its fields.
func isTransaction(o *object) bool {
	for _, k := range []string{"walletId", "destinationAddress", "qty", "status"} {
		if _, has := o.get(k); !has {
			return false
		}
	}
	return true
}

// reasonObject is a blockchain result as {code, message}: the code is the
// text before the first colon (all of it when there is none).
func reasonObject(s string) *object {
	code, _, _ := strings.Cut(s, ":")
	return obj("code", strings.TrimSpace(code), "message", s)
}
