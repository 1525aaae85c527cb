package get

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"charm.land/lipgloss/v2"

	"treasury/data/payments/ticket"
	"treasury/data/wire"
	"treasury/ui/sanitize"
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
// (its raw JSON, every field it had, none added), a record built here
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
// JSON as received (wire.Raw) by that JSON.
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
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Slice {
		cp := reflect.New(rv.Type()).Elem()
		cp.Set(rv)
		if r, ok := raw(cp); ok {
			return r
		}
		return v
	}
	out := make([]any, rv.Len())
	for i := range out {
		if r, ok := raw(rv.Index(i)); ok {
			out[i] = r
		} else {
			out[i] = rv.Index(i).Interface()
		}
	}
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
		header = append(header, f.name)
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
			return d.csv || d.name == "error_code" && slices.Contains(titles, "Error")
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
