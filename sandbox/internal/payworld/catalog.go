package payworld

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"treasury/sandbox/internal/simkit"
	"treasury/wire/payments"
)

// corridor is a route from a prefunded source currency to a payout currency.
type corridor struct {
	src, dst    string
	country     string  // destination country; "" for a crypto payout (no jurisdiction)
	instrument  string  // financial instrument type of the beneficiaries
	payout      string  // payout category (BANK, CRYPTO)
	rate        float64 // mid rate dst per src
	feeMinor    int64   // flat fee in source minor units
	weight      int     // share of traffic
	exchangeSrc string  // source exchange of the reports
	exchangeDst string  // destination exchange of the reports
	rail        rail
}

// rail is how a corridor pays out: the rail the customer selects, the one
// a large payout is executed on instead (none when it is always the
// selected one), the tracking references the payout partner gives, the
// blockchain network of a crypto payout, and the tax charged on the fee.
type rail struct {
	selected, large string
	refs            []refKind
	network         string
	tax             *taxRule
}

// refKind is a kind of tracking reference of a payout rail.
type refKind struct {
	typ, display, description string
	value                     func(k uint64) string
}

// taxRule is a tax on the fee (GST) or on the amount sent (IOF), in
// percent.
type taxRule struct {
	name, description string
	percent           string
	onAmount          bool
}

// corridorTable returns the routes of the sandbox org. Every source currency has a
// prefunded account (ledger and balances); every amount has two decimals.
func corridorTable(sources []string) []corridor {
	digits := func(n int) func(uint64) string {
		return func(k uint64) string { return fmt.Sprintf("%0*d", n, k%pow10(n)) }
	}
	clave := refKind{"CLAVE_RASTREO", "Clave de rastreo", "SPEI tracking key of the transfer at Banxico",
		func(k uint64) string { return "MBAN01" + digits(18)(k) }}
	utr := refKind{"UTR", "UTR number", "Unique Transaction Reference of the IMPS or NEFT credit",
		func(k uint64) string { return "UTR" + digits(12)(k) }}
	instapay := refKind{"REFERENCE_NUMBER", "InstaPay reference", "Reference number of the InstaPay credit",
		func(k uint64) string { return digits(12)(k) }}
	e2e := refKind{"END_TO_END_ID", "End-to-end id", "End-to-end identification of the instant credit",
		func(k uint64) string { return "E" + digits(31)(k) }}
	trace := refKind{"TRACE_NUMBER", "ACH trace number", "Trace number of the ACH entry",
		func(k uint64) string { return digits(15)(k) }}
	txHash := refKind{"TX_HASH", "Transaction hash", "Hash of the payout transaction on the destination network",
		func(k uint64) string { return cryptoHash(k) }}
	gst := &taxRule{"GST", "Goods and services tax on the service fee", "18", false}
	iof := &taxRule{"IOF", "Tax on financial operations (IOF) on the amount sent", "0.38", true}
	table := []corridor{
		{"USD", "MXN", "MX", "MX_SPEI", "BANK", 17.21, 150, 30, "Bitso-US", "Bitso-MX", rail{selected: "SPEI", refs: []refKind{clave}}},
		{"USD", "PHP", "PH", "PH_NRPS", "BANK", 58.47, 200, 20, "Coins-US", "Coins-PH", rail{selected: "INSTAPAY", large: "PESONET", refs: []refKind{instapay}}},
		{"USD", "INR", "IN", "IN_NEFT", "BANK", 84.12, 250, 15, "Exchange-US", "Exchange-IN", rail{selected: "IMPS", large: "NEFT", refs: []refKind{utr}, tax: gst}},
		{"USD", "BRL", "BR", "BR_PIX", "BANK", 5.61, 180, 10, "Exchange-US", "Foxbit-BR", rail{selected: "PIX", refs: []refKind{e2e}, tax: iof}},
		{"EUR", "USD", "US", "US_ACH", "BANK", 1.08, 120, 10, "Bitstamp-EU", "Exchange-US", rail{selected: "ACH", large: "FEDWIRE", refs: []refKind{trace}}},
		{"GBP", "EUR", "FR", "EU_SEPA", "BANK", 1.17, 100, 15, "Bitstamp-GB", "Bitstamp-EU", rail{selected: "SEPA_INSTANT", refs: []refKind{e2e}}},
		{"USD", "RLUSD", "", "ETH_WALLET", "CRYPTO", 1.0, 50, 5, "Exchange-US", "Ethereum", rail{selected: "ETHEREUM", refs: []refKind{txHash}, network: "Ethereum"}},
	}
	// The accounts beyond the default three (Options.Accounts) each pay
	// out in one corridor of their own.
	extra := map[string]corridor{
		"CAD": {"CAD", "USD", "US", "US_ACH", "BANK", 0.73, 120, 6, "Exchange-CA", "Exchange-US", rail{selected: "ACH", large: "FEDWIRE", refs: []refKind{trace}}},
		"AUD": {"AUD", "PHP", "PH", "PH_NRPS", "BANK", 38.2, 150, 5, "Exchange-AU", "Coins-PH", rail{selected: "INSTAPAY", large: "PESONET", refs: []refKind{instapay}}},
		"CHF": {"CHF", "EUR", "FR", "EU_SEPA", "BANK", 1.06, 100, 5, "Exchange-CH", "Bitstamp-EU", rail{selected: "SEPA_INSTANT", refs: []refKind{e2e}}},
		"SGD": {"SGD", "INR", "IN", "IN_NEFT", "BANK", 62.5, 200, 5, "Exchange-SG", "Exchange-IN", rail{selected: "IMPS", large: "NEFT", refs: []refKind{utr}, tax: gst}},
		"HKD": {"HKD", "PHP", "PH", "PH_NRPS", "BANK", 7.48, 150, 4, "Exchange-HK", "Coins-PH", rail{selected: "INSTAPAY", large: "PESONET", refs: []refKind{instapay}}},
	}
	for _, c := range sources[min(len(sources), DefaultAccounts):] {
		table = append(table, extra[c])
	}
	return table
}

