package table

import (
	"cmp"
	"encoding/binary"
	"math"
	"slices"
)

// A sort by a column is computed once per version (and patched in the
// versions after it), off the sessions' goroutines, but at 100,000 rows
// it is what a person waits for: each row's key is first reduced to a few
// words that order as the key does (its kind, then two words of number or
// of the text's first sixteen bytes), and the rows are sorted by those in
// a flat slice, reading no row. Where texts tie on their sixteen bytes
// and go on, the tied rows are sorted again by their next sixteen, and so
// on (a most-significant-first string sort); where decimals of more
// digits than a float holds tie on their floats, the rows decide.

// sortEntry is one row in a sort by a column: its key's words and its
// place in the given order (the tie-break, and the way to its row).
type sortEntry struct {
	a, b uint64
	rank int32
	kind keyKind
	// more says the words may tie where the keys do not.
	more bool
}

// sortColumn sorts the slots of given by column c, ascending or
// descending, ties in the order given either way.
func sortColumn(given []int32, row func(int32) *Row, c int, desc bool) []int32 {
	es := make([]sortEntry, len(given))
	var texts []string // by rank, for a column of text: what refine reads again
	for i, s := range given {
		r := row(s)
		es[i] = entryOf(r, c)
		es[i].rank = int32(i)
		if es[i].more && es[i].kind != kindDecimal {
			if texts == nil {
				texts = make([]string, len(given))
			}
			texts[i] = textOf(r, c, es[i].kind)
		}
	}
	sortEntries(es, desc)
	refine(es, texts, given, row, c, 16, desc)
	out := make([]int32, len(es))
	for i, e := range es {
		out[i] = given[e.rank]
	}
	return out
}

// sortEntries sorts es by their words, ascending or descending, ties
// in the order they are in (the given order: es are made in it, and each
// refinement keeps it): a radix sort, least significant byte first, each
// pass stable; the counts of every byte are made in one reading, and a
// byte all entries share takes no pass.
func sortEntries(es []sortEntry, desc bool) {
	if len(es) < smallRun {
		slices.SortStableFunc(es, func(x, y sortEntry) int {
			r := cmp.Or(cmp.Compare(x.kind, y.kind), cmp.Compare(x.a, y.a), cmp.Compare(x.b, y.b))
			if desc {
				return -r
			}
			return r
		})
		return
	}
	// Byte i of the words, least significant first: b's eight, a's
	// eight, the kind.
	var counts [17][256]int
	for k := range es {
		e := &es[k]
		for i := range 8 {
			counts[i][byte(e.b>>(8*i))]++
			counts[8+i][byte(e.a>>(8*i))]++
		}
		counts[16][e.kind]++
	}
	tmp := make([]sortEntry, len(es))
	src, dst := es, tmp
	for i := range 17 {
		c := &counts[i]
		if c[entryByte(&src[0], i)] == len(src) {
			continue // every entry has this byte: the order stands
		}
		var at [256]int
		sum := 0
		for k := range 256 {
			b := k
			if desc {
				b = 255 - k
			}
			at[b] = sum
			sum += c[b]
		}
		for k := range src {
			b := entryByte(&src[k], i)
			dst[at[b]] = src[k]
			at[b]++
		}
		src, dst = dst, src
	}
	if &src[0] != &es[0] {
		copy(es, src)
	}
}

// smallRun is the size under which entries are sorted by comparison.
const smallRun = 64

// entryByte is byte i of an entry's words, the least significant first:
// b's eight bytes, then a's, then its kind.
func entryByte(e *sortEntry, i int) byte {
	switch {
	case i < 8:
		return byte(e.b >> (8 * i))
	case i < 16:
		return byte(e.a >> (8 * (i - 8)))
	}
	return byte(e.kind)
}

// refine orders again the runs of es that tie on their words while one
// of them goes on past the first depth bytes of its text.
func refine(es []sortEntry, texts []string, given []int32, row func(int32) *Row, c, depth int, desc bool) {
	for i := 0; i < len(es); {
		j := i + 1
		more := es[i].more
		for j < len(es) && es[j].kind == es[i].kind && es[j].a == es[i].a && es[j].b == es[i].b {
			more = more || es[j].more
			j++
		}
		run := es[i:j]
		i = j
		if !more || len(run) < 2 {
			continue
		}
		if run[0].kind == kindDecimal {
			slices.SortFunc(run, func(x, y sortEntry) int {
				r := compareCol(row(given[x.rank]), row(given[y.rank]), c)
				if desc {
					r = -r
				}
				return cmp.Or(r, cmp.Compare(x.rank, y.rank))
			})
			continue
		}
		for k := range run {
			text := texts[run[k].rank] // longer than the words, else ""
			if len(text) > depth {
				text = text[depth:]
			} else {
				text = ""
			}
			run[k].a, run[k].b, run[k].more = textWords(text)
		}
		sortEntries(run, desc)
		refine(run, texts, given, row, c, depth+16, desc)
	}
}

// entryOf reduces r's key of column c to words that order as it does.
func entryOf(r *Row, c int) sortEntry {
	k := r.Key(c)
	e := sortEntry{kind: k.kind}
	switch k.kind {
	case kindNone, kindString:
		e.a, e.b, e.more = textWords(textOf(r, c, k.kind))
	case kindInt:
		e.a = k.n ^ 1<<63
	case kindFloat, kindDecimal:
		e.a = floatWord(k.float())
		e.more = k.s != nil
	}
	return e
}

// textOf is the text a text-like key of r's column c sorts by.
func textOf(r *Row, c int, kind keyKind) string {
	if kind == kindString {
		return r.Key(c).text()
	}
	return cellAt(r, c)
}

// textWords are the first sixteen bytes of s as two big-endian words
// (zeros past its end: a cell holds no NUL, so a shorter text orders
// first as it should); more says s goes on past them.
func textWords(s string) (a, b uint64, more bool) {
	if len(s) >= 16 {
		return binary.BigEndian.Uint64([]byte(s[:8])), binary.BigEndian.Uint64([]byte(s[8:16])), len(s) > 16
	}
	for i := range 16 {
		var c uint64
		if i < len(s) {
			c = uint64(s[i])
		}
		if i < 8 {
			a = a<<8 | c
		} else {
			b = b<<8 | c
		}
	}
	return a, b, len(s) > 16
}

// floatWord is a word that orders as f does in cmp.Compare: NaN first,
// then -Inf up to +Inf (-0 and 0 alike).
func floatWord(f float64) uint64 {
	switch {
	case math.IsNaN(f):
		return 0
	case f == 0:
		f = 0 // -0 orders as 0
	}
	bits := math.Float64bits(f)
	if bits>>63 == 1 {
		return ^bits
	}
	return bits | 1<<63
}
