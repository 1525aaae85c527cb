package wallet

import (
	"bytes"
	"encoding/json"

	"treasury/wire"
)

// Decoding of the fields whose JSON type the spec leaves open (tolerant
// reader): each record decodes into a shadow whose open fields accept any
// JSON, then keeps them as the plain Go types the rest of the program uses.

// UnmarshalJSON reads retryable whatever its JSON type (true or "true").
func (p *Problem) UnmarshalJSON(b []byte) error {
	type plain Problem
	var aux struct {
		*plain
		Retryable wire.Flag `json:"retryable"`
	}
	aux.plain = (*plain)(p)
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	p.Retryable = bool(aux.Retryable)
	return nil
}

// UnmarshalJSON reads reasons whatever the JSON type of an entry (the
// spec leaves it open: a string, or an object such as {code, message}).
func (t *Transaction) UnmarshalJSON(b []byte) error {
	type plain Transaction
	var aux struct {
		*plain
		Reasons wire.List[wire.Text] `json:"reasons"`
	}
	aux.plain = (*plain)(t)
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	t.Reasons = wire.Texts(aux.Reasons)
	return nil
}

// UnmarshalJSON reads assets whatever the JSON type of an entry (a
// symbol, or an object such as {symbol, blockchain}).
func (s *SweepConfig) UnmarshalJSON(b []byte) error {
	type plain SweepConfig
	var aux struct {
		*plain
		Assets wire.List[wire.Text] `json:"assets"`
	}
	aux.plain = (*plain)(s)
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	s.Assets = wire.Texts(aux.Assets)
	return nil
}

// UnmarshalJSON reads duration as text whatever its JSON type ("86400s",
// or a number of seconds).
func (l *Limit) UnmarshalJSON(b []byte) error {
	type plain Limit
	var aux struct {
		*plain
		Duration wire.Text `json:"duration"`
	}
	aux.plain = (*plain)(l)
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	l.Duration = string(aux.Duration)
	return nil
}

// UnmarshalJSON reads an asset given as an object or as its symbol alone.
func (a *Asset) UnmarshalJSON(b []byte) error {
	if b = bytes.TrimSpace(b); len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &a.Symbol)
	}
	type plain Asset
	return json.Unmarshal(b, (*plain)(a))
}
