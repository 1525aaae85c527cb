package payments

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"treasury/wire"
	"treasury/wire/wiretest"
)

// Bodies shaped as the sandbox sends them (default face, then the
// variant's open choices: amounts as strings, extra fields, a missing
// null), and ones it never sends.
const (
	seedPayment = `{"paymentId":"9b2f6c1e-8d0a-4a51-9f3e-1c2d3e4f5a6b","paymentState":"FAILED","initiatedAt":"2026-11-16T09:12:00Z","expiresAt":"2026-11-16T10:12:00Z","lastStateUpdatedAt":"2026-11-16T09:20:00Z","originator":{"originatorIdentityId":"id-1","internalId":"ops-0042","sourceCurrency":"USD","sourceAmount":3816.34},"destination":{"beneficiaryFinancialInstrumentId":"fi-9","destinationAmount":65000.5,"destinationCountry":"MX","destinationCurrency":"MXN","beneficiaryIdentityId":"id-7"},"fees":[{"totalFee":2.5,"feeCurrency":"USD"}],"paymentLabels":["payroll"],"errors":[{"code":"USR_020","type":"USER_ERROR","title":"Account closed","description":"The beneficiary account is closed.","timestamp":"2026-11-16T09:20:00Z"}]}`
	seedVariant = `{"paymentId":"p2","paymentState":"SETTLING_SOMEWHERE","schemaVersion":2,"_links":{"self":{"href":"/v3/payments/p2"}},"tags":["a"],"extension":{"nested":{"x":1}},"originator":{"sourceCurrency":"USD","sourceAmount":"3816.34"},"destination":{"destinationCurrency":"MXN","destinationAmount":"65000.50"},"fees":[{"totalFee":"2.50","feeCurrency":"USD"}]}`
	seedLedger  = `{"amount":-125.5,"currency":"USD","txnReference":"p1","operation":"RESERVE","txnSource":"PAYMENTS","status":"SUCCESS","createdDttm":"2026-11-16T09:12:00Z","availableBalanceBefore":1000,"availableBalanceAfter":874.5}`
)

// FuzzPayments decodes any body as the payments client does each answer
// (the first byte chooses which): a payment, a payment list, a filter
// page, identities, instruments, a ledger page, balances, a state history
// or a quote. No panic; every record read is stable when written back
// and read again, and reads the same from the JSON it kept.
func FuzzPayments(f *testing.F) {
	for _, s := range []string{
		"\x00" + seedPayment, "\x00" + seedVariant, "\x00" + `{"paymentId":7}`, "\x00" + `{"originator":{"sourceAmount":"1e-6144"}}`,
		"\x01" + `{"data":[` + seedPayment + `,` + seedVariant + `,{"paymentId":"p3","initiatedAt":"soon"},null,1]}`,
		"\x02" + `{"data":[` + seedVariant + `],"filter":{"paymentStates":["FAILED"]},"sort":{"sortField":"CREATED_AT","sortDirection":"DESC"},"page":{"size":20,"lastPageToken":"eyJvZmZzZXQiOjIwfQ=="}}`,
		"\x02" + `{"data":[],"page":{"size":"20","lastPageToken":7}}`,
		"\x03" + `{"data":[{"identityId":"id-1","identityType":"BUSINESS","paymentRole":"ORIGINATOR","identityState":"ACTIVE","nickName":"Acme","createdAt":"2026-01-02T03:04:05Z"}],"nextToken":"n1"}`,
		"\x04" + `{"data":[{"financialInstrumentId":"fi-9","financialInstrumentType":"MX_SPEI","currency":"MXN","country":"MX","label":"\u202eevil","createdAt":"2026-01-02T03:04:05.999999999+05:30"}]}`,
		"\x05" + `{"offset":0,"pageSize":50,"pageElements":2,"total":3,"statementTransactions":[` + seedLedger + `,{"amount":"10","currency":"USD","operation":"CREDIT","txnSource":"BANK","status":"PENDING","createdDttm":"2026-11-16T09:00:00+00:00"}]}`,
		"\x05" + `{"offset":-1,"total":1e3,"statementTransactions":[]}`,
		"\x06" + `{"timestamp":"2026-11-16T09:30:00Z","balances":[{"fundingType":"PREFUNDED","currency":"USD","availableBalance":10250.75,"reservedBalance":"0"}]}`,
		"\x07" + `{"stateTransitions":[{"updatedFrom":"INITIATED","updatedTo":"VALIDATING","updatedAt":"2026-11-16T09:13:00Z"}]}`,
		"\x08" + `{"quoteId":"q1","sourceCurrency":"USD","sourceAmount":100,"destinationCurrency":"MXN","destinationAmount":1712.34,"exchangeRate":17.1234,"createdAt":"2026-11-16T09:30:00Z","expiresAt":"2026-11-16T09:31:00Z"}`,
	} {
		f.Add([]byte(s))
	}
	for i, b := range wiretest.Seeds("data") {
		f.Add(append([]byte{byte(i)}, b...))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		body := data[1:]
		switch data[0] % 9 {
		case 0:
			if p, err := wire.Decode[Payment](body); err == nil {
				wiretest.Stable(t, p)
				_, _, _ = p.PaymentState.Terminal(), p.PaymentState.InFlight(), StateMeaning(p.PaymentState)
			}
		case 1:
			var l PaymentListIn
			if json.Unmarshal(body, &l) == nil {
				stableAll(t, l.Data.Items)
			}
		case 2:
			var p FilterResponseIn
			if json.Unmarshal(body, &p) == nil {
				stableAll(t, p.Data.Items)
				nextToken(t, body, "page", "lastPageToken", p.Page.LastPageToken)
			}
		case 3:
			var p IdentitiesPageIn
			if json.Unmarshal(body, &p) == nil {
				stableAll(t, p.Data.Items)
				nextToken(t, body, "", "nextToken", p.NextToken)
			}
		case 4:
			var p InstrumentsPageIn
			if json.Unmarshal(body, &p) == nil {
				stableAll(t, p.Data.Items)
				nextToken(t, body, "", "nextToken", p.NextToken)
			}
		case 5:
			var p LedgerPageIn
			if json.Unmarshal(body, &p) == nil {
				stableAll(t, p.StatementTransactions.Items)
			}
		case 6:
			var b BalancesIn
			if json.Unmarshal(body, &b) == nil {
				stableAll(t, b.Balances.Items)
			}
		case 7:
			var h StateTransitionsIn
			if json.Unmarshal(body, &h) == nil {
				stableAll(t, h.StateTransitions.Items)
			}
		default:
			if q, err := wire.Decode[TokenTest](body); err == nil {
				wiretest.Stable(t, q)
			}
		}
	})
}

