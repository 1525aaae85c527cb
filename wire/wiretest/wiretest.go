// Package wiretest helps test the decoders of network input: bodies an
// adversarial server could send, at a given size, and the bytes a decoder
// allocates reading one, so that a test can bound what a body of N bytes
// costs (the transport bounds N).
package wiretest

import (
	"bytes"
	"encoding/json"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"treasury/wire"
)

// MaxRatio is the bound the decoders' tests hold a megabyte of
// adversarial body to: at most this many bytes allocated per byte read.
// Records are bigger than their shortest JSON ("{}" is a record of a few
// hundred bytes), which is why it is not 1; wire.MaxItems is what keeps it
// a constant. Under the race detector, whose instrumentation allocates
// too (up to about 70 per byte for report rows), the bound is raceRatio:
// `go test ./...` holds the decoders to 40, `.ci/run` (-race) to that.
const MaxRatio = 40 * raceRatio

// Body is an adversarial body.
type Body struct {
	Name string
	Data []byte
}

// Adversarial returns bodies of about n bytes that cost a naive decoder
// the most per byte: arrays of many tiny elements (empty objects, numbers,
// nulls, short strings: each a record to read or to skip), an object of
// many keys (a few names repeated, and all distinct: a map's entries),
// one long string, a number of many digits, and nesting as deep as n
// allows. key, when set, wraps each array as the value of that key
// of an object (a page envelope such as {"data": [...]}).
func Adversarial(n int, key string) []Body {
	array := func(elem string) []byte {
		var b bytes.Buffer
		b.Grow(n + 16)
		b.WriteByte('[')
		for b.Len() < n {
			if b.Len() > 1 {
				b.WriteByte(',')
			}
			b.WriteString(elem)
		}
		b.WriteByte(']')
		return b.Bytes()
	}
	wrap := func(v []byte) []byte {
		if key == "" {
			return v
		}
		return append(append([]byte(`{"`+key+`":`), v...), '}')
	}
	var keys bytes.Buffer
	keys.WriteByte('{')
	for i := 0; keys.Len() < n; i++ {
		if i > 0 {
			keys.WriteByte(',')
		}
		keys.WriteString(`"k`)
		keys.WriteString(strings.Repeat("x", i%7))
		keys.WriteString(`":1`)
	}
	keys.WriteByte('}')
	var distinct bytes.Buffer
	distinct.WriteByte('{')
	for i := 0; distinct.Len() < n; i++ {
		if i > 0 {
			distinct.WriteByte(',')
		}
		distinct.WriteString(`"`)
		distinct.WriteString(strconv.Itoa(i))
		distinct.WriteString(`":1`)
	}
	distinct.WriteByte('}')
	return []Body{
		{"empty objects", wrap(array("{}"))},
		{"numbers", wrap(array("1"))},
		{"nulls", wrap(array("null"))},
		{"short strings", wrap(array(`"a"`))},
		{"objects of one bad field", wrap(array(`{"id":1}`))},
		{"many keys", wrap(keys.Bytes())},
		{"many distinct keys", wrap(distinct.Bytes())},
		{"long string", wrap([]byte(`["` + strings.Repeat("a", n) + `"]`))},
		{"long number", wrap([]byte(`[` + strings.Repeat("9", n) + `]`))},
		{"deep nesting", wrap([]byte(strings.Repeat("[", n/2) + strings.Repeat("]", n/2)))},
	}
}

// Allocated returns the bytes f allocates (the process's, so run it
// alone: not beside parallel tests).
func Allocated(f func()) uint64 {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// Stable checks that rec, written as JSON and read back, writes the same
// JSON again: what a decoder produced is a fixed point of encoding and
// decoding (nothing read is lost or invented on the way back). A record
// that kept its JSON as received (wire.Raw) must read from it to the same
// record.
func Stable[T any](tb testing.TB, rec T) {
	tb.Helper()
	if r, ok := any(rec).(wire.RawJSONer); ok && r.RawJSON() != nil {
		again, err := wire.Decode[T](r.RawJSON())
		if err != nil {
			tb.Fatalf("%T's raw JSON %s does not decode: %v", rec, r.RawJSON(), err)
		}
		x, err1 := json.Marshal(rec)
		y, err2 := json.Marshal(again)
		if err1 != nil || err2 != nil || !bytes.Equal(x, y) {
			tb.Fatalf("%T's raw JSON %s reads as %s, not %s (%v %v)", rec, r.RawJSON(), y, x, err1, err2)
		}
	}
	a, err := json.Marshal(rec)
	if err != nil {
		tb.Fatalf("%T does not encode: %v", rec, err)
	}
	back, err := wire.Decode[T](a)
	if err != nil {
		tb.Fatalf("%T encoded as %s does not decode: %v", rec, a, err)
	}
	b, err := json.Marshal(back)
	if err != nil {
		tb.Fatalf("%T does not encode again: %v", rec, err)
	}
	if !bytes.Equal(a, b) {
		tb.Fatalf("%T is not stable:\n%s\n%s", rec, a, b)
	}
}

// Bounded fails when decode, given each adversarial body of a megabyte
// (wrapped under key when set), allocates more than MaxRatio times the
// body's size.
func Bounded(tb testing.TB, key string, decode func([]byte)) {
	tb.Helper()
	for _, b := range Adversarial(1<<20, key) {
		n := Allocated(func() { decode(b.Data) })
		if ratio := float64(n) / float64(len(b.Data)); ratio > MaxRatio {
			tb.Errorf("%s: %d bytes allocated for a %d-byte body (%.0fx, bound %dx)", b.Name, n, len(b.Data), ratio, MaxRatio)
		}
	}
}

// Seeds returns the adversarial bodies at a size a fuzz seed corpus runs
// in plain go test (a few hundred bytes each), wrapped under key when set.
func Seeds(key string) [][]byte {
	var out [][]byte
	for _, b := range Adversarial(300, key) {
		out = append(out, b.Data)
	}
	return out
}
