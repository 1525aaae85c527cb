package wallets

import (
	"reflect"

	"treasury/wire/wallet"
)

// RecordTypes are the types of the records the view's tables list: a
// profile's custom command on this view names fields of one of them
// ({field}), which the start checks (commands/dashboard).
func RecordTypes() []reflect.Type {
	return []reflect.Type{reflect.TypeFor[wallet.Vault](), reflect.TypeFor[wallet.Wallet](), reflect.TypeFor[wallet.Transaction](), reflect.TypeFor[wallet.Webhook](), reflect.TypeFor[wallet.Subscription](), reflect.TypeFor[wallet.SweepConfig]()}
}