// fedwireRefs are the references of a payout executed on Fedwire.
func fedwireRefs() []refKind {
	return []refKind{
		{"IMAD", "IMAD Number", "Input Message Accountability Data (IMAD) for Fedwire transfer tracking",
			func(k uint64) string { return fmt.Sprintf("20261116MMQFMP%06d", k%1_000_000) }},
		{"OMAD", "OMAD Number", "Output Message Accountability Data (OMAD) for Fedwire transfer tracking",
			func(k uint64) string { return fmt.Sprintf("20261116B1Q8021C%06d", (k>>7)%1_000_000) }},
	}
}

func pow10(n int) uint64 {
	p := uint64(1)
	for range min(n, 19) {
		p *= 10
	}
	return p
}

// cryptoHash is a 32-byte transaction hash in 0x hex, derived from k.
func cryptoHash(k uint64) string {
	var b strings.Builder
	b.WriteString("0x")
	for i := uint64(0); i < 4; i++ {
		fmt.Fprintf(&b, "%016x", simkit.Mix(k, i))
	}
	return b.String()
}

// DefaultAccounts and MaxAccounts bound Options.Accounts.
const (
	DefaultAccounts = 3
	MaxAccounts     = 8
)

// sourceCurrencies are the first n prefunded accounts (DefaultAccounts
// when n is 0), in a fixed order.
func sourceCurrencies(n int) []string {
	all := []string{"USD", "EUR", "GBP", "CAD", "AUD", "CHF", "SGD", "HKD"}
	if n <= 0 {
		n = DefaultAccounts
	}
	return all[:min(n, len(all))]
}

// currencyIndex is the account of currency c; -1 for none.
func (w *World) currencyIndex(c string) int { return slices.Index(w.sources, c) }