func stableAll[T any](t *testing.T, recs []T) {
	t.Helper()
	for _, r := range recs {
		wiretest.Stable(t, r)
	}
}

// nextToken checks that the page token read is the string the body holds
// under key (inside the object under env when set; keys matched as
// encoding/json matches them, case folded), as it was sent: a token is
// passed back as received, never rewritten.
func nextToken(t *testing.T, body []byte, env, key, got string) {
	t.Helper()
	field := func(obj json.RawMessage, name string) json.RawMessage {
		v := reflect.New(reflect.StructOf([]reflect.StructField{{
			Name: "F", Type: reflect.TypeFor[json.RawMessage](), Tag: reflect.StructTag(`json:"` + name + `"`),
		}}))
		if json.Unmarshal(obj, v.Interface()) != nil {
			return nil
		}
		return v.Elem().Field(0).Interface().(json.RawMessage)
	}
	raw := json.RawMessage(body)
	if env != "" {
		raw = field(raw, env)
	}
	raw = field(raw, key)
	var want string
	if len(raw) > 0 && !bytes.Equal(raw, []byte("null")) && json.Unmarshal(raw, &want) != nil {
		t.Fatalf("%s: %s is not a string, yet the page decoded with token %q", key, raw, got)
	}
	if got != want {
		t.Fatalf("%s: read %q, the body holds %s", key, got, raw)
	}
}

// TestPagesAllocationBounded: a megabyte of adversarial page (of the
// largest record), history or record list field costs a bounded multiple
// of its size. The other pages are wire.Items, the other fields wire.List,
// bounded alike.
func TestPagesAllocationBounded(t *testing.T) {
	for key, decode := range map[string]func([]byte){
		"data":             func(b []byte) { var p FilterResponseIn; _ = json.Unmarshal(b, &p) },
		"stateTransitions": func(b []byte) { var p StateTransitionsIn; _ = json.Unmarshal(b, &p) },
		"errors":           func(b []byte) { _, _ = wire.Decode[Payment](b) },
	} {
		t.Run(key, func(t *testing.T) { wiretest.Bounded(t, key, decode) })
	}
}
