package sandbox

import (
	"crypto/ed25519"
	"crypto/sha256"
	"crypto/x509"
	"fmt"
	"time"

	"treasury/sandbox/internal/simkit"
	"treasury/wire/wallet"
)

// FaultSettings are the faults the sandbox injects; see GET /_sandbox/faults.
type FaultSettings = simkit.FaultSettings

// Duration is a duration that reads and writes JSON as "250ms".
type Duration = simkit.Duration

// Clock is the sandbox clock (accelerated by Speed, or frozen).
type Clock = simkit.Clock

// Options configure a sandbox. The zero value, with DefaultCredentials,
// gives the world that `treasury sandbox` serves.
type Options struct {
	// Seed makes the world deterministic: the same seed, start and requests
	// give the same answers.
	Seed int64
	// Speed runs the sandbox clock this many times faster than real time.
	Speed float64
	// Start is the sandbox time at start; zero means now.
	Start time.Time
	// Frozen stops the clock at Start until the control API advances it.
	Frozen bool

	Credentials Credentials
	Faults      FaultSettings

	// HistoryPayments is how many payments are synthesized before Start
	// (over the previous two months and the month to date). Zero means 3,000.
	HistoryPayments int
	// Accounts is how many prefunded accounts the payments org has: 0
	// means 3 (USD, EUR, GBP); up to 8 adds CAD, AUD, CHF, SGD and HKD,
	// each paying out in a corridor of its own.
	Accounts int
	// LivePaymentsPerMinute is the traffic generator's rate in sandbox time.
	// Zero means 12; a negative rate means no live payments at all.
	LivePaymentsPerMinute float64
	// Retain is how far back, in sandbox time, the sandbox keeps settled
	// payments, ledger entries and wallet transactions. Zero keeps what the reports
	// cover (from the first of the month two months back: spec area C), so
	// a sandbox serving for months stays bounded; a shorter span bounds it
	// sooner (a fast clock's soak test) but the reports' older months come
	// out short; a negative one keeps everything.
	Retain time.Duration

	Webhooks WebhookOptions

	// Variant makes the sandbox answer as another legal implementation
	// would where the spec leaves a choice open: lower page caps, extra
	// fields, other field shapes, the other form of wallet paths, stricter
	// parameters, extra report columns, another download path. The list is
	// in the doc of package internal/variant and in docs/sandbox.md.
	Variant bool

	// Host is the API host reported in wallet ErrorInfo domains.
	Host string

	// Logf, when set, receives background events (webhook deliveries).
	Logf func(format string, args ...any)

	// Observe, when set, is told every exchange the payments interface and
	// its token service answer in the default face, as the simulator
	// answered it (inside the injected faults, which stand for the network
	// and the infrastructure, not the interface). Tests check each against
	// the vendor's published document (package contract).
	Observe func(Exchange)
}

// WebhookOptions say where and how PAYMENT_STATE_TRANSITION notifications
// are delivered.
type WebhookOptions struct {
	// URL is the callback (https://...); empty means no delivery.
	URL string
	// RootCAs are trusted for the callback's certificate (the profile's
	// self-signed one); nil means the system roots.
	RootCAs *x509.CertPool
	// HeaderPrefix is the {service_prefix} of the signature headers.
	HeaderPrefix string
	// DuplicateRate is the share of notifications delivered twice;
	// ReorderRate the share held back and delivered after the next one.
	DuplicateRate float64
	ReorderRate   float64
}

// Credentials are what clients must present. DefaultCredentials are the
// documented sandbox ones.
type Credentials struct {
	PaymentsClientID     string
	PaymentsClientSecret string
	PaymentsAudience     string
	// PaymentsLimited* is a second payments client without the reports:read
	// and ledger:read scopes, to reach 403 AUTH_002.
	PaymentsLimitedClientID     string
	PaymentsLimitedClientSecret string

	Wallet []WalletCredential

	LiquidityToken  string
	CustodyToken    string
	CustodyDomainID string
}

// WalletCredential is a wallet API credential with its type and permissions.
type WalletCredential struct {
	ClientID     string
	ClientSecret string
	Type         string
	Permissions  []string
}

// DefaultCredentials are the sandbox's documented credentials.
func DefaultCredentials() Credentials {
	return Credentials{
		PaymentsClientID:            "sandbox-client",
		PaymentsClientSecret:        "sandbox-secret",
		PaymentsAudience:            "urn:payments-test:sandbox",
		PaymentsLimitedClientID:     "sandbox-limited",
		PaymentsLimitedClientSecret: "sandbox-limited-secret",
		Wallet: []WalletCredential{
			{ClientID: "monitoring", ClientSecret: "monitoring-secret", Type: wallet.CredMonitoring},
			{ClientID: "controls", ClientSecret: "controls-secret", Type: wallet.CredControls, Permissions: []string{wallet.PermPolicyAll, wallet.PermKeyLimitAll}},
			{ClientID: "transactions", ClientSecret: "transactions-secret", Type: wallet.CredTransactions},
		},
		LiquidityToken:  "sandbox-liquidity-token",
		CustodyToken:    "sandbox-custody-token",
		CustodyDomainID: "7b0b6f9e-3f7a-4d47-9a52-2a4c1d7e0001",
	}
}

func (o *Options) defaults() {
	if o.Speed <= 0 {
		o.Speed = 1
	}
	if o.HistoryPayments == 0 {
		o.HistoryPayments = 3000
	}
	if o.LivePaymentsPerMinute == 0 {
		o.LivePaymentsPerMinute = 12
	}
	if o.Credentials.PaymentsClientID == "" {
		o.Credentials = DefaultCredentials()
	}
	if o.Webhooks.HeaderPrefix == "" {
		o.Webhooks.HeaderPrefix = "X-Payments"
	}
	if o.Host == "" {
		o.Host = "wallet.sandbox.local"
	}
}

func (o Options) validate() error {
	if o.Webhooks.DuplicateRate < 0 || o.Webhooks.DuplicateRate > 1 || o.Webhooks.ReorderRate < 0 || o.Webhooks.ReorderRate > 1 {
		return fmt.Errorf("sandbox: webhook duplicate and reorder rates must be between 0 and 1")
	}
	if o.HistoryPayments < 0 {
		return fmt.Errorf("sandbox: history payments must not be negative")
	}
	return o.Faults.Validate()
}

// keyFromSeed derives an Ed25519 key for purpose from seed.
func keyFromSeed(seed int64, purpose string) ed25519.PrivateKey {
	h := sha256.Sum256([]byte(fmt.Sprintf("treasury-sandbox|%s|%d", purpose, seed)))
	return ed25519.NewKeyFromSeed(h[:])
}

// OperatorKey is the custody operator's signing key for a seed: the sandbox
// accepts intents signed with it from OperatorID, and --write-profile writes
// it as the profile's signing_key_file.
func OperatorKey(seed int64) ed25519.PrivateKey { return keyFromSeed(seed, "custody-operator") }

// OperatorID is the custody user id of the sandbox operator for a seed.
func OperatorID(seed int64) string {
	return simkit.UUIDOf(uint64(seed), simkit.Key("custody-operator"))
}

// WebhookKey is the key the sandbox signs notifications with for a seed.
func WebhookKey(seed int64) ed25519.PrivateKey { return keyFromSeed(seed, "webhook-signing") }