// Failure reasons. DECLINED uses the 402 codes of spec 7.1 (USR_062 to
// USR_067); FAILED mixes transient (SYS_) and permanent (USR_) causes;
// RETURNED is the downstream institution's return. Codes other than the
// spec's are the sandbox's own.
type reason struct{ code, typ, title, desc string }

func declineReasons() []reason {
	return []reason{
		{"USR_062", "USER_ERROR", "Credit limit exceeded", "Payment declined: the credit limit of the account is exceeded."},
		{"USR_063", "USER_ERROR", "Past-due invoice", "Payment declined: the account has a past-due invoice."},
		{"USR_064", "USER_ERROR", "Daily limit exceeded", "Payment declined: the daily payment limit is exceeded."},
		{"USR_065", "USER_ERROR", "Corridor limit exceeded", "Payment declined: the limit of the corridor is exceeded."},
		{"USR_066", "USER_ERROR", "Beneficiary limit exceeded", "Payment declined: the limit for this beneficiary is exceeded."},
		{"USR_067", "USER_ERROR", "Insufficient balance", "Payment failed due to insufficient balance. Add funds to your account and try again."},
	}
}

func failReasons() []reason {
	return []reason{
		{"SYS_003", "SYSTEM_ERROR", "Payout partner timeout", "The payout partner did not answer in time; the payment may be resubmitted."},
		{"SYS_004", "SYSTEM_ERROR", "Liquidity unavailable", "No liquidity was available for the corridor at execution time."},
		{"USR_030", "USER_ERROR", "Beneficiary account closed", "The beneficiary's account is closed."},
		{"USR_031", "USER_ERROR", "Invalid beneficiary account", "The beneficiary's account number was rejected by the payout partner."},
		{"USR_034", "USER_ERROR", "Compliance rejection", "The payment was rejected by compliance screening."},
	}
}

// unfundedReason is why a just-in-time payment whose funds never came was
// declined: the 402 of an account condition (the customer's funds).
func unfundedReason() reason {
	return reason{"USR_067", "USER_ERROR", "Just-in-time funds not received",
		"The funds of this just-in-time payment did not reach the ledger account before jitFundingExpiresAt."}
}

// configReason is a configuration error of the payout partner: a second
// error of some failures, which resubmitting does not cure.
func configReason() reason {
	return reason{"CFG_002", "CONFIGURATION_ERROR", "Payout configuration incomplete",
		"The payout partner's configuration for the corridor is incomplete; contact support."}
}

func returnReason() reason {
	return reason{"USR_080", "USER_ERROR", "Returned by beneficiary bank",
		"The beneficiary's institution returned the payment after completion."}
}

// identity is an originator or beneficiary with its instruments.
type identity struct {
	id, nick, internalID string
	typ, role, state     string
	created, updated     time.Time
	version              int
	corridor             int // beneficiaries only
	instruments          []instrument
}

type instrument struct {
	id, typ, currency, country, label string
	account                           string
	created                           time.Time
}

func firstNames() []string {
	return []string{"Ana", "Luis", "Maria", "Jose", "Priya", "Arjun", "Rosa", "Carlos", "Mei", "Juan", "Sofia", "Ravi", "Lucia", "Paolo", "Camille", "Joao"}
}

func lastNames() []string {
	return []string{"Garcia", "Santos", "Reyes", "Sharma", "Patel", "Cruz", "Lopez", "Silva", "Dubois", "Costa", "Mendoza", "Rao", "Bautista", "Martin"}
}

func businesses() []string {
	return []string{"Grupo Norte", "Manila Freight", "Tata Parts", "Sol Agro", "Lumen Labs", "Rio Textiles", "Paris Optique", "Andes Coffee"}
}

