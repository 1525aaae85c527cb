// Package wallet speaks to the wallet interface (spec area D): vaults,
// wallets, balances, transactions and their freezes, policies and limits,
// counterparties, webhooks and sweeps, under /v2, with its own error model
// (apierr.WalletBody) and its own token exchange (wire/auth).
//
// Where the spec says "not shown", this package follows api-choices.md:
//   - lists take pagination.pageSize (max 1,000), pagination.pageToken and
//     pagination.orderBy (snake_case) and answer {<array>, filter{nextPageToken,
//     total}}; freeze history and sweep-instance transactions take the
//     top-level pageSize (max 100) and pageToken instead;
//   - list filters are one `filter` query parameter, `field = "value"` or
//     `field != "value"`; another operator is a parser error;
//   - record fields are those of api-choices.md; amounts are JSON strings;
//   - durations of wallet limits are protobuf JSON durations ("86400s").
//
// Change those here when a real deployment differs.
package wallet

import (
	"time"

	"github.com/shopspring/decimal"

	"treasury/wire"
)

// Paths of the wallet interface, relative to its base URL. Ids are appended
// as path segments.
const (
	PathToken          = "/v2/credentials/oauth/token"
	PathVaults         = "/v2/vaults"           // /{vaultId}/wallets/{walletId}/...
	PathWallets        = "/v2/wallets"          // /{walletId}
	PathPolicyRules    = "/v2/policy-rules"     // org-wide; /limits
	PathCounterparties = "/v2/counterparties"   // /{id}/addresses/{addressId}
	PathWebhooks       = "/v2/webhooks"         // /{id}/subscriptions
	PathSweeps         = "/v2/workflows/sweep"  // /{id}/trigger, /{id}/instances/{instanceId}/transactions
	QueryPageSize      = "pagination.pageSize"  // list page size, max MaxPageSize
	QueryPageToken     = "pagination.pageToken" // opaque token from filter.nextPageToken
	QueryOrderBy       = "pagination.orderBy"   // snake_case field, optional " desc"
	QueryTopPageSize   = "pageSize"             // top-level page size, max MaxTopPageSize
	QueryTopPageToken  = "pageToken"
	QueryFilter        = "filter"
)

// Page size limits (spec part 8).
const (
	DefaultPageSize = 100
	MaxPageSize     = 1000
	MaxTopPageSize  = 100
)

// Credential types (spec 5.6) and the permissions named by the spec.
const (
	CredMonitoring   = "MONITORING"
	CredControls     = "CONTROLS"
	CredTransactions = "TRANSACTIONS"
	PermPolicyAll    = "policy:*"
	PermKeyLimitAll  = "keylimit:*"
)

// Wallet statuses (PROVISIONED is the spec's; others from the real service).
const (
	WalletCreated            = "CREATED"
	WalletProvisioning       = "PROVISIONING"
	WalletProvisioned        = "PROVISIONED"
	WalletProvisioningFailed = "PROVISIONING_FAILED"
)

// Transaction statuses. REJECTED and FAILED are the spec's.
const (
	TxRequested          = "REQUESTED"
	TxPolicyCheckPending = "POLICY_CHECK_PENDING"
	TxPendingApproval    = "PENDING_APPROVAL"
	TxSigning            = "SIGNING"
	TxBroadcasted        = "BROADCASTED"
	TxConfirmed          = "CONFIRMED"
	TxRejected           = "REJECTED"
	TxFailed             = "FAILED"
)

// FreezeRuledOut says why the state of t rules out a freeze (freeze true)
// or unfreeze of it, "" when it does not; the sandbox refuses exactly
// these, as the interface does (ERR010.008). A transaction that ended
// (CONFIRMED on chain, REJECTED by policy, FAILED on chain) cannot be
// frozen or unfrozen; a frozen one is not frozen again, nor one not
// frozen unfrozen.
func FreezeRuledOut(t Transaction, freeze bool) string {
	switch {
	case t.Status == TxConfirmed || t.Status == TxRejected || t.Status == TxFailed:
		return t.Status + ": it ended, and cannot be frozen or unfrozen"
	case freeze && t.FreezeInfo.IsFrozen:
		return "frozen already"
	case !freeze && !t.FreezeInfo.IsFrozen:
		return "not frozen"
	}
	return ""
}

