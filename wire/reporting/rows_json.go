package reporting

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// parseJSON reads a JSON report: an array of row objects. A row that
// cannot be read is skipped; content that is not well-formed JSON, not an
// array, of more than maxRows rows (MaxRows) or of more than MaxSkipped
// values that are not objects cannot be read at all. Rows are read from the one decoder of
// the content, member by member: a decoder per row would cost its buffer
// (half a kilobyte) for each row, whatever the row's size.
func parseJSON[R any](data []byte, s schema[R], maxRows int) ([]R, skips, error) {
	data = bytes.TrimPrefix(data, []byte(utf8BOM))
	if t := bytes.TrimSpace(data); len(t) == 0 || string(t) == "null" {
		return nil, skips{}, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('[') {
		return nil, skips{}, &ParseError{Line: lineAt(data, 0), Err: errors.New("a JSON report must be an array of row objects")}
	}
	rd := newRowReader(s)
	lines := lineCounter{data: data}
	var out rowBuf[R]
	var sk skips
	notObjects := 0
	for dec.More() {
		off := dec.InputOffset()
		line := lines.at(off)
		r, f, err := rd.next(dec, data[off:])
		switch {
		case errors.Is(err, errTooManyColumns):
			return nil, skips{}, &ParseError{Line: line, Err: err}
		case err != nil:
			return nil, skips{}, &ParseError{Line: line, Err: fmt.Errorf("the report is not well-formed JSON: %w", err)}
		}
		if f.notObject != nil {
			// A value that is not an object costs encoding/json's
			// decoder an error of its own to read (a hundred bytes for
			// "1,"): past MaxSkipped of them, this is not a report.
			if notObjects++; notObjects > MaxSkipped {
				return nil, skips{}, &ParseError{Line: line, Err: fmt.Errorf("more than %d values are not row objects: not a JSON report", MaxSkipped)}
			}
		}
		if !f.ok() {
			sk.add(f, line)
			continue
		}
		if out.n == maxRows {
			return nil, skips{}, &ParseError{Line: line, Err: fmt.Errorf("more than %d rows: %w", maxRows, ErrTooManyRows)}
		}
		out.add(r)
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim(']') {
		return nil, skips{}, &ParseError{Line: lineAt(data, dec.InputOffset()), Err: errors.New("unterminated array of rows")}
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, skips{}, &ParseError{Line: lineAt(data, dec.InputOffset()), Err: errors.New("content after the array of rows")}
	}
	return out.rows(), sk, nil
}

// rowReader reads row objects of one schema, reusing its index.
type rowReader[R any] struct {
	s      schema[R]
	byName map[string]int
	seen   []json.RawMessage // value of each column in the row being read
	cur    *R                // the row being read: one for all, so a row skipped costs no row
	skip   json.RawMessage   // a value that is not a row, read to be skipped
}

func newRowReader[R any](s schema[R]) *rowReader[R] {
	return &rowReader[R]{s: s, byName: s.index(), seen: make([]json.RawMessage, len(s.cols)), cur: new(R)}
}

// row reads one row object on its own.
func (rd *rowReader[R]) row(raw json.RawMessage) (R, *ParseError) {
	r, f, err := rd.next(json.NewDecoder(bytes.NewReader(raw)), raw)
	switch {
	case err != nil:
		return r, &ParseError{Err: fmt.Errorf("row is not a JSON object: %w", err)}
	case !f.ok():
		return r, f.parseError(0)
	}
	return r, nil
}

// next reads the next value of dec as a row: a row, or why it cannot be
// one (the value is read through all the same), or the error of content
// that is not well-formed JSON. rest is the content from where dec
// stands: its first byte says whether the value is an object, and it
// names a value that is not. Such a value is read into one buffer for
// all, not as a token: a token of a number costs a hundred bytes.
func (rd *rowReader[R]) next(dec *json.Decoder, rest []byte) (R, fault, error) {
	var r R
	start := dec.InputOffset()
	if i := skipSeparators(rest, 0); i < len(rest) && rest[i] == '{' {
		if _, err := dec.Token(); err != nil {
			return r, fault{}, err
		}
		return rd.members(dec)
	}
	if err := dec.Decode(&rd.skip); err != nil {
		return r, fault{}, err
	}
	return r, fault{notObject: rest[:min(int(dec.InputOffset()-start), len(rest))]}, nil
}

// members reads the members of a row object whose '{' dec has read,
// through its '}', keys in any letter case; keys the spec does not name
// are kept as extra columns in the object's order.
func (rd *rowReader[R]) members(dec *json.Decoder) (R, fault, error) {
	var zero R
	r := rd.cur
	*r = zero
	clear(rd.seen)
	var extra []Field
	var f fault // the first fault; the row is read through all the same
	for n := 0; dec.More(); n++ {
		if n == MaxColumns {
			return zero, fault{}, errTooManyColumns
		}
		t, err := dec.Token()
		if err != nil {
			return zero, fault{}, err
		}
		name, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return zero, fault{}, err
		}
		if !f.ok() {
			continue
		}
		j, ok := rd.byName[key(name)]
		if !ok {
			extra = append(extra, Field{Name: name, Value: extraText(v)})
			continue
		}
		c := rd.s.cols[j]
		if prev := rd.seen[j]; prev != nil {
			if !bytes.Equal(bytes.TrimSpace(prev), bytes.TrimSpace(v)) {
				f = fault{column: c.name, err: ErrDuplicateColumn}
			}
			continue
		}
		rd.seen[j] = v
		cl, err := jsonCell(v)
		if err == nil {
			err = c.set(r, cl)
		}
		if err != nil {
			f = fault{column: c.name, err: err}
		}
	}
	if _, err := dec.Token(); err != nil { // }
		return zero, fault{}, err
	}
	if !f.ok() {
		return zero, f, nil
	}
	for j, v := range rd.seen {
		if v == nil {
			rd.s.cols[j].set(r, absent()) // never fails
		}
	}
	if f := rd.s.check(r); !f.ok() {
		return zero, f, nil
	}
	*rd.s.extra(r) = extra
	return *r, fault{}, nil
}

// jsonCell reads one JSON value of a row: a string, a number or null.
func jsonCell(raw json.RawMessage) (cell, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return cell{null: true}, nil
	}
	switch b := raw[0]; {
	case b == '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return cell{}, err
		}
		return cell{text: s}, nil
	case b == 'n':
		return cell{null: true}, nil
	case b == '-' || (b >= '0' && b <= '9'):
		return cell{text: string(raw), number: true}, nil
	}
	return cell{}, fmt.Errorf("expected a string, number or null, got %s", clip(string(raw)))
}

