package addressbook

import (
	"reflect"

	"treasury/wire/custody"
	"treasury/wire/wallet"
)

// RecordTypes are the types of the records the view's tables list: a
// profile's custom command on this view names fields of one of them
// ({field}), which the start checks (commands/dashboard).
func RecordTypes() []reflect.Type {
	return []reflect.Type{reflect.TypeFor[wallet.Counterparty](), reflect.TypeFor[wallet.Address](), reflect.TypeFor[custody.Endpoint]()}
}
