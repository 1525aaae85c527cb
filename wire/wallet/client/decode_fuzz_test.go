package client

import (
	"encoding/json"
	"testing"

	"treasury/wire"
	"treasury/wire/wallet"
	"treasury/wire/wiretest"
)

// lists are the wallet lists the client reads, by the first byte of a
// fuzz input: the key of the records, and a check of one page of them.
var lists = []struct {
	key  string
	read func(t *testing.T, m map[string]json.RawMessage) string
}{
	{"vaults", pageOf[wallet.Vault]("vaults")},
	{"wallets", pageOf[wallet.Wallet]("wallets")},
	{"balances", pageOf[wallet.Balance]("balances")},
	{"transactions", pageOf[wallet.Transaction]("transactions")},
	{"history", pageOf[wallet.FreezeEvent]("history")},
	{"limits", pageOf[wallet.Limit]("limits")},
	{"policyRules", pageOf[wallet.PolicyRule]("policyRules")},
	{"counterparties", pageOf[wallet.Counterparty]("counterparties")},
	{"addresses", pageOf[wallet.Address]("addresses")},
	{"webhooks", pageOf[wallet.Webhook]("webhooks")},
	{"subscriptions", pageOf[wallet.Subscription]("subscriptions")},
	{"sweepConfigurations", pageOf[wallet.SweepConfig]("sweepConfigurations")},
}

// pageOf reads a page of T as listAll does and checks every record is
// stable and kept as received; it returns the next page token.
func pageOf[T any](key string) func(t *testing.T, m map[string]json.RawMessage) string {
	return func(t *testing.T, m map[string]json.RawMessage) string {
		items, next, err := readPage[T](m, key)
		if err != nil {
			return ""
		}
		for _, r := range items.Items {
			wiretest.Stable(t, r)
		}
		return next
	}
}

