package get

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"charm.land/lipgloss/v2"

	"treasury/figures"
	"treasury/figures/ticket"
	"treasury/ui/sanitize"
	"treasury/wire"
	"treasury/wire/payments"
)

// writeRecords prints v, a slice of records or one record (or rawBytes),
// in format: "table" (aligned columns; one record as field and value
// lines), "json" (the records with their wire field names, indented) or
// "csv" (a header of field paths, then one line per record). Table and CSV
// add the record type's derived columns (error code, guidance) after its
// fields; JSON is the wire records alone.
func writeRecords(w io.Writer, format string, v any, now time.Time) error {
	if raw, ok := v.(rawBytes); ok {
		_, err := w.Write(raw)
		return err
	}
	if s, ok := v.(ticket.Summary); ok {
		_, err := io.WriteString(w, sanitize.Text(s.Text()))
		return err
	}
	bw := bufio.NewWriter(w)
	var err error
	switch format {
	case "json":
		err = writeJSON(bw, v)
	default:
		rv := reflect.ValueOf(v)
		list := rv.Kind() == reflect.Slice
		t := rv.Type()
		if list {
			t = t.Elem()
		}
		fields, derived := withoutFlattened(t, recordFields(t)), derivedColumns(t, list)
		if format == "csv" {
			err = writeCSV(bw, fields, derived, rv, list)
		} else {
			err = writeTable(bw, fields, derived, rv, list, now)
		}
	}
	if err != nil {
		return err
	}
	return bw.Flush()
}

// writeJSON writes v indented: each record exactly as the server sent it
// (its raw JSON, every field it had; a payment with one key added,
// derivedKey, its figures), a record built here
// (none came from the network) with the spec's field names. An empty list
// is [], never null. Characters a terminal would act on (DEL, C1 controls,
// bidi overrides and other format characters; json.Marshal escapes C0
// itself) are written as \u escapes, so the output is both valid JSON
// with the values as received and safe to show.
func writeJSON(w io.Writer, v any) error {
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Slice && rv.IsNil() {
		v = reflect.MakeSlice(rv.Type(), 0, 0).Interface()
	}
	b, err := json.MarshalIndent(asReceived(v), "", "  ")
	if err != nil {
		return err
	}
	var out strings.Builder
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		switch {
		case r == 0x7f:
			out.WriteString(`\u007f`)
		case r < utf8.RuneSelf || sanitize.Safe(string(b[:n])):
			out.Write(b[:n])
		case r > 0xFFFF:
			r1, r2 := utf16Pair(r)
			fmt.Fprintf(&out, `\u%04x\u%04x`, r1, r2)
		default: // json.Marshal already replaced invalid UTF-8 by U+FFFD
			fmt.Fprintf(&out, `\u%04x`, r)
		}
		b = b[n:]
	}
	out.WriteByte('\n')
	_, err = io.WriteString(w, out.String())
	return err
}

