package alerts

import (
	"testing"

	"treasury/config"
)

// TestAmountsAsTheScreenWrites: a balance threshold is shown as every
// screen writes an amount (grouped, at its currency's decimals), read
// back from that form or plain, and refused with more decimals than its
// currency has; other thresholds are as the file has them.
func TestAmountsAsTheScreenWrites(t *testing.T) {
	usd := config.AlertField{Key: "low_balance", Label: "balance warning under", Unit: "USD", Effective: "300000"}
	if got := fieldText(config.AlertRule{Kind: "prefunded", For: "USD"}, usd); got != "balance < 300,000.00 USD" {
		t.Errorf("shown %q", got)
	}
	for typed, want := range map[string]string{"300,000": "300000", "300,000.00": "300000", "300000.5": "300000.5", "": ""} {
		if got, err := fileValue(usd, typed); err != nil || got != want {
			t.Errorf("%q read as %q, %v; want %q", typed, got, err, want)
		}
	}
	for _, typed := range []string{"250000.005", "30,00", "x"} {
		if _, err := fileValue(usd, typed); err == nil {
			t.Errorf("%q taken", typed)
		}
	}
	hours := config.AlertField{Key: "runway_warning_hours", Unit: "h", Effective: "24"}
	if got, err := fileValue(hours, " 1.5 "); err != nil || got != "1.5" || shownValue(hours, "24") != "24" {
		t.Errorf("hours: %q %v", got, err)
	}
	if !sameValue("300000", "300000.00") || sameValue("3", "4") {
		t.Error("the same number however written")
	}
}
