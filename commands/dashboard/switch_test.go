package dashboard

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"treasury/commands/cli/clitest"
	"treasury/config"
	"treasury/desk/audit"
	"treasury/desk/live"
	"treasury/ui/uitest"
)

// twoProfiles is a configuration file of two embedded sandboxes of other
// seeds (other payments, other ids).
const twoProfiles = `profile: alpha
profiles:
  alpha:
    environment: sandbox
    embedded_sandbox: {seed: 3, history_payments: 400}
  beta:
    environment: sandbox
    embedded_sandbox: {seed: 11, history_payments: 400}
  broken:
    environment: sandbox
    funding: {time_zone: Mars/Olympus}
`

// idHead is the start of a payment id as the payments table shows it.
var idHead = regexp.MustCompile(`\b[0-9a-f]{8}-`)

// heads are the payment ids' starts on a screen.
func heads(screen string) map[string]bool {
	out := map[string]bool{}
	for _, h := range idHead.FindAllString(screen, -1) {
		out[h] = true
	}
	return out
}

// TestCtxSwitchesProfile: in one session, the payments of profile alpha,
// then :ctx beta: the header names beta, the payments shown are beta's
// own (ids its store holds) and not one of alpha's is left on the
// screen; alpha's runtime is closed (its embedded sandbox answers no
// more) and the switch is in the request log. :ctx names only the
// file's profiles; one that cannot be opened is said, and alpha stays.
func TestCtxSwitchesProfile(t *testing.T) {
	e, _ := clitest.Env(t, io.Discard)
	file := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(file, []byte(twoProfiles), 0o600); err != nil {
		t.Fatal(err)
	}
	o := config.Options{ConfigFile: file, Getenv: e.Getenv}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rt, release, err := openProfile(ctx, e, o, "alpha")
	if err != nil {
		t.Fatal(err)
	}
	alphaURL := rt.Sandbox.URL
	lc := &localContexts{ctx: ctx, e: e, o: o}
	var sh *Shell
	lc.log = func() *slog.Logger { return sh.rt.Log }
	sh = NewShell(rt, release, Session{Colors: colorprofile.NoTTY, Dark: true, Who: audit.Who{Via: audit.ViaLocal, User: "tester"}, SaveDir: t.TempDir()}, lc)
	tm := teatest.NewTestModel(t, sh, teatest.WithInitialTermSize(120, 40))
	scr := uitest.ScreenOf(tm, 120, 40)
	out := tm.Output()
	buf := make([]byte, 64<<10)
	wait := func(what string, ok func(string) bool) {
		t.Helper()
		for deadline := time.Now().Add(30 * time.Second); ; {
			for {
				n, _ := out.Read(buf)
				if n == 0 {
					break
				}
				scr.Write(buf[:n])
			}
			if ok(scr.String()) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("never %s; the screen:\n%s", what, scr.String())
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	wait("the overview", func(s string) bool { return strings.Contains(s, "treasury  alpha") && strings.Contains(s, "Payments") })
	tm.Type(":")
	tm.Type("payments")
	tm.Send(uitest.Key("enter"))
	held := func(st *live.Store) map[string]bool {
		out := map[string]bool{}
		ps := live.Get(st, live.PaymentsKey).Data
		for i := range ps.Len() {
			out[ps.At(i).PaymentID[:9]] = true
		}
		return out
	}
	alphaHeld := held(rt.Platform.Store)
	wait("alpha's payments", func(s string) bool {
		if !strings.HasPrefix(s, "treasury  alpha") || !strings.Contains(s, "Payment id") {
			return false
		}
		alphaHeld = held(rt.Platform.Store)
		for h := range heads(s) {
			if alphaHeld[h] {
				return true
			}
		}
		return false
	})
	alphaShown := map[string]bool{}
	for h := range heads(scr.String()) {
		if alphaHeld[h] {
			alphaShown[h] = true
		}
	}

	tm.Type(":")
	tm.Type("ctx gamma")
	tm.Send(uitest.Key("enter"))
	wait("no gamma", func(s string) bool {
		return strings.Contains(s, `no profile "gamma"`) && strings.Contains(s, "alpha, beta")
	})

	tm.Type(":")
	tm.Type("ctx beta")
	tm.Send(uitest.Key("enter"))
	wait("beta's payments", func(s string) bool {
		if !strings.HasPrefix(s, "treasury  beta") || !strings.Contains(s, "Payment id") {
			return false
		}
		return len(heads(s)) > 0
	})
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
	final := scr.String()
	betaHeld := held(sh.rt.Platform.Store)
	shown := heads(final)
	for h := range shown {
		if alphaShown[h] || alphaHeld[h] && !betaHeld[h] {
			t.Errorf("alpha's payment %s… still on the screen of beta:\n%s", h, final)
		}
		if !betaHeld[h] {
			t.Errorf("payment %s… on the screen is not beta's:\n%s", h, final)
		}
	}
	// Only the footer's flash names alpha, saying its data was dropped.
	lines := strings.Split(strings.TrimRight(final, "\n"), "\n")
	body, flash := strings.Join(lines[:len(lines)-1], "\n"), lines[len(lines)-1]
	if len(shown) == 0 || strings.Contains(body, "alpha") || !strings.Contains(flash, "profile beta (sandbox): the data of alpha dropped") {
		t.Errorf("beta's screen:\n%s", final)
	}
	if _, err := http.Get(alphaURL); err == nil {
		t.Error("alpha's embedded sandbox still answers: its runtime was not closed")
	}
	sh.Close()
	log, _ := os.ReadFile(filepath.Join(e.Getenv("XDG_STATE_HOME"), "treasury", "requests.log"))
	if !regexp.MustCompile(`"msg":"profile switch","who":"[^"]*tester[^"]*","from":"alpha","to":"beta"`).Match(log) {
		t.Errorf("the switch is not in the request log:\n%.2000s", log)
	}
}
