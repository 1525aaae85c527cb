package balances_test

import (
	"strings"
	"testing"

	"treasury/sandbox/sandboxtest"
	"treasury/views/balances"
	"treasury/views/viewtest"
)

// eight is a world whose payments org has eight prefunded accounts.
var eight = viewtest.NewWorld(func() viewtest.Options {
	o := sandboxtest.Options()
	o.Accounts = 8
	return viewtest.Options{Sandbox: &o}
}(), history)

// TestBalancesEightCurrencies: at 120x40 every account has its row and
// the exposure its lines; at 80x24 the exposure lines that do not fit are
// named (with where they are), never cut in silence.
func TestBalancesEightCurrencies(t *testing.T) {
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		t.Run(strings.Join([]string{itoa(size[0]), itoa(size[1])}, "x"), func(t *testing.T) {
			e := eight.Env(t)
			tm := e.ProgramAt(t, size[0], size[1], balances.New(e.Ctx, balances.Options{Runway: e.P.Runway}))
			viewtest.WaitFor(t, tm, "in flight")
			frame := viewtest.Golden(t, tm)
			viewtest.Fits(t, "balances", frame, size[0], size[1])
			for _, c := range []string{"HKD", "SGD", "CAD"} {
				if !strings.Contains(frame, c) {
					t.Errorf("%s neither shown nor named:\n%s", c, frame)
				}
			}
			if size[1] == 24 && !strings.Contains(frame, "… not shown: ") {
				t.Errorf("the exposure left out is not named:\n%s", frame)
			}
		})
	}
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
