package walletsim

// Reason codes of spec 7.2 (and the chosen ERR017.001 and ERR013.030).
const (
	reasonUnauthorized      = "ERR000.002"
	reasonInvalidPermission = "ERR000.003"
	reasonUnsupportedChain  = "ERR000.008"
	reasonInvalidAsset      = "ERR000.010"
	reasonInvalidAddress    = "ERR000.012"
	reasonInvalidAssetID    = "ERR000.013"
	reasonInvalidSignature  = "ERR000.014"
	reasonInvalidToken      = "ERR000.015"
	reasonInvalid           = "ERR000.020"
	reasonVaultNotFound     = "ERR009.002"
	reasonWalletNotFound    = "ERR009.101"
	reasonWalletChain       = "ERR009.110"
	reasonQuorumRequired    = "ERR009.108"
	reasonNotProvisioned    = "ERR009.106"
	reasonTxNotFound        = "ERR010.004"
	reasonOverrideNotEVM    = "ERR010.009"
	reasonNoFunds           = "ERR020.004"
	reasonBadEncodedTx      = "ERR010.011"
	reasonUndecodableTx     = "ERR010.022"
	reasonCannotFreeze      = "ERR010.008"
	reasonPolicyDenial      = "ERR006.005"
	reasonLimitExists       = "ERR006.023"
	reasonLimitNotDeletable = "ERR006.016"
	reasonBadMatcher        = "ERR006.028"
	reasonAddressChains     = "ERR013.015"
	reasonCounterpartyGone  = "ERR013.002"
	reasonAddressGone       = "ERR013.012"
	reasonAddressNotOwned   = "ERR013.021"
	reasonWebhookExists     = "ERR015.001"
	reasonSubscriptionDup   = "ERR015.010"
	reasonWebhookGone       = "ERR015.002"
	reasonSubscriptionGone  = "ERR015.011"
	reasonSweepRunning      = "ERR017.006"
	reasonSweepGone         = "ERR017.001" // chosen: the spec does not show it
	reasonEndpointLocked    = "ERR013.030" // chosen: destination is a locked custody endpoint
)

// Permissions the operations check; policy:* and keylimit:* cover them.
const (
	permPolicyRead = "policy:read"
	permLimitRead  = "keylimit:read"
	permLimitWrite = "keylimit:write"
)
