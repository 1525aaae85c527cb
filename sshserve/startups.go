package sshserve

import (
	"fmt"
	"strconv"
	"strings"
)

// Startups is OpenSSH's MaxStartups start:rate:full: with Start
// connections waiting to authenticate, a new one is refused with a
// chance of Rate percent, growing linearly to 100 percent at Full, where
// every new one is refused (random early drop). Silent clients that hold
// Start slots thus slow logins down instead of stopping them: with
// 10:30:100 and ten held, a login gets in seven times out of ten, three
// tries nineteen times out of twenty. A single number N is a hard cap:
// N:100:N.
type Startups struct {
	Start, Rate, Full int
}

// DefaultMaxStartups is OpenSSH's default, 10:30:100.
func DefaultMaxStartups() Startups { return Startups{Start: 10, Rate: 30, Full: 100} }

// HardCap refuses every connection once n are waiting.
func HardCap(n int) Startups { return Startups{Start: n, Rate: 100, Full: n} }

// ParseStartups reads "start:rate:full" or "n" (a hard cap), as sshd_config
// writes MaxStartups.
func ParseStartups(s string) (Startups, error) {
	parts := strings.Split(strings.TrimSpace(s), ":")
	var n [3]int
	for i, p := range parts {
		v, err := strconv.Atoi(p)
		if err != nil || v < 0 || i >= 3 {
			return Startups{}, fmt.Errorf("max-startups %q: want start:rate:full (OpenSSH MaxStartups, such as 10:30:100) or a number", s)
		}
		n[i] = v
	}
	var st Startups
	switch len(parts) {
	case 1:
		st = HardCap(n[0])
	case 3:
		st = Startups{Start: n[0], Rate: n[1], Full: n[2]}
	default:
		return Startups{}, fmt.Errorf("max-startups %q: want start:rate:full (OpenSSH MaxStartups, such as 10:30:100) or a number", s)
	}
	return st, st.validate()
}

func (s Startups) validate() error {
	if s.Start < 1 || s.Rate < 1 || s.Rate > 100 || s.Full < s.Start {
		return fmt.Errorf("max-startups %s: want start ≥ 1, rate 1-100 and full ≥ start", s)
	}
	return nil
}

// String writes s as sshd_config does: "10:30:100", or "10" for a hard cap.
func (s Startups) String() string {
	if s.Start == s.Full {
		return strconv.Itoa(s.Full)
	}
	return fmt.Sprintf("%d:%d:%d", s.Start, s.Rate, s.Full)
}

// Set and String make *Startups a flag.Value.
func (s *Startups) Set(v string) error {
	st, err := ParseStartups(v)
	if err != nil {
		return err
	}
	*s = st
	return nil
}

// dropChance is the chance, in percent, that a new connection is refused
// with waiting connections already waiting to authenticate (OpenSSH's
// drop_connection).
func (s Startups) dropChance(waiting int) int {
	switch {
	case waiting < s.Start:
		return 0
	case waiting >= s.Full || s.Rate >= 100:
		return 100
	}
	return s.Rate + (100-s.Rate)*(waiting-s.Start)/(s.Full-s.Start)
}