// FuzzWalletLists decodes any body as a page of one of the wallet lists
// (the first byte chooses which), or as a single wallet, transaction or
// sweep: no panic; every record read is stable and reads the same from
// the JSON it kept; the next page token is the filter's nextPageToken as
// sent (a number as its text), and a token that is not text fails the
// page rather than end the list unsaid.
func FuzzWalletLists(f *testing.F) {
	tx := `{"id":"tx-1","walletId":"w-1","vaultId":"v-1","status":"REJECTED","action":"TRANSFER","asset":"USDC","qty":"125.5","originAddress":"0xabc","destinationAddress":"0xdef","problems":[{"reason":"ERR006.004","message":"limit exceeded","retryable":"false"}],"reasons":[{"code":"EVM","message":"EVM: out of gas"},"plain"],"freezeInfo":{"isFrozen":true,"history":[{"action":"FREEZE","reason":"review","mutationId":"6f1d","performedBy":"ops","performedAt":"2026-11-16T09:00:00Z"}]},"createdAt":"2026-11-16T09:00:00Z"}`
	filter := `"filter":{"nextPageToken":"CgR0eC0x","total":42}`
	for _, s := range []string{
		"\x00" + `{"vaults":[{"id":"v-1","name":"Treasury","createdAt":"2026-01-01T00:00:00Z"},{"id":7}],` + filter + `}`,
		"\x01" + `{"wallets":[{"id":"w-1","vaultId":"v-1","name":"hot","address":"0xabc","blockchain":"ETHEREUM","status":"ACTIVE","settings":{"enabled":true},"createdAt":"2026-01-01T00:00:00Z","schemaVersion":2}],"filter":{"nextPageToken":""}}`,
		"\x02" + `{"balances":[{"asset":"USDC","balance":1250.5,"availableBalance":"1000","pendingBalance":0,"frozenBalance":"250.5","fiatValue":"1250.50"},{"asset":{"symbol":"ETH","blockchain":"ETHEREUM","decimals":18},"balance":"1e-18"}]}`,
		"\x03" + `{"transactions":[` + tx + `,{"id":"tx-2","qty":"NaN"}],"filter":{"nextPageToken":12345678901234567890}}`,
		"\x04" + `{"history":[{"action":"UNFREEZE","performedAt":"2026-11-16T09:00:00+01:00"}],"filter":{"nextPageToken":{"a":1}}}`,
		"\x05" + `{"limits":[{"id":"l-1","limitType":"TRANSFER","asset":"USDC","limitQty":"1000","duration":86400,"matchers":[{"type":"ALL_COUNTERPARTIES"}],"status":"ACTIVE","createdAt":"2026-01-01T00:00:00Z"}]}`,
		"\x06" + `{"policyRules":[{"id":"p-1","name":"two approvers","action":"REQUIRE_APPROVAL","status":"ACTIVE"}],"filter":null}`,
		"\x07" + `{"counterparties":[{"id":"c-1","name":"Acme","description":"\u001b[2J"}],"filter":"x"}`,
		"\x08" + `{"addresses":[{"id":"a-1","counterpartyId":"c-1","address":"0x1","blockchains":["ETHEREUM","POLYGON"]}]}`,
		"\x09" + `{"webhooks":[{"id":"h-1","name":"ops","endpoint":"https://hooks.example/x"}]}`,
		"\x0a" + `{"subscriptions":[{"id":"s-1","webhookId":"h-1","domain":"TRANSACTION"}]}`,
		"\x0b" + `{"sweepConfigurations":[{"id":"sw-1","name":"nightly","blockchain":"ETHEREUM","destinationWallet":"w-1","assets":["USDC",{"symbol":"ETH"}],"status":"ACTIVE","sweepRunning":false,"lastSwept":null}]}`,
		"\x0c" + `{"id":"w-1","vaultId":"v-1","settings":{"enabled":"true"}}`,
		"\x0d" + tx,
		"\x0e" + `{"id":"sw-1","assets":"USDC"}`,
		"\x03" + `{"transactions":{}}`, "\x03" + `{"transactions":null}`, "\x03" + `[]`,
	} {
		f.Add([]byte(s))
	}
	for i, b := range wiretest.Seeds("transactions") {
		f.Add(append([]byte{byte(i)}, b...))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		body := data[1:]
		switch k := int(data[0]) % (len(lists) + 3); {
		case k < len(lists):
			var m map[string]json.RawMessage
			if json.Unmarshal(body, &m) != nil {
				return // transport: a malformed body
			}
			next := lists[k].read(t, m)
			var env struct {
				Filter struct {
					NextPageToken json.RawMessage `json:"nextPageToken"`
				} `json:"filter"`
			}
			_ = json.Unmarshal(body, &env)
			var want string
			var n json.Number
			if json.Unmarshal(env.Filter.NextPageToken, &want) != nil && json.Unmarshal(env.Filter.NextPageToken, &n) == nil {
				want = n.String()
			}
			if _, _, err := readPage[wire.Any](m, lists[k].key); err == nil && next != want {
				t.Fatalf("next page token %q, the filter says %s", next, env.Filter.NextPageToken)
			}
		case k == len(lists):
			if w, err := wire.Decode[wallet.Wallet](body); err == nil {
				wiretest.Stable(t, w)
			}
		case k == len(lists)+1:
			if tx, err := wire.Decode[wallet.Transaction](body); err == nil {
				wiretest.Stable(t, tx)
			}
		default:
			if s, err := wire.Decode[wallet.SweepConfig](body); err == nil {
				wiretest.Stable(t, s)
			}
		}
	})
}

// TestWalletAllocationBounded: a megabyte of adversarial page, or of one
// record's array field, costs a bounded multiple of its size. The other
// array fields are wire.Lists too (sweep assets read through a shadow
// like reasons).
func TestWalletAllocationBounded(t *testing.T) {
	page := func(key string) func([]byte) {
		return func(b []byte) {
			var m map[string]json.RawMessage
			if json.Unmarshal(b, &m) == nil {
				_, _, _ = readPage[wallet.Transaction](m, key)
			}
		}
	}
	wiretest.Bounded(t, "transactions", page("transactions"))
	for _, key := range []string{"problems", "reasons"} { // a list of records; one of texts read through a shadow
		t.Run(key, func(t *testing.T) {
			wiretest.Bounded(t, key, func(b []byte) { _, _ = wire.Decode[wallet.Transaction](b) })
		})
	}
}
