package live

import (
	"time"

	"treasury/desk/audit"
	"treasury/wire/custody"
	"treasury/wire/liquidity"
	"treasury/wire/payments"
	"treasury/wire/reporting"
	"treasury/wire/wallet"
)

// The typed keys of the topics (see topics.go): feeds write and views
// read a topic through its key, so the type of its data is checked by the
// compiler. Keys are values: nothing can change them.
var (
	QuotesKey            = KeyOf[[]liquidity.Quote](Quotes)
	TradesKey            = KeyOf[[]liquidity.Trade](Trades)
	LiquidityBalancesKey = KeyOf[[]liquidity.Balance](LiquidityBalances)
	PaymentsKey          = KeyOf[*PaymentSet](Payments)
	PaymentBalancesKey   = KeyOf[payments.Balances](PaymentBalances)
	TokenExpiryKey       = KeyOf[time.Time](TokenExpiry)
	IdentitiesKey        = KeyOf[[]payments.Identity](Identities)
	LedgerKey            = KeyOf[[]payments.LedgerTransaction](Ledger)
	ReportsKey           = KeyOf[[]reporting.Report](Reports)
	VaultsKey            = KeyOf[[]wallet.Vault](Vaults)
	WalletsKey           = KeyOf[[]wallet.Wallet](Wallets)
	TransactionsKey      = KeyOf[[]wallet.Transaction](Transactions)
	SweepsKey            = KeyOf[[]wallet.SweepConfig](Sweeps)
	WalletWebhooksKey    = KeyOf[[]wallet.Webhook](WalletWebhooks)
	SubscriptionsKey     = KeyOf[[]wallet.Subscription](Subscriptions)
	CounterpartiesKey    = KeyOf[[]wallet.Counterparty](Counterparties)
	EndpointsKey         = KeyOf[[]custody.Endpoint](Endpoints)
	AuditKey             = KeyOf[[]audit.Record](Audit)
)
