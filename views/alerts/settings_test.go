package alerts_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest/v2"

	"treasury/config"
	"treasury/desk/live"
	"treasury/desk/platform"
	"treasury/ui"
	"treasury/views/alerts"
	"treasury/views/viewtest"
)

// fileSettings are the thresholds of a profile in a file of the test's,
// put in effect on the platform as main does.
type fileSettings struct {
	p    *platform.Platform
	file config.AlertsFile
}

func (s fileSettings) Alerts() *config.Alerts { return s.p.Alerts() }
func (s fileSettings) Where() string          { return "profiles.desk.alerts in config.yaml" }
func (s fileSettings) Writable() bool         { return s.file.File != "" }
func (s fileSettings) Save(_ string, path []string, values map[string]string) error {
	a, err := s.file.Set(path, values)
	if err != nil {
		return err
	}
	s.p.SetAlerts(a)
	return nil
}

const deskFile = `# the desk's profile
profiles:
  desk:
    environment: sandbox
    alerts:
      prefunded:
        default: {runway_warning_hours: 2, runway_critical_hours: 1}   # the desk acts late
`

// settingsEnv is a world of its own (saving changes its alert settings)
// with a profile file the editor writes.
func settingsEnv(t *testing.T, o viewtest.Options) (*viewtest.Env, fileSettings, string) {
	t.Helper()
	e := viewtest.New(t, o)
	e.Advance(20 * time.Minute) // live traffic: the runways move
	f := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(f, []byte(deskFile), 0o600); err != nil {
		t.Fatal(err)
	}
	s := fileSettings{p: e.P, file: config.AlertsFile{File: f, Profile: "desk"}}
	a, err := s.file.Set(nil, nil) // the file's settings, as a start would read them
	if err != nil {
		t.Fatal(err)
	}
	e.P.SetAlerts(a)
	return e, s, f
}

// thresholds runs the shell with views and opens the thresholds with e
// on the alerts (the first view).
func thresholds(t *testing.T, e *viewtest.Env, views ...ui.View) *teatest.TestModel {
	t.Helper()
	tm := e.Program(t, views...)
	viewtest.WaitFor(t, tm, "e thresholds")
	viewtest.Keys(tm, "e")
	viewtest.WaitFor(t, tm, "failure rate")
	return tm
}

// TestThresholdsGolden: e on the alerts lists the thresholds in effect,
// each rule on a line with its levels and where they come from.
func TestThresholdsGolden(t *testing.T) {
	e, s, _ := settingsEnv(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory()})
	tm := thresholds(t, e, alerts.New(e.Ctx, s))
	frame := viewtest.Golden(t, tm)
	for _, want := range []string{"runway < 2 h", "runway < 1 h", "file", "built-in", "≥ 10 %", "after 1m", "outflow over 6h"} {
		if !strings.Contains(frame, want) {
			t.Errorf("no %q in the thresholds", want)
		}
	}
}