// buildDirectory makes the org's originators (one per source currency) and
// its beneficiaries (each in one corridor), all before from.
func buildDirectory(seed uint64, from time.Time, beneficiaries int, sources []string, table []corridor) (origs []identity, bens []identity) {
	for i, c := range sources {
		r := simkit.Rand(seed, simkit.Key("originator"), uint64(i))
		created := from.Add(-time.Duration(200+r.IntN(300)) * 24 * time.Hour)
		origs = append(origs, identity{
			id: simkit.UUIDOf(seed, simkit.Key("originator"), uint64(i)), nick: "Sandbox Treasury " + c,
			internalID: "ORG-" + c, typ: payments.IdentityBusiness, role: payments.RoleOriginator, created: created,
			updated: created, version: 1, state: payments.IdentityStateActive, corridor: -1,
		})
	}
	weights := 0
	for _, c := range table {
		weights += c.weight
	}
	for i := 0; i < beneficiaries; i++ {
		r := simkit.Rand(seed, simkit.Key("beneficiary"), uint64(i))
		k := r.IntN(weights)
		ci := 0
		for ; k >= table[ci].weight; ci++ {
			k -= table[ci].weight
		}
		c := table[ci]
		b := identity{
			id: simkit.UUIDOf(seed, simkit.Key("beneficiary"), uint64(i)), typ: payments.IdentityIndividual,
			role: payments.RoleBeneficiary, internalID: fmt.Sprintf("BEN-%04d", i+1), corridor: ci,
			created: from.Add(-time.Duration(r.IntN(400*24)) * time.Hour),
		}
		if r.IntN(5) == 0 {
			b.typ = payments.IdentityBusiness
			b.nick = simkit.Pick(r, businesses()) + " " + c.country
		} else {
			b.nick = simkit.Pick(r, firstNames()) + " " + simkit.Pick(r, lastNames())
		}
		n := 1 + r.IntN(2)
		for j := 0; j < n; j++ {
			acct := fmt.Sprintf("%s%010d", c.country, r.Int64N(1e10))
			if c.rail.network != "" {
				acct = "0x" + fmt.Sprintf("%040x", r.Int64N(1e18))
			}
			b.instruments = append(b.instruments, instrument{
				id: simkit.UUIDOf(seed, simkit.Key("instrument"), uint64(i), uint64(j)), typ: c.instrument,
				currency: c.dst, country: c.country, account: acct,
				label:   fmt.Sprintf("%s ****%s", c.instrument, acct[len(acct)-4:]),
				created: b.created.Add(time.Duration(j*24) * time.Hour),
			})
		}
		// A third of the beneficiaries were edited once (version 2), one in
		// forty was deactivated since.
		b.updated, b.version, b.state = b.created, 1, payments.IdentityStateActive
		if k := simkit.Mix(seed, simkit.Key("beneficiary-version"), uint64(i)); k%3 == 0 {
			b.updated, b.version = b.created.Add(time.Duration(1+k%200)*time.Hour), 2
			if k%40 == 0 {
				b.state = identityDeactivated
			}
		}
		bens = append(bens, b)
	}
	return origs, bens
}

// identityDeactivated is the document's other identity state.
const identityDeactivated = "DEACTIVATED"

// identitySchemaVersion is the schema version of every identity.
const identitySchemaVersion = "1.0.0"

func (id identity) record(hostile bool, key uint64) identityRecord {
	tags := []string{strings.ToLower(id.role)}
	if id.corridor < 0 {
		tags = append(tags, "treasury")
	}
	return identityRecord{IdentityID: id.id, IdentityType: id.typ, PaymentRole: id.role,
		IdentityState: id.state, NickName: simkit.Decorate(id.nick, hostile, key),
		InternalID: id.internalID, CreatedAt: id.created, UpdatedAt: id.updated, Tags: tags,
		Version: id.version, SchemaVersion: identitySchemaVersion}
}

func (in instrument) record(hostile bool, key uint64) instrumentRecord {
	return instrumentRecord{FinancialInstrumentID: in.id, FinancialInstrumentType: in.typ,
		Currency: in.currency, Country: in.country, Label: simkit.Decorate(in.label, hostile, key),
		CreatedAt: in.created, UpdatedAt: in.created}
}
