// Package span reads a length of time as people write it on a command
// line or in a palette: Go's durations (90s, 15m, 1h30m) and days and
// weeks (7d, 90d, 2w, 1d12h), which time.ParseDuration refuses.
package span

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Day and Week are the units Parse adds to Go's.
const (
	Day  = 24 * time.Hour
	Week = 7 * Day
)

// Parse reads s: Go's duration syntax with the units d (24 h) and w (7 d)
// besides; "0" is zero. A negative length is refused.
func Parse(s string) (time.Duration, error) {
	in := strings.TrimSpace(strings.ToLower(s))
	if in == "" {
		return 0, fmt.Errorf("%q is not a length of time (write 90s, 15m, 24h, 7d or 2w)", s)
	}
	var total time.Duration
	rest := in
	// Days and weeks first (they lead: 1d12h), then what Go reads.
	for rest != "" {
		i := 0
		for i < len(rest) && (rest[i] >= '0' && rest[i] <= '9') {
			i++
		}
		if i == 0 || i == len(rest) || (rest[i] != 'd' && rest[i] != 'w') {
			break
		}
		n, err := strconv.ParseInt(rest[:i], 10, 64)
		if err != nil || n > 100_000 {
			return 0, fmt.Errorf("%q is not a length of time: %s%c is too long", s, rest[:i], rest[i])
		}
		unit := Day
		if rest[i] == 'w' {
			unit = Week
		}
		total += time.Duration(n) * unit
		rest = rest[i+1:]
	}
	if rest != "" {
		d, err := time.ParseDuration(rest)
		if err != nil || strings.ContainsAny(rest, "+-") {
			return 0, fmt.Errorf("%q is not a length of time (write 90s, 15m, 24h, 7d or 2w)", s)
		}
		total += d
	}
	if total < 0 {
		return 0, fmt.Errorf("%q is negative", s)
	}
	return total, nil
}

// String writes d as Parse reads it, shortly: 7d, 36h, 90m, 45s; whole
// days as days.
func String(d time.Duration) string {
	switch {
	case d == 0:
		return "0"
	case d%Day == 0:
		return strconv.FormatInt(int64(d/Day), 10) + "d"
	case d%time.Hour == 0:
		return strconv.FormatInt(int64(d/time.Hour), 10) + "h"
	case d%time.Minute == 0:
		return strconv.FormatInt(int64(d/time.Minute), 10) + "m"
	}
	return d.String()
}

// Value is a flag.Value of a length of time that takes days and weeks
// (`--since 7d`).
type Value struct{ D *time.Duration }

// Set parses s into the flag's duration.
func (v Value) Set(s string) error {
	d, err := Parse(s)
	if err != nil {
		return err
	}
	*v.D = d
	return nil
}

// String is the flag's value, as Parse reads it.
func (v Value) String() string {
	if v.D == nil {
		return ""
	}
	return String(*v.D)
}
