package addressbook

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"treasury/kit/words"
	"treasury/ui/sanitize"
	"treasury/views/viewkit"
)

// abiEntry is one entry of a Solidity JSON ABI.
type abiEntry struct {
	Type            string     `json:"type"`
	Name            string     `json:"name"`
	Inputs          []abiParam `json:"inputs"`
	Outputs         []abiParam `json:"outputs"`
	StateMutability string     `json:"stateMutability"`
}

type abiParam struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// maxABILines bounds the summary of a large interface.
const maxABILines = 40

// summarizeABI describes an ABI in sanitized lines: one per function,
// event or other entry, with its parameters, results and mutability.
func summarizeABI(raw string) []string {
	var entries []abiEntry
	if err := json.Unmarshal([]byte(raw), &entries); err != nil {
		return []string{sanitize.Line(fmt.Sprintf("present (%d bytes) but not a JSON ABI: %v", len(raw), err))}
	}
	counts := map[string]int{}
	for _, e := range entries {
		counts[viewkit.Dash(e.Type)]++
	}
	var kinds []string
	for _, k := range []string{"function", "event", "constructor", "error", "fallback", "receive"} {
		if n := counts[k]; n > 0 {
			kinds = append(kinds, words.Count(n, k))
			delete(counts, k)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		kinds = append(kinds, fmt.Sprintf("%d %s", counts[k], k))
	}
	out := []string{sanitize.Line(fmt.Sprintf("%d entries (%s), %d bytes", len(entries), strings.Join(kinds, ", "), len(raw)))}
	for i, e := range entries {
		if i == maxABILines {
			out = append(out, fmt.Sprintf("… %d more (y shows the raw record)", len(entries)-i))
			break
		}
		out = append(out, sanitize.Line("  "+entryLine(e)))
	}
	return out
}

func entryLine(e abiEntry) string {
	s := e.Type + " " + e.Name + "(" + params(e.Inputs) + ")"
	if len(e.Outputs) > 0 {
		s += " → " + params(e.Outputs)
	}
	if e.StateMutability != "" {
		s += "  [" + e.StateMutability + "]"
	}
	return s
}

func params(ps []abiParam) string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = strings.TrimSpace(p.Type + " " + p.Name)
	}
	return strings.Join(out, ", ")
}