// TokenRequest is the body of POST /v2/credentials/oauth/token.
type TokenRequest struct {
	ClientID     string `json:"clientId"`
	ClientSecret string `json:"clientSecret"`
}

// TokenResponse answers the wallet token exchange.
type TokenResponse struct {
	AccessToken string `json:"accessToken"`
	ExpiresIn   int    `json:"expiresIn"`
	TokenType   string `json:"tokenType"`
	Scope       string `json:"scope"`
}

// ListFilter is the filter object of a wallet list. In a response it is
// the pagination part (nextPageToken, empty on the last page, and total).
// In a call of Client.Transactions the caller sets the selection fields,
// which never travel as JSON: they become the `filter` query parameter
// (`status = "CONFIRMED" AND asset = "USDC"`), pagination.orderBy and the
// wallets whose lists are read.
type ListFilter struct {
	NextPageToken string `json:"nextPageToken,omitempty"`
	Total         int    `json:"total"`

	// WalletID reads one wallet; else VaultID reads every wallet of that
	// vault; else every wallet the credential sees is read.
	WalletID string `json:"-"`
	VaultID  string `json:"-"`
	// Equality clauses, joined by AND; empty ones are left out.
	Status     string `json:"-"`
	Action     string `json:"-"`
	Asset      string `json:"-"`
	ExternalID string `json:"-"`
	// ID selects one transaction (the search for a transaction's wallet).
	ID string `json:"-"`
	// OrderBy is pagination.orderBy (snake_case, optional " desc"); empty
	// means the interface's default, newest first.
	OrderBy string `json:"-"`
}

// Vault groups wallets.
type Vault struct {
	wire.Raw `json:"-"`

	ID          string    `json:"id"`
	Name        string    `json:"name"`
	Description string    `json:"description,omitempty"`
	CreatedAt   time.Time `json:"createdAt"`
}

// Settings are the four boolean settings of a wallet. On PUT an omitted
// setting becomes false and an empty object is invalid.
type Settings struct {
	Enabled              bool `json:"enabled"`
	RawSigningEnabled    bool `json:"rawSigningEnabled"`
	SweepingEnabled      bool `json:"sweepingEnabled"`
	DefaultFreezeEnabled bool `json:"defaultFreezeEnabled"`
}

// Wallet is a custody wallet in a vault. QuorumID is set for MPC wallets.
type Wallet struct {
	wire.Raw `json:"-"`

	ID         string    `json:"id"`
	VaultID    string    `json:"vaultId"`
	Name       string    `json:"name"`
	Address    string    `json:"address"`
	Blockchain string    `json:"blockchain"`
	QuorumID   string    `json:"quorumId,omitempty"`
	Status     string    `json:"status"`
	Settings   Settings  `json:"settings"`
	CreatedAt  time.Time `json:"createdAt"`
}

// Asset identifies a token on a chain.
type Asset struct {
	Symbol     string `json:"symbol"`
	Blockchain string `json:"blockchain"`
	Decimals   int    `json:"decimals"`
}

// Balance is a vault's or wallet's holding of one asset.
type Balance struct {
	wire.Raw `json:"-"`

	Asset            Asset           `json:"asset"`
	Balance          decimal.Decimal `json:"balance"`
	AvailableBalance decimal.Decimal `json:"availableBalance"`
	PendingBalance   decimal.Decimal `json:"pendingBalance"`
	FrozenBalance    decimal.Decimal `json:"frozenBalance"`
	FiatValue        decimal.Decimal `json:"fiatValue"`
}

