package live

// The topics of the dashboard and the type each snapshot's Data holds. The
// feeds that fill them are wired in main (they call the clients); views
// read them by these names.
const (
	Quotes            Topic = "quotes"                // []liquidity.Quote, newest first, the quote window
	Trades            Topic = "trades"                // []liquidity.Trade, newest first
	LiquidityBalances Topic = "liquidity.balances"    // []liquidity.Balance
	PaymentBalances   Topic = "payments.balances"     // payments.Balances
	TokenExpiry       Topic = "payments.token"        // time.Time: when the payments token expires
	Identities        Topic = "payments.identities"   // []payments.Identity
	Ledger            Topic = "payments.ledger"       // []payments.LedgerTransaction, the last 24 hours, newest first
	Reports           Topic = "reports"               // []reporting.Report
	Vaults            Topic = "wallet.vaults"         // []wallet.Vault
	Wallets           Topic = "wallet.wallets"        // []wallet.Wallet
	Transactions      Topic = "wallet.transactions"   // []wallet.Transaction, newest first
	Sweeps            Topic = "wallet.sweeps"         // []wallet.SweepConfig
	WalletWebhooks    Topic = "wallet.webhooks"       // []wallet.Webhook
	Subscriptions     Topic = "wallet.subscriptions"  // []wallet.Subscription
	Counterparties    Topic = "wallet.counterparties" // []wallet.Counterparty
	Endpoints         Topic = "custody.endpoints"     // []custody.Endpoint
	Audit             Topic = "audit"                 // []audit.Record, newest first: the operator action log (FollowAudit)
)

// Chart series names: SeriesRate+pair ("USD/MXN"), SeriesLiquidityBalance and
// SeriesPaymentsBalance + currency.
const (
	SeriesRate             = "rate:"
	SeriesLiquidityBalance = "balance:liquidity:"
	SeriesPaymentsBalance  = "balance:payments:"
)
