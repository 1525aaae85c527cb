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
// cannot be read is skipped; content that is not well-formed JSON, or not
// an array, cannot be read at all.
func parseJSON[R any](data []byte, s schema[R]) ([]R, []*ParseError, error) {
	data = bytes.TrimPrefix(data, []byte(utf8BOM))
	if t := bytes.TrimSpace(data); len(t) == 0 || string(t) == "null" {
		return nil, nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('[') {
		return nil, nil, &ParseError{Line: lineAt(data, 0), Err: errors.New("a JSON report must be an array of row objects")}
	}
	rd := newRowReader(s)
	lines := lineCounter{data: data}
	var out []R
	var skipped []*ParseError
	for dec.More() {
		line := lines.at(dec.InputOffset())
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, nil, &ParseError{Line: line, Err: fmt.Errorf("the report is not well-formed JSON: %w", err)}
		}
		r, perr := rd.row(raw)
		if perr != nil {
			perr.Line = line
			skipped = append(skipped, perr)
			continue
		}
		out = append(out, r)
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim(']') {
		return nil, nil, &ParseError{Line: lineAt(data, dec.InputOffset()), Err: errors.New("unterminated array of rows")}
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, nil, &ParseError{Line: lineAt(data, dec.InputOffset()), Err: errors.New("content after the array of rows")}
	}
	return out, skipped, nil
}

// rowReader reads row objects of one schema, reusing its index.
type rowReader[R any] struct {
	s      schema[R]
	byName map[string]int
	seen   []json.RawMessage // value of each column in the row being read
}

func newRowReader[R any](s schema[R]) *rowReader[R] {
	return &rowReader[R]{s: s, byName: s.index(), seen: make([]json.RawMessage, len(s.cols))}
}

// row reads one row object, keys in any letter case; keys the spec does
// not name are kept as extra columns in the object's order.
func (rd *rowReader[R]) row(raw json.RawMessage) (R, *ParseError) {
	var r R
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		what := "null"
		if len(raw) > 0 && raw[0] != 'n' {
			what = clip(string(raw))
		}
		return r, &ParseError{Err: fmt.Errorf("row is not a JSON object: %s", what)}
	}
	clear(rd.seen)
	var extra []Field
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.Token() // {
	for dec.More() {
		t, err := dec.Token()
		name, _ := t.(string)
		var v json.RawMessage
		if err == nil {
			err = dec.Decode(&v)
		}
		if err != nil {
			return r, &ParseError{Err: fmt.Errorf("row is not a JSON object: %w", err)}
		}
		j, ok := rd.byName[key(name)]
		if !ok {
			extra = append(extra, Field{Name: name, Value: extraText(v)})
			continue
		}
		c := rd.s.cols[j]
		if prev := rd.seen[j]; prev != nil {
			if !bytes.Equal(bytes.TrimSpace(prev), bytes.TrimSpace(v)) {
				return r, &ParseError{Column: c.name, Err: ErrDuplicateColumn}
			}
			continue
		}
		rd.seen[j] = v
		cl, err := jsonCell(v)
		if err == nil {
			err = c.set(&r, cl)
		}
		if err != nil {
			return r, &ParseError{Column: c.name, Err: err}
		}
	}
	for j, v := range rd.seen {
		if v == nil {
			rd.s.cols[j].set(&r, absent()) // never fails
		}
	}
	if err := rd.s.check(&r); err != nil {
		return r, err
	}
	*rd.s.extra(&r) = extra
	return r, nil
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
		return string(raw)
	}
	return b.String()
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