// Problem is why a policy stopped a transaction (a REJECTED transaction has
// at least one).
type Problem struct {
	Reason    string `json:"reason"`
	Message   string `json:"message"`
	Retryable bool   `json:"retryable"`
}

// Freeze actions.
const (
	ActionFreeze   = "FREEZE"
	ActionUnfreeze = "UNFREEZE"
)

// FreezeEvent is one freeze or unfreeze of a transaction.
type FreezeEvent struct {
	wire.Raw `json:"-"`

	Action      string    `json:"action"`
	Reason      string    `json:"reason"`
	MutationID  string    `json:"mutationId"`
	PerformedBy string    `json:"performedBy"`
	PerformedAt time.Time `json:"performedAt"`
}

// FreezeInfo is a transaction's freeze state and history.
type FreezeInfo struct {
	IsFrozen bool                   `json:"isFrozen"`
	History  wire.List[FreezeEvent] `json:"history"`
}

// Transaction is a wallet transaction. A REJECTED one has a problems entry;
// a FAILED one has empty problems and the blockchain result in reasons.
type Transaction struct {
	wire.Raw `json:"-"`

	ID                 string             `json:"id"`
	WalletID           string             `json:"walletId"`
	VaultID            string             `json:"vaultId"`
	ExternalID         string             `json:"externalId,omitempty"`
	Status             string             `json:"status"`
	Action             string             `json:"action"`
	Asset              string             `json:"asset"`
	Qty                decimal.Decimal    `json:"qty"`
	OriginAddress      string             `json:"originAddress"`
	DestinationAddress string             `json:"destinationAddress"`
	Hash               string             `json:"hash,omitempty"`
	Problems           wire.List[Problem] `json:"problems"`
	Reasons            wire.List[string]  `json:"reasons"`
	FreezeInfo         FreezeInfo         `json:"freezeInfo"`
	CreatedAt          time.Time          `json:"createdAt"`
}

// Transaction actions (chosen).
const (
	TxActionTransfer = "TRANSFER"
	TxActionDeposit  = "DEPOSIT"
	TxActionRaw      = "RAW_SIGN"
	TxActionSweep    = "SWEEP"
)

// FreezeRequest is the body of PUT .../transactions/{id}/freeze and
// /unfreeze: a reason is required and mutationId must be a UUID. The same
// mutationId on a retry applies the change once.
type FreezeRequest struct {
	Reason     string `json:"reason"`
	MutationID string `json:"mutationId"`
}

// Matcher types of wallet limits (COUNTERPARTY is deprecated and refused).
const (
	MatchCounterpartyID    = "COUNTERPARTY_ID"
	MatchAllCounterparties = "ALL_COUNTERPARTIES"
	MatchCounterparty      = "COUNTERPARTY"
)

// Matcher selects the transactions a limit applies to. ALL_COUNTERPARTIES
// takes no value.
type Matcher struct {
	Type  string `json:"type"`
	Value string `json:"value,omitempty"`
}

// Limit statuses (chosen).
const (
	LimitActive          = "ACTIVE"
	LimitPendingApproval = "PENDING_APPROVAL"
)

// Limit is a wallet limit: at most LimitQty of Asset per Duration (shorter
// than a year).
type Limit struct {
	wire.Raw `json:"-"`

	ID        string             `json:"id"`
	LimitType string             `json:"limitType"`
	Asset     string             `json:"asset"`
	LimitQty  decimal.Decimal    `json:"limitQty"`
	Duration  string             `json:"duration"`
	Matchers  wire.List[Matcher] `json:"matchers"`
	Status    string             `json:"status"`
	CreatedAt time.Time          `json:"createdAt"`
	WalletID  string             `json:"walletId,omitempty"`
}

// PolicyRule is an org-wide policy rule (GET /v2/policy-rules).
type PolicyRule struct {
	wire.Raw `json:"-"`

	ID          string    `json:"id"`
	Name        string    `json:"name"`
	Description string    `json:"description,omitempty"`
	Action      string    `json:"action"`
	Status      string    `json:"status"`
	CreatedAt   time.Time `json:"createdAt"`
}

