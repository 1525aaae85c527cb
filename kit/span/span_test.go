package span

import (
	"flag"
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"7d": 7 * Day, "90d": 90 * Day, "2w": 14 * Day, "1d12h": 36 * time.Hour, "24h": 24 * time.Hour,
		"15m": 15 * time.Minute, "1h30m": 90 * time.Minute, "0": 0, " 30D ": 30 * Day, "1w2d3h": 9*Day + 3*time.Hour,
	} {
		if got, err := Parse(in); err != nil || got != want {
			t.Errorf("Parse(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "d", "7", "7x", "-1d", "-5m", "seven days", "1d-2h", "99999999d"} {
		if d, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) = %v, want an error", bad, d)
		}
	}
}

func TestStringReadsBack(t *testing.T) {
	for _, d := range []time.Duration{0, Day, 90 * Day, 36 * time.Hour, 90 * time.Minute, 45 * time.Second} {
		if got, err := Parse(String(d)); err != nil || got != d {
			t.Errorf("String(%v) = %q reads back as %v, %v", d, String(d), got, err)
		}
	}
}

func TestFlag(t *testing.T) {
	var since time.Duration
	fs := flag.NewFlagSet("get", flag.ContinueOnError)
	fs.Var(Value{&since}, "since", "")
	if err := fs.Parse([]string{"--since", "7d"}); err != nil || since != 7*Day {
		t.Fatalf("--since 7d: %v, %v", since, err)
	}
}
