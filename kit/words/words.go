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

// Bytes writes a size in binary units with one decimal: "512 bytes",
// "42.4 KiB", "3.0 MiB", "12.5 GiB".
func Bytes(n uint64) string {
	const unit = 1024
	if n < unit {
		return Count(int(n), "byte")
	}
	div, exp := uint64(unit), 0
	for m := n / unit; m >= unit && exp < 4; m /= unit {
		div *= unit
		exp++
	}
	return strconv.FormatFloat(float64(n)/float64(div), 'f', 1, 64) + " " + string("KMGTP"[exp]) + "iB"
}
