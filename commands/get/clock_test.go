package get

import (
	"encoding/json"
	"testing"
	"time"

	"treasury/commands/cli/clitest"
	"treasury/commands/sandbox/profiletest"
	"treasury/sandbox/sandboxtest"
)

// TestGetSinceIsThePlatformsSpan: `get quotes --since 5m` against a
// platform whose clock is three hours ahead of this host's reads the
// platform's last five minutes, as the dashboard's windows are: counted
// back from this host's clock it read none (all the platform's quotes
// are later than the host's now).
func TestGetSinceIsThePlatformsSpan(t *testing.T) {
	o := sandboxtest.Options()
	o.Start = time.Now().Add(3 * time.Hour).Truncate(time.Second)
	srv := sandboxtest.Listen(t, o)
	face := profiletest.Write(t, srv, clitest.FreeAddr(t), nil)
	code, out, stderr := getRun(t, "--config", face, "quotes", "--since", "5m", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var qs []struct {
		CreatedAt time.Time `json:"createdAt"`
	}
	if err := json.Unmarshal([]byte(out), &qs); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if len(qs) == 0 {
		t.Fatal("no quote in the platform's last five minutes")
	}
	plat := srv.Clock().Now()
	for _, q := range qs {
		if q.CreatedAt.Before(plat.Add(-5*time.Minute-2*time.Second)) || q.CreatedAt.After(plat) {
			t.Fatalf("a quote at %s, outside the platform's last five minutes (its now %s)", q.CreatedAt, plat)
		}
	}
}
