// Package words writes counts in the messages, alerts and titles the
// program shows: "1 payment", "2 payments".
package words

import "strconv"

// Count writes n and noun, plural unless n is 1: "1 payment", "3 payments".
// The plural is the noun with an s: the nouns the program counts take it.
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
