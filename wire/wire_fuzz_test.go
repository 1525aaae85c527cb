package wire_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"treasury/wire"
	"treasury/wire/wiretest"
)

// FuzzItems: any input decodes into Items without panicking; a valid JSON
// array of at most MaxItems elements never fails as a whole, and each of
// its elements is either a record or a skip, in order; each record's raw
// JSON decodes to the same record, and the records written back decode
// again to the same records with nothing skipped.
func FuzzItems(f *testing.F) {
	for _, s := range []string{
		`[]`, `null`, `[{"id":"a","n":1,"at":"2026-11-16T09:30:00Z","by":"ana"}]`,
		`[{"id":"b","n":"two"},7,null,{"id":"c","at":"yesterday"},{"id":"d","by":{"id":"u1","name":"Ben"}}]`,
		`{"items":[]}`, `"x"`, `[1,2`, `[{}] x`, `[{"id":"\u202e\u0000"}]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var it wire.Items[rec]
		err := json.Unmarshal(data, &it)
		var elems []json.RawMessage
		isArray := json.Unmarshal(data, &elems) == nil && bytes.HasPrefix(bytes.TrimSpace(data), []byte("["))
		switch {
		case isArray && len(elems) <= wire.MaxItems && err != nil:
			t.Fatalf("a valid array of %d elements failed: %v", len(elems), err)
		case isArray && len(elems) > wire.MaxItems && !errors.Is(err, wire.ErrTooManyItems):
			t.Fatalf("an array of %d elements: %v, want ErrTooManyItems", len(elems), err)
		case err != nil:
			return
		}
		if isArray && len(it.Items)+len(it.Skipped) != len(elems) {
			t.Fatalf("%d elements became %d records and %d skips", len(elems), len(it.Items), len(it.Skipped))
		}
		last := -1
		for _, s := range it.Skipped {
			if s.Index <= last || s.Index >= len(elems) || s.Reason == "" {
				t.Fatalf("skip %+v after index %d of %d", s, last, len(elems))
			}
			last = s.Index
		}
		for _, r := range it.Items {
			again, err := wire.Decode[rec](r.RawJSON())
			if err != nil || !sameJSON(t, again, r) {
				t.Fatalf("raw %s decodes to %+v (%v), not %+v", r.RawJSON(), again, err, r)
			}
		}
		out, err := json.Marshal(it)
		if err != nil {
			t.Fatal(err)
		}
		var back wire.Items[rec]
		if err := json.Unmarshal(out, &back); err != nil || len(back.Skipped) != 0 || len(back.Items) != len(it.Items) {
			t.Fatalf("written back %s: %v, %d records %d skipped", out, err, len(back.Items), len(back.Skipped))
		}
		for i := range back.Items {
			if !sameJSON(t, back.Items[i], it.Items[i]) {
				t.Fatalf("record %d changed when written back: %+v, %+v", i, back.Items[i], it.Items[i])
			}
		}
	})
}

// FuzzAny: a value of any JSON type is kept as received, shown as text
// and read as a flag without failing.
func FuzzAny(f *testing.F) {
	for _, s := range []string{`"ana"`, `null`, `12.50`, `true`, `{"id":"u1","name":"Ben"}`, `[1,"a"]`, `{"name":7}`, `"\u001b[31m"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) {
			return // encoding/json hands a decoder valid JSON only
		}
		var a wire.Any
		var txt wire.Text
		var flag wire.Flag
		if err := json.Unmarshal(data, &a); err != nil {
			t.Fatalf("Any: %v", err)
		}
		if err := json.Unmarshal(data, &txt); err != nil || string(txt) != a.Text() {
			t.Fatalf("Text %q (%v), Any.Text %q", txt, err, a.Text())
		}
		if err := json.Unmarshal(data, &flag); err != nil || bool(flag) != a.Bool() {
			t.Fatalf("Flag %v (%v), Any.Bool %v", flag, err, a.Bool())
		}
		out, err := json.Marshal(a)
		if err != nil || !json.Valid(out) {
			t.Fatalf("Any written as %s: %v", out, err)
		}
		// Written back, the value is the same JSON value (encoding/json
		// may escape <, > and & in it: the same value, other bytes).
		var back wire.Any
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatal(err)
		}
		if x, y := jsonValue(a.Raw()), jsonValue(back.Raw()); x == nil || !reflect.DeepEqual(x, y) {
			t.Fatalf("Any %s read back as %s", a.Raw(), back.Raw())
		}
		if data := bytes.TrimSpace(data); len(data) > 0 && data[0] != '{' && data[0] != '[' && back.Text() != a.Text() {
			t.Fatalf("scalar %s shown as %q, then %q", data, a.Text(), back.Text())
		}
	})
}

// FuzzList: a List reads what encoding/json reads into the plain slice,
// and fails where it fails (and beyond MaxItems elements); what it read
// writes back as the same JSON as the slice.
func FuzzList(f *testing.F) {
	for _, s := range []string{`[]`, `null`, `[{"id":"a","n":1}]`, `[{"id":"a"},{"n":"x"}]`, `{}`, `"x"`, `[1]`, ` [ {} , {} ] `} {
		f.Add([]byte(s))
	}
	for _, b := range wiretest.Seeds("") {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) {
			return // encoding/json hands a decoder valid JSON only
		}
		var plain []rec
		var list wire.List[rec]
		perr := json.Unmarshal(data, &plain)
		lerr := json.Unmarshal(data, &list)
		if perr == nil && len(plain) > wire.MaxItems {
			if !errors.Is(lerr, wire.ErrTooManyItems) {
				t.Fatalf("%d elements: %v, want ErrTooManyItems", len(plain), lerr)
			}
			return
		}
		if (perr == nil) != (lerr == nil) {
			t.Fatalf("slice: %v; List: %v", perr, lerr)
		}
		if perr != nil {
			return
		}
		if !sameJSON(t, plain, list) {
			t.Fatalf("slice %+v, List %+v", plain, list)
		}
	})
}

// TestListAllocationBounded: a megabyte of adversarial array inside a
// record costs a bounded multiple of its size.
func TestListAllocationBounded(t *testing.T) {
	wiretest.Bounded(t, "list", func(b []byte) {
		var r struct {
			List wire.List[rec] `json:"list"`
		}
		_ = json.Unmarshal(b, &r)
	})
	wiretest.Bounded(t, "list", func(b []byte) {
		var r struct {
			List wire.List[string] `json:"list"`
		}
		_ = json.Unmarshal(b, &r)
	})
}

// TestItemsAllocationBounded: a megabyte body built to be expensive per
// byte costs a bounded multiple of its size, whatever its shape.
func TestItemsAllocationBounded(t *testing.T) {
	wiretest.Bounded(t, "items", func(b []byte) {
		var page struct {
			Items wire.Items[rec] `json:"items"`
		}
		_ = json.Unmarshal(b, &page)
	})
}

// sameJSON compares records by their JSON, since Raw differs.
func sameJSON(t *testing.T, a, b any) bool {
	t.Helper()
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	if err1 != nil || err2 != nil {
		t.Fatalf("marshal: %v %v", err1, err2)
	}
	return bytes.Equal(x, y)
}

// jsonValue decodes b with numbers kept as written; nil when it is not
// JSON.
func jsonValue(b []byte) any {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil
	}
	return []any{v}
}
