package metrics

import "strings"

// Operation names a request for a label: its method and its path with
// every segment that is not one of the interfaces' literal words written
// {id} ("GET /v3/payments/{id}", "PUT
// /v2/vaults/{id}/wallets/{id}/transactions/{id}/freeze"). The values are
// bounded whatever the ids: a word list and a depth. A link the server
// gave that goes to another host (a report's download in storage) is
// "GET (link)"; a path deeper than maxSegments is cut with "/…".
func Operation(method, path string) string {
	if strings.HasPrefix(path, "//") {
		return method + " (link)"
	}
	path, _, _ = strings.Cut(path, "?")
	var b strings.Builder
	b.WriteString(method + " ")
	n := 0
	trimmed := strings.Trim(path, "/")
	for seg := range strings.SplitSeq(trimmed, "/") {
		if trimmed == "" {
			break
		}
		if n == maxSegments {
			b.WriteString("/…")
			break
		}
		n++
		b.WriteByte('/')
		if literal(seg) {
			b.WriteString(seg)
		} else {
			b.WriteString("{id}")
		}
	}
	if n == 0 {
		b.WriteByte('/')
	}
	return b.String()
}

// maxSegments bounds an operation's depth (the deepest path of the
// interfaces has ten: a sweep instance's transactions under a vault).
const maxSegments = 12

// literal reports whether seg is a word of the interfaces' paths (spec
// part 4 and the vendor's document), not an id.
func literal(seg string) bool {
	switch seg {
	case "api", "v0", "v1", "v2", "v3",
		// liquidity
		"quotes", "trades", "balances",
		// payments and its token issuer
		"payments", "filter", "identities", "financial-instruments", "ledger-transactions", "states", "oauth", "token", "test",
		// reporting
		"reports", "download",
		// wallet
		"credentials", "vaults", "wallets", "wallet", "transactions", "freeze", "unfreeze", "settings", "policy-rules", "limits",
		"counterparties", "addresses", "webhooks", "subscriptions", "workflows", "sweep", "trigger", "instances",
		// custody
		"domains", "endpoints", "intents":
		return true
	}
	return false
}