// Counterparty is an address-book entry of the wallet interface.
type Counterparty struct {
	wire.Raw `json:"-"`

	ID          string    `json:"id"`
	Name        string    `json:"name"`
	Description string    `json:"description,omitempty"`
	CreatedAt   time.Time `json:"createdAt"`
}

// Address is an address of a counterparty, usable on the listed chains.
type Address struct {
	wire.Raw `json:"-"`

	ID             string            `json:"id"`
	CounterpartyID string            `json:"counterpartyId"`
	Address        string            `json:"address"`
	Blockchains    wire.List[string] `json:"blockchains"`
	Label          string            `json:"label,omitempty"`
	CreatedAt      time.Time         `json:"createdAt"`
}

// Webhook is a wallet webhook; Endpoint must use https://.
type Webhook struct {
	wire.Raw `json:"-"`

	ID        string    `json:"id"`
	Name      string    `json:"name"`
	Endpoint  string    `json:"endpoint"`
	CreatedAt time.Time `json:"createdAt"`
}

// Subscription domains (TRANSACTION is the spec's).
const (
	DomainTransaction = "TRANSACTION"
	DomainWallet      = "WALLET"
	DomainPolicy      = "POLICY"
)

// Subscription subscribes a webhook to a domain.
type Subscription struct {
	wire.Raw `json:"-"`

	ID        string    `json:"id"`
	WebhookID string    `json:"webhookId"`
	Domain    string    `json:"domain"`
	CreatedAt time.Time `json:"createdAt"`
}

// SweepConfig is a sweep configuration: it moves Assets into
// DestinationWallet; triggering it while SweepRunning fails (ERR017.006).
type SweepConfig struct {
	wire.Raw `json:"-"`

	ID                string            `json:"id"`
	Name              string            `json:"name"`
	Blockchain        string            `json:"blockchain"`
	DestinationWallet string            `json:"destinationWallet"`
	Assets            wire.List[string] `json:"assets"`
	Status            string            `json:"status"`
	SweepRunning      bool              `json:"sweepRunning"`
	LastSwept         *time.Time        `json:"lastSwept,omitempty"`
	LastInstanceID    string            `json:"lastInstanceId,omitempty"`
}

// TriggerResponse answers POST /v2/workflows/sweep/{id}/trigger.
type TriggerResponse struct {
	InstanceID string `json:"instanceId"`
}

// List pages. Each carries its array under the resource's plural name.
type (
	VaultsPage struct {
		Vaults []Vault    `json:"vaults"`
		Filter ListFilter `json:"filter"`
	}
	WalletsPage struct {
		Wallets []Wallet   `json:"wallets"`
		Filter  ListFilter `json:"filter"`
	}
	BalancesPage struct {
		Balances []Balance  `json:"balances"`
		Filter   ListFilter `json:"filter"`
	}
	TransactionsPage struct {
		Transactions []Transaction `json:"transactions"`
		Filter       ListFilter    `json:"filter"`
	}
	FreezeHistoryPage struct {
		History []FreezeEvent `json:"history"`
		Filter  ListFilter    `json:"filter"`
	}
	LimitsPage struct {
		Limits []Limit    `json:"limits"`
		Filter ListFilter `json:"filter"`
	}
	PolicyRulesPage struct {
		PolicyRules []PolicyRule `json:"policyRules"`
		Filter      ListFilter   `json:"filter"`
	}
	CounterpartiesPage struct {
		Counterparties []Counterparty `json:"counterparties"`
		Filter         ListFilter     `json:"filter"`
	}
	AddressesPage struct {
		Addresses []Address  `json:"addresses"`
		Filter    ListFilter `json:"filter"`
	}
	WebhooksPage struct {
		Webhooks []Webhook  `json:"webhooks"`
		Filter   ListFilter `json:"filter"`
	}
	SubscriptionsPage struct {
		Subscriptions []Subscription `json:"subscriptions"`
		Filter        ListFilter     `json:"filter"`
	}
	SweepsPage struct {
		SweepConfigurations []SweepConfig `json:"sweepConfigurations"`
		Filter              ListFilter    `json:"filter"`
	}
)

