package get

import (
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"treasury/figures"
	"treasury/kit/jsonfields"
	"treasury/wire/money"
)

// recordField is a leaf of a record: its path of JSON names ("originator.
// sourceAmount") and the struct field indexes that reach it.
type recordField struct {
	name  string
	index []int
	// currency, for an amount, is the field that holds its currency (its
	// sibling sourceCurrency of sourceAmount, currency of amount...): the
	// amount is written with at least the currency's decimals.
	currency *recordField
}

// amountTypes are the types of an amount.
var amountTypes = []reflect.Type{reflect.TypeFor[money.Number](), reflect.TypeFor[decimal.Decimal]()}

// currencyOf names the sibling that holds the currency of the amount
// field name: sourceAmount's sourceCurrency, amount's currency, a fee's
// feeCurrency, a balance's currency.
func currencyOf(name string) []string {
	switch {
	case name == "totalFee":
		return []string{"feeCurrency"}
	case name == "totalTaxes":
		return []string{"taxCurrency"}
	case strings.HasSuffix(name, "Amount") && name != "amount":
		return []string{strings.TrimSuffix(name, "Amount") + "Currency", "currency", "asset"}
	}
	return []string{"currency", "asset"}
}

// pairCurrencies gives each amount field of fs the field of its currency,
// a sibling in the same record or nested record.
func pairCurrencies(fs []recordField, types map[string]reflect.Type) {
	byName := map[string]*recordField{}
	for i := range fs {
		byName[fs[i].name] = &fs[i]
	}
	for i := range fs {
		f := &fs[i]
		if t := types[f.name]; !slices.Contains(amountTypes, t) {
			continue
		}
		prefix, last := "", f.name
		if j := strings.LastIndexByte(f.name, '.'); j >= 0 {
			prefix, last = f.name[:j+1], f.name[j+1:]
		}
		for _, c := range currencyOf(last) {
			if cf, ok := byName[prefix+c]; ok && types[cf.name].Kind() == reflect.String {
				f.currency = cf
				break
			}
		}
	}
}

// recordFields flattens a record type as encoding/json names its leaves
// (package jsonfields: nested structs become dotted paths, embedded ones
// are inlined), each amount paired with its currency.
func recordFields(t reflect.Type) []recordField {
	var out []recordField
	types := map[string]reflect.Type{}
	for _, l := range jsonfields.Leaves(t) {
		out = append(out, recordField{name: l.Path, index: l.Index})
		types[l.Path] = l.Type
	}
	pairCurrencies(out, types)
	return out
}

// presence is implemented by records that know which of their values were
// absent on the wire (report rows): an absent value is an empty cell, not
// the zero of its type.
type presence interface{ Has(column string) bool }

// cell formats the field of rec as CSV writes it; a nil pointer on the
// way, or a value the record says was absent, is empty. An amount is
// exact, with at least its currency's decimals (money.Text: 11456.10
// MXN), never grouped.
func (f recordField) cell(rec reflect.Value) string {
	v, ok := f.value(rec)
	if !ok {
		return ""
	}
	if f.currency != nil {
		if d, ok := amountOf(v); ok {
			return figures.MoneyData(d, f.currency.cell(rec))
		}
	}
	return formatValue(v)
}

// shown formats the field of rec as a table shows it: an amount as the
// dashboard writes it (money.Format: grouped), the rest as cell does.
func (f recordField) shown(rec reflect.Value) string {
	if f.currency != nil {
		if v, ok := f.value(rec); ok {
			if d, ok := amountOf(v); ok {
				return figures.Money(d, f.currency.cell(rec))
			}
		}
	}
	return f.cell(rec)
}

// amountOf is v as a decimal, when it is an amount.
func amountOf(v reflect.Value) (decimal.Decimal, bool) {
	switch x := v.Interface().(type) {
	case money.Number:
		return x.Decimal(), true
	case decimal.Decimal:
		return x, true
	}
	return decimal.Decimal{}, false
}

// value is the field's value in rec; ok is false when a nil pointer on the
// way, or the record, says it is absent.
func (f recordField) value(rec reflect.Value) (reflect.Value, bool) {
	if rec.CanAddr() {
		if p, ok := rec.Addr().Interface().(presence); ok && !strings.Contains(f.name, ".") && !p.Has(f.name) {
			return reflect.Value{}, false
		}
	}
	v := rec
	for _, i := range f.index {
		for v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return reflect.Value{}, false
			}
			v = v.Elem()
		}
		if i == jsonfields.OptGet {
			got := v.MethodByName("Get").Call(nil)
			if !got[1].Bool() {
				return reflect.Value{}, false
			}
			v = got[0]
			continue
		}
		v = v.Field(i)
	}
	return v, true
}

// formatValue prints a leaf: text for amounts, times as every data output
// writes them (figures.Stamp; a zero time is empty), lists of plain values joined by commas, other lists and maps as
// compact JSON.
func formatValue(v reflect.Value) string {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return ""
		}
		v = v.Elem()
	}
	if t, ok := v.Interface().(time.Time); ok {
		return figures.Stamp(t) // "" for a time the record has not
	}
	if m, ok := v.Interface().(encoding.TextMarshaler); ok {
		b, err := m.MarshalText()
		if err != nil {
			return ""
		}
		return string(b)
	}
	switch v.Kind() {
	case reflect.String:
		return v.String()
	case reflect.Bool:
		return strconv.FormatBool(v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return strconv.FormatUint(v.Uint(), 10)
	case reflect.Slice, reflect.Array:
		if v.Len() == 0 {
			return ""
		}
		if jsonfields.IsLeaf(v.Type().Elem()) && v.Type().Elem().Kind() != reflect.Map && v.Type().Elem().Kind() != reflect.Slice {
			parts := make([]string, v.Len())
			for i := range parts {
				parts[i] = formatValue(v.Index(i))
			}
			return strings.Join(parts, ",")
		}
	case reflect.Map:
		if v.Len() == 0 {
			return ""
		}
	}
	b, err := json.Marshal(v.Interface())
	if err != nil {
		return fmt.Sprint(v.Interface())
	}
	return string(b)
}
