package reporting

import (
	"encoding/json"

	"treasury/wire/money"
)

// Sent is sent_amount, nil when the row has none.
func (r *PaymentOpsRow) Sent() *money.Number { return present(r.SentAmount, r.SentAmountAbsent) }

// Received is received_amount, nil when the row has none (a FAILED
// payment received nothing).
func (r *PaymentOpsRow) Received() *money.Number {
	return present(r.ReceivedAmount, r.ReceivedAmountAbsent)
}

// Has reports whether the row holds a value in the spec column named
// column (its wire name): a string that is not empty, an amount or a time
// that is present.
func (r *PaymentOpsRow) Has(column string) bool { return opsSchema().has(r, column) }

// MarshalJSON writes the row as a JSON object: the spec's columns in its
// order (absent amounts and times as null), then the extra columns as
// strings. A row with every amount and time and no extra column is written
// by encoding/json from the struct (the sandbox serves many).
func (r PaymentOpsRow) MarshalJSON() ([]byte, error) {
	if !r.SentAmountAbsent && !r.ReceivedAmountAbsent && !r.QuoteTS.IsZero() && !r.CreatedAt.IsZero() && len(r.Extra) == 0 {
		type plain PaymentOpsRow
		return json.Marshal(plain(r))
	}
	return marshalRow(&r, opsSchema())
}

// UnmarshalJSON reads a row object as ParsePaymentOpsJSON reads each row.
func (r *PaymentOpsRow) UnmarshalJSON(b []byte) error { return unmarshalRow(r, b, opsSchema()) }

// Sent is sent_amount, nil when the line has none.
func (r *ReconRow) Sent() *money.Number { return present(r.SentAmount, r.SentAmountAbsent) }

// Received is received_amount, nil when the line has none.
func (r *ReconRow) Received() *money.Number { return present(r.ReceivedAmount, r.ReceivedAmountAbsent) }

// Has reports whether the line holds a value in the spec column named
// column, like PaymentOpsRow.Has.
func (r *ReconRow) Has(column string) bool { return reconSchema().has(r, column) }

// MarshalJSON writes the line as PaymentOpsRow.MarshalJSON writes a row.
func (r ReconRow) MarshalJSON() ([]byte, error) {
	if !r.SentAmountAbsent && !r.ReceivedAmountAbsent && !r.QuoteTS.IsZero() && len(r.Extra) == 0 {
		type plain ReconRow
		return json.Marshal(plain(r))
	}
	return marshalRow(&r, reconSchema())
}

// UnmarshalJSON reads a line object as ParseReconJSON reads each line.
func (r *ReconRow) UnmarshalJSON(b []byte) error { return unmarshalRow(r, b, reconSchema()) }

func present(n money.Number, absent bool) *money.Number {
	if absent {
		return nil
	}
	return &n
}