// Request bodies and small answers of the wallet interface (chosen where the
// spec names only the operation).
type (
	// CreateWalletRequest is the body of POST /v2/vaults/{vaultId}/wallets.
	// Type is MPC or HSM; an MPC wallet needs QuorumID.
	CreateWalletRequest struct {
		Name       string `json:"name"`
		Blockchain string `json:"blockchain"`
		Type       string `json:"type,omitempty"`
		QuorumID   string `json:"quorumId,omitempty"`
	}
	// SettingsRequest is the body of PUT .../wallets/{walletId}/settings;
	// an omitted setting becomes false, an empty object is invalid.
	SettingsRequest struct {
		Settings map[string]bool `json:"settings"`
	}
	// Sequence answers GET .../wallets/{walletId}/sequence (PROVISIONED only).
	Sequence struct {
		Sequence int64 `json:"sequence"`
	}
	// TransferRequest is the body of POST .../wallets/{walletId}/transactions.
	TransferRequest struct {
		ExternalID         string `json:"externalId,omitempty"`
		Asset              string `json:"asset"`
		Qty                string `json:"qty"`
		DestinationAddress string `json:"destinationAddress"`
	}
	// RawTransactionRequest is the body of POST .../transactions/raw: a
	// hex-encoded transaction, optionally for another EVM chain.
	RawTransactionRequest struct {
		ExternalID         string `json:"externalId,omitempty"`
		RawTransaction     string `json:"rawTransaction"`
		BlockchainOverride string `json:"blockchainOverride,omitempty"`
		Signature          string `json:"signature,omitempty"`
	}
	// FeeEstimate answers POST .../transactions/estimate-fee.
	FeeEstimate struct {
		Asset string          `json:"asset"`
		Fee   decimal.Decimal `json:"fee"`
	}
	// CreateLimitRequest is the body of POST .../policy-rules/limits.
	CreateLimitRequest struct {
		LimitType string    `json:"limitType"`
		Asset     string    `json:"asset"`
		LimitQty  string    `json:"limitQty"`
		Duration  string    `json:"duration"`
		Matchers  []Matcher `json:"matchers"`
	}
	// CounterpartyRequest is the body of POST /v2/counterparties.
	CounterpartyRequest struct {
		Name        string `json:"name"`
		Description string `json:"description,omitempty"`
	}
	// AddressRequest is the body of POST /v2/counterparties/{id}/addresses.
	AddressRequest struct {
		Address     string   `json:"address"`
		Blockchains []string `json:"blockchains"`
		Label       string   `json:"label,omitempty"`
	}
	// WebhookRequest is the body of POST /v2/webhooks.
	WebhookRequest struct {
		Name     string `json:"name"`
		Endpoint string `json:"endpoint"`
	}
	// SubscriptionRequest is one element of the JSON array that
	// POST /v2/webhooks/{id}/subscriptions takes.
	SubscriptionRequest struct {
		Domain string `json:"domain"`
	}
	// Credential is an API credential (spec 2.10). ClientSecret is present
	// only in the answer that creates it.
	Credential struct {
		ClientID     string   `json:"clientId"`
		ClientSecret string   `json:"clientSecret,omitempty"`
		Type         string   `json:"type"`
		Permissions  []string `json:"permissions"`
	}
	// CreateCredentialRequest is the body of POST /v2/credentials.
	CreateCredentialRequest struct {
		Type        string   `json:"type"`
		Permissions []string `json:"permissions"`
	}
	// CredentialsPage lists credentials without their secrets.
	CredentialsPage struct {
		Credentials []Credential `json:"credentials"`
		Filter      ListFilter   `json:"filter"`
	}
)

// PathCredentials lists and creates API credentials (chosen path).
const PathCredentials = "/v2/credentials"
