package get

import (
	"reflect"

	"treasury/data/custody"
	"treasury/data/payments"
	"treasury/data/reporting"
	"treasury/data/wallet"
)

// tableColumns names the columns `get -o table` shows for a list of wide
// records, so the table fits a terminal; nil shows every field. CSV and
// JSON always carry every field.
func tableColumns(t reflect.Type) []string {
	switch t {
	case reflect.TypeFor[payments.Payment]():
		return []string{"paymentId", "paymentState", "initiatedAt", "lastStateUpdatedAt", "originator.internalId",
			"originator.sourceAmount", "originator.sourceCurrency", "destination.destinationAmount",
			"destination.destinationCurrency", "destination.beneficiaryIdentityNickName"}
	case reflect.TypeFor[payments.LedgerTransaction]():
		return []string{"createdDttm", "currency", "operation", "amount", "status", "txnSource", "txnReference",
			"availableBalanceAfter"}
	case reflect.TypeFor[wallet.Transaction]():
		return []string{"id", "walletId", "status", "action", "asset", "qty", "destinationAddress",
			"freezeInfo.isFrozen", "createdAt"}
	case reflect.TypeFor[wallet.Wallet]():
		return []string{"id", "vaultId", "name", "blockchain", "status", "address", "settings.enabled", "createdAt"}
	case reflect.TypeFor[wallet.Balance]():
		return []string{"asset.symbol", "asset.blockchain", "balance", "availableBalance", "pendingBalance",
			"frozenBalance", "fiatValue"}
	case reflect.TypeFor[custody.Endpoint]():
		return []string{"id", "alias", "address", "ledgerId", "lock", "trustScore", "parameters.type",
			"metadata.revision", "metadata.customProperties"}
	case reflect.TypeFor[reporting.PaymentOpsRow]():
		return []string{"end_to_end_id", "network_payment_id", "created_at", "payment_state", "sent_amount",
			"sent_currency", "received_amount", "received_currency", "fx_spot_rate", "payment_method"}
	case reflect.TypeFor[reporting.ReconRow]():
		return []string{"network_payment_id", "payment_state", "transaction_id", "transaction_type",
			"transaction_state", "sent_amount", "sent_currency", "balance_change", "balance_change_currency",
			"liquidation_status"}
	}
	return nil
}