// asReceived replaces each record of v (one, or a slice) that kept its
// JSON as received (wire.Raw) by that JSON, with the figures the dashboard
// derives of it under derivedKey (a payment's funding and retry verdict).
func asReceived(v any) any {
	raw := func(x reflect.Value) (json.RawMessage, bool) {
		if x.CanAddr() {
			x = x.Addr()
		}
		r, ok := x.Interface().(wire.RawJSONer)
		if !ok || len(r.RawJSON()) == 0 || !json.Valid(r.RawJSON()) {
			return nil, false
		}
		return r.RawJSON(), true
	}
	one := func(x reflect.Value) any {
		r, ok := raw(x)
		d, derived := derivedJSON(x)
		switch {
		case !ok && !derived:
			return x.Interface()
		case !ok:
			b, err := json.Marshal(x.Interface())
			if err != nil {
				return x.Interface()
			}
			r = b
		case !derived:
			return r
		}
		return withKey(r, derivedKey, d)
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Slice {
		cp := reflect.New(rv.Type()).Elem()
		cp.Set(rv)
		return one(cp)
	}
	out := make([]any, rv.Len())
	for i := range out {
		out[i] = one(rv.Index(i))
	}
	return out
}

// derivedKey is the one key `-o json` adds to a record as received: what
// the dashboard derives of it (package figures). The vendor's document
// names no field with an underscore, so the server's fields and this
// cannot collide.
const derivedKey = "_treasury"

// paymentFigures are a payment's figures in JSON, as every surface gives
// them: its funding class, every error's code, the error the reason
// groups count it under, the one retry verdict with why and what to do.
type paymentFigures struct {
	Funding     string   `json:"funding"`
	ErrorCodes  []string `json:"errorCodes"`
	ReasonCode  string   `json:"reasonCode,omitempty"`
	Retry       string   `json:"retry,omitempty"`
	RetryAdvice string   `json:"retryAdvice,omitempty"`
	RetryWhy    string   `json:"retryWhy,omitempty"`
	Guidance    string   `json:"guidance,omitempty"`
}

// derivedJSON is what -o json adds to rec (derivedKey); ok is false for a
// record of a type it adds nothing to.
func derivedJSON(rec reflect.Value) (any, bool) {
	p, ok := rec.Interface().(payments.Payment)
	if !ok {
		return nil, false
	}
	f := paymentFigures{Funding: figures.FundingOf(&p).Name(), ErrorCodes: figures.Codes(&p)}
	if e, ok := figures.Reason(&p); ok {
		f.ReasonCode = e.Code
	}
	if figures.RetryOf(&p) != figures.RetryNone {
		a := figures.VerdictOf(&p)
		f.Retry, f.RetryAdvice, f.RetryWhy, f.Guidance = a.Word.Word(), a.Retry, a.Why, a.Todo
	}
	return f, true
}

// withKey is the JSON object obj with key set to v, added after its own
// fields; obj as it is when it is no object or has the key already (our
// own output read back).
func withKey(obj json.RawMessage, key string, v any) json.RawMessage {
	b := bytes.TrimSpace(obj)
	val, err := json.Marshal(v)
	if err != nil || len(b) < 2 || b[0] != '{' || b[len(b)-1] != '}' {
		return obj
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(b, &fields) != nil {
		return obj
	}
	if _, ok := fields[key]; ok {
		return obj
	}
	k, _ := json.Marshal(key)
	out := append([]byte(nil), b[:len(b)-1]...)
	if len(bytes.TrimSpace(b[1:len(b)-1])) > 0 {
		out = append(out, ',')
	}
	out = append(append(append(append(out, k...), ':'), val...), '}')
	return out
}

func utf16Pair(r rune) (rune, rune) {
	r -= 0x10000
	return 0xD800 + (r>>10)&0x3FF, 0xDC00 + r&0x3FF
}

func writeCSV(w io.Writer, fields []recordField, derived []derivedColumn, rv reflect.Value, list bool) error {
	cw := csv.NewWriter(w)
	header := make([]string, 0, len(fields)+len(derived))
	for _, f := range fields {
		header = append(header, snakeCase(f.name))
	}
	for _, d := range derived {
		header = append(header, d.name)
	}
	cw.Write(header)
	eachRecord(rv, list, func(rec reflect.Value) {
		row := recordCells(fields, derived, rec)
		for i := range row {
			row[i] = sanitize.CSVCell(row[i])
		}
		cw.Write(row)
	})
	cw.Flush()
	return cw.Error()
}

// snakeCase is a field's path as a CSV header, in the one style of every
// CSV the tool writes (get's and the dashboard's): snake_case, a nested
// field after its record's name and a dot ("originator.source_amount",
// "jit_funding_expires_at").
func snakeCase(path string) string {
	var b strings.Builder
	rs := []rune(path)
	for i, r := range rs {
		upper := unicode.IsUpper(r)
		if upper && i > 0 && rs[i-1] != '.' && rs[i-1] != '_' &&
			(unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1])) {
			b.WriteByte('_')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// writeTable writes a list as aligned columns (the record type's short
// columns at now, else every field, then the derived columns), one record
// as field and value (a derived value only when it has one).
func writeTable(w io.Writer, fields []recordField, derived []derivedColumn, rv reflect.Value, list bool, now time.Time) error {
	var rows [][]string
	if !list {
		rows = append(rows, []string{"FIELD", "VALUE"})
		for _, f := range fields {
			rows = append(rows, []string{f.name, sanitize.Line(f.shown(rv))})
		}
		for _, d := range derived {
			if v := d.value(rv); v != "" {
				rows = append(rows, []string{d.name, sanitize.Line(v)})
			}
		}
		return writeAligned(w, rows)
	}
	titles, short, ok := shortColumns(rv.Interface(), now)
	if ok {
		// The short columns show the record's error already, and a list
		// is no place for the columns that flatten its lists.
		derived = slices.DeleteFunc(slices.Clone(derived), func(d derivedColumn) bool {
			return d.csv || (d.name == "error_code" || d.name == "error_codes") && slices.Contains(titles, "Error") ||
				d.name == "retry" && slices.Contains(titles, "Retry")
		})
	} else {
		titles = make([]string, len(fields))
		for i, f := range fields {
			titles[i] = f.name
		}
		short = func(i int) []string {
			row := make([]string, len(fields))
			for j, f := range fields {
				row[j] = f.shown(rv.Index(i))
			}
			return row
		}
	}
	header := make([]string, 0, len(titles)+len(derived))
	for _, t := range titles {
		header = append(header, strings.ToUpper(t))
	}
	for _, d := range derived {
		header = append(header, strings.ToUpper(d.name))
	}
	rows = append(rows, header)
	for i := range rv.Len() {
		row := short(i)
		for j := range row {
			row[j] = sanitize.Line(row[j])
		}
		rows = append(rows, append(row, recordCells(nil, derived, rv.Index(i))...))
	}
	return writeAligned(w, rows)
}

// writeAligned pads every column but the last to its widest cell.
func writeAligned(w io.Writer, rows [][]string) error {
	var widths []int
	for _, r := range rows {
		for i, c := range r {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], lipgloss.Width(c))
		}
	}
	var b, line strings.Builder
	for _, r := range rows {
		line.Reset()
		for i, c := range r {
			line.WriteString(c)
			if i < len(r)-1 {
				line.WriteString(strings.Repeat(" ", widths[i]-lipgloss.Width(c)+2))
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " "))
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// recordCells is the sanitized text of each field of rec, then of each
// derived column.
func recordCells(fields []recordField, derived []derivedColumn, rec reflect.Value) []string {
	row := make([]string, 0, len(fields)+len(derived))
	for _, f := range fields {
		row = append(row, sanitize.Line(f.cell(rec)))
	}
	for _, d := range derived {
		row = append(row, sanitize.Line(d.value(rec)))
	}
	return row
}

func eachRecord(rv reflect.Value, list bool, f func(reflect.Value)) {
	if !list {
		f(rv)
		return
	}
	for i := range rv.Len() {
		f(rv.Index(i))
	}
}