// extraText is the text of an extra column's JSON value: a string as is,
// null empty, anything else as its compact JSON.
func extraText(raw json.RawMessage) string {
	c, err := jsonCell(raw)
	switch {
	case err == nil && c.null:
		return ""
	case err == nil:
		return c.text
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		b.Reset()
		b.Write(raw)
	}
	// Valid UTF-8, as every string encoding/json decodes: the JSON text
	// of an object or array keeps the bytes of its strings as sent, and a
	// byte that is not UTF-8 would be written back as \ufffd, then read
	// as the character itself (the fuzzer found the text changing between
	// two round trips).
	return strings.ToValidUTF8(b.String(), "\uFFFD")
}

// unmarshalRow reads one row object on its own (json.Unmarshal of a row).
func unmarshalRow[R any](r *R, b []byte, s schema[R]) error {
	v, err := newRowReader(s).row(b)
	if err != nil {
		return err
	}
	*r = v
	return nil
}

// marshalRow writes a row as a JSON object: the spec's columns in order,
// text as strings, absent amounts and times as null, then the extras as
// strings. For a row without absent values or extras it writes what
// encoding/json writes for the struct.
func marshalRow[R any](r *R, s schema[R]) ([]byte, error) {
	b := make([]byte, 0, 64*len(s.cols))
	b = append(b, '{')
	for i, c := range s.cols {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, c.name)
		b = append(b, ':')
		switch v := c.get(r); {
		case c.kind == kindText:
			b = appendString(b, v)
		case v == "":
			b = append(b, "null"...)
		case c.kind == kindAmount:
			b = append(b, v...)
		default:
			b = appendString(b, v)
		}
	}
	for _, f := range *s.extra(r) {
		b = append(b, ',')
		b = appendString(b, f.Name)
		b = append(b, ':')
		b = appendString(b, f.Value)
	}
	return append(b, '}'), nil
}

// appendString appends s as a JSON string, escaped as encoding/json
// escapes it (HTML characters included).
func appendString(b []byte, s string) []byte {
	plain := true
	for i := 0; i < len(s) && plain; i++ {
		c := s[i]
		plain = c >= 0x20 && c < utf8.RuneSelf && !strings.ContainsRune("\"\\<>&", rune(c))
	}
	if plain {
		b = append(b, '"')
		b = append(b, s...)
		return append(b, '"')
	}
	q, _ := json.Marshal(s) // a string always encodes
	return append(b, q...)
}

// lineCounter finds lines like lineAt, counting only the newlines since
// the previous offset asked, so reading a report row by row stays linear.
type lineCounter struct {
	data     []byte
	off      int // bytes counted so far
	newlines int // newlines in data[:off]
}

func (c *lineCounter) at(off int64) int {
	i := skipSeparators(c.data, off)
	if i < c.off {
		c.off, c.newlines = 0, 0
	}
	c.newlines += bytes.Count(c.data[c.off:i], []byte("\n"))
	c.off = i
	return 1 + c.newlines
}

// lineAt is the 1-based line of the first byte at or after off that is not
// space or a comma between values.
func lineAt(data []byte, off int64) int {
	return 1 + bytes.Count(data[:skipSeparators(data, off)], []byte("\n"))
}

// skipSeparators is the index of the first byte at or after off that is
// not space or a comma.
func skipSeparators(data []byte, off int64) int {
	i := int(min(max(off, 0), int64(len(data))))
	for i < len(data) && strings.IndexByte(" \t\r\n,", data[i]) >= 0 {
		i++
	}
	return i
}
