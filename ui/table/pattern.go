package table

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"unicode/utf8"
)

// A search's regular expression (~regexp) runs over the text of every
// row, some 200 bytes a payment, and Go's matcher costs a few
// nanoseconds a byte for each place a match may start: at 100,000 rows,
// most of a second. So what the expression needs is worked out once:
//   - texts every match holds, one of each set (a sequence holds each
//     part's, an alternation one of its branches'): a row lacking them is
//     passed over without running the expression;
//   - texts every match begins with: only where a row holds one is the
//     expression tried, anchored there.
// Both are ASCII (or runes without case), found byte by byte case aside,
// in plain rows (Row.plain); any other row is matched as it is.

// pattern is a compiled ~regexp of a search.
type pattern struct {
	re *regexp.Regexp // (?i) and the expression
	// anchored is the expression anchored at its start, tried where a
	// row holds one of starts (set when every match begins with one).
	anchored *regexp.Regexp
	starts   []finder
	// needs are sets of texts a match holds one of each.
	needs [][]finder
}

// compilePattern compiles expr as a search does (case-insensitive).
func compilePattern(expr string) (*pattern, error) {
	re, err := regexp.Compile("(?i)" + expr)
	if err != nil {
		return nil, err
	}
	p := &pattern{re: re}
	tree, err := syntax.Parse("(?i)"+expr, syntax.Perl)
	if err != nil {
		return p, nil
	}
	tree = tree.Simplify()
	for _, set := range needs(tree) {
		p.needs = append(p.needs, finders(set))
	}
	if starts := startTexts(tree); starts != nil && !assertsPlace(tree) {
		if a, err := regexp.Compile("^(?:(?i)" + expr + ")"); err == nil {
			p.anchored, p.starts = a, finders(starts)
		}
	}
	return p, nil
}

func finders(texts []string) []finder {
	out := make([]finder, len(texts))
	for i, t := range texts {
		out[i] = newFinder(t)
	}
	return out
}

// match reports whether s (of a row; plain is the row's) matches.
func (p *pattern) match(s string, plain bool) bool {
	if !plain {
		return p.re.MatchString(s)
	}
	for _, set := range p.needs {
		if !slices.ContainsFunc(set, func(f finder) bool { return f.in(s, plain) }) {
			return false // it lacks what every match holds
		}
	}
	if p.anchored == nil {
		return p.re.MatchString(s)
	}
	for _, f := range p.starts {
		for i := indexFold(s, f.text, 0); i >= 0; i = indexFold(s, f.text, i+1) {
			if p.anchored.MatchString(s[i:]) {
				return true
			}
		}
	}
	return false
}

// maxTexts bounds the texts of one set.
const maxTexts = 8

// literalText is the text a literal node holds, lowercased, when it is
// found byte by byte (ASCII, or runes without case), else "".
func literalText(r *syntax.Regexp) string {
	t := strings.ToLower(string(r.Rune))
	if !newFinder(t).byBytes || strings.ContainsRune(t, utf8.RuneError) {
		return ""
	}
	return t
}

// needs are sets of texts one of each every match of r holds.
func needs(r *syntax.Regexp) [][]string {
	switch r.Op {
	case syntax.OpLiteral:
		if t := literalText(r); t != "" {
			return [][]string{{t}}
		}
		// Its longest ASCII part, at least.
		best := ""
		for _, part := range strings.FieldsFunc(string(r.Rune), func(c rune) bool { return c >= utf8.RuneSelf }) {
			if len(part) > len(best) {
				best = part
			}
		}
		if best != "" {
			return [][]string{{strings.ToLower(best)}}
		}
	case syntax.OpConcat:
		var all [][]string
		for _, sub := range r.Sub { // each part of a sequence is in every match
			all = append(all, needs(sub)...)
		}
		return all
	case syntax.OpAlternate:
		// One of the branches: each branch's longest need, together.
		var set []string
		for _, sub := range r.Sub {
			best := longestNeed(needs(sub))
			if best == nil {
				return nil // a branch with nothing known: nothing is
			}
			set = append(set, best...)
		}
		if len(set) > maxTexts {
			return nil
		}
		return [][]string{set}
	case syntax.OpCapture, syntax.OpPlus:
		return needs(r.Sub[0])
	case syntax.OpRepeat:
		if r.Min >= 1 {
			return needs(r.Sub[0])
		}
	}
	return nil
}

// longestNeed is the set of ns whose shortest text is the longest.
func longestNeed(ns [][]string) []string {
	var best []string
	for _, n := range ns {
		if best == nil || shortest(n) > shortest(best) {
			best = n
		}
	}
	return best
}

// shortest is the length of the shortest of texts.
func shortest(texts []string) int {
	n := len(texts[0])
	for _, t := range texts[1:] {
		n = min(n, len(t))
	}
	return n
}

// startTexts are texts one of which every match of r begins with (nil
// when not known).
func startTexts(r *syntax.Regexp) []string {
	switch r.Op {
	case syntax.OpLiteral:
		if t := literalText(r); t != "" {
			return []string{t}
		}
	case syntax.OpConcat:
		if len(r.Sub) > 0 {
			return startTexts(r.Sub[0])
		}
	case syntax.OpAlternate:
		var set []string
		for _, sub := range r.Sub {
			got := startTexts(sub)
			if got == nil {
				return nil
			}
			set = append(set, got...)
		}
		if len(set) <= maxTexts {
			return set
		}
	case syntax.OpCapture, syntax.OpPlus:
		return startTexts(r.Sub[0])
	case syntax.OpRepeat:
		if r.Min >= 1 {
			return startTexts(r.Sub[0])
		}
	}
	return nil
}

// assertsPlace reports whether r looks at where a match stands in the
// text (^, \A, \b, \B): matched from a place in the text, it would see
// that place as the text's start.
func assertsPlace(r *syntax.Regexp) bool {
	switch r.Op {
	case syntax.OpBeginLine, syntax.OpBeginText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return true
	}
	return slices.ContainsFunc(r.Sub, assertsPlace)
}