// TestEditThreshold: enter on a rule opens its form, which takes every
// key typed (digits do not switch views, q does not quit); a balance is
// read as the screen writes it (300,000.00) and refused with more
// decimals than its currency has; enter writes the file and the new
// level is in effect at once: the runway alert of the currency is
// raised, and the rules say so, the balance grouped.
func TestEditThreshold(t *testing.T) {
	e, s, f := settingsEnv(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory()})
	before := e.P.Store.AlertMark()
	tm := thresholds(t, e, alerts.New(e.Ctx, s), &target{opened: make(chan []string, 1)}) // "2" would show the second
	viewtest.Keys(tm, "/", "G", "B", "P", "enter", "enter")                               // filter to GBP; the form
	viewtest.WaitFor(t, tm, "Alert thresholds: prefunded GBP")
	// The runway warning: "2q" then backspace, then "000".
	viewtest.Keys(tm, "2", "q", "backspace", "0", "0", "0", "tab", "tab", "x")
	viewtest.WaitFor(t, tm, "[x")
	viewtest.Keys(tm, "enter")
	viewtest.WaitFor(t, tm, `"x" is not an amount such as 300,000`)
	// An amount as the screen writes it is read; more decimals than the
	// currency has are refused, not rounded.
	viewtest.Keys(tm, "backspace", "3", "0", "0", ",", "0", "0", "0", ".", "0", "0", "5", "enter")
	viewtest.WaitFor(t, tm, "GBP has 2 decimals")
	viewtest.Keys(tm, "backspace", "enter")
	viewtest.WaitFor(t, tm, "runway < 2000 h")              // the rules again, the new level in effect
	viewtest.WaitFor(t, tm, "runway < 2000 h, balance < 3") // cut by the column: form_test holds the text
	b, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	if want := "        default: {runway_warning_hours: 2, runway_critical_hours: 1} # the desk acts late\n        GBP: {low_balance: \"300000\", runway_warning_hours: 2000}\n"; !strings.Contains(string(b), want) {
		t.Errorf("file:\n%s\nwant it to hold:\n%s", b, want)
	}
	if got := e.P.Alerts().Prefunded.For("GBP").RunwayWarning.Value.String(); got != "2000" {
		t.Errorf("GBP warning in effect: %s", got)
	}
	evs, _ := e.P.Store.AlertEvents(before)
	opened := false
	for _, ev := range evs {
		if ev.Change == live.Opened && ev.Alert.Key == "low-runway:GBP" {
			opened = true
		}
	}
	if !opened {
		t.Error("the GBP runway alert was not raised by the new level")
	}
	tm.Quit()
}

// TestThresholdsReadOnly: a read-only session sees the thresholds and
// cannot open their form.
func TestThresholdsReadOnly(t *testing.T) {
	e, s, _ := settingsEnv(t, viewtest.Options{ReadOnly: true, Skip: viewtest.NoLiquidityHistory()})
	tm := e.Program(t, alerts.New(e.Ctx, s))
	viewtest.WaitFor(t, tm, "e thresholds")
	viewtest.Keys(tm, ":", "a", "l", "e", "r", "t", "s", " ", "e", "d", "i", "t", "enter")
	viewtest.WaitFor(t, tm, "shown, not changed")
	viewtest.Keys(tm, "enter")
	viewtest.WaitFor(t, tm, "changed by an operator")
	tm.Quit()
}

// TestThresholdFormGolden: a rule's form shows each level of the rule,
// what the file sets, and in brackets what an empty field takes.
func TestThresholdFormGolden(t *testing.T) {
	e, s, _ := settingsEnv(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory()})
	tm := thresholds(t, e, alerts.New(e.Ctx, s))
	viewtest.Keys(tm, "/", "U", "S", "D", "enter", "enter", "tab", "tab", "1", "2", "5", "0", "0", "0")
	viewtest.WaitFor(t, tm, "[125000")
	frame := viewtest.Golden(t, tm)
	for _, want := range []string{"Alert thresholds: prefunded USD", "runway warning under", "2 (default)", "1 (default)", "none", "enter save"} {
		if !strings.Contains(frame, want) {
			t.Errorf("no %q in the form", want)
		}
	}
}

// TestThresholdsBuiltin: with the built-in profile (no file), the
// thresholds are shown, and enter says where a profile would keep them.
func TestThresholdsBuiltin(t *testing.T) {
	e, s, _ := settingsEnv(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory()})
	s.file = config.AlertsFile{Profile: config.SandboxProfile}
	tm := e.Program(t, alerts.New(e.Ctx, builtinSettings{s}))
	viewtest.WaitFor(t, tm, "e thresholds")
	viewtest.Keys(tm, "e")
	viewtest.WaitFor(t, tm, "start with a profile from a file")
	viewtest.Keys(tm, "enter")
	viewtest.WaitFor(t, tm, "no file to keep thresholds")
	tm.Quit()
}

// builtinSettings are the settings of the built-in profile.
type builtinSettings struct{ fileSettings }

func (builtinSettings) Where() string {
	return "built-in profile sandbox: no file to keep thresholds (a profile in ~/.config/treasury/config.yaml keeps them)"
}
