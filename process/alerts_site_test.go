package process

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"treasury/config"
	"treasury/desk/site/sitetest"
)

// held are the thresholds a bastion has in effect.
type held struct {
	mu sync.Mutex
	a  config.Alerts
	n  int
}

func (h *held) Alerts() *config.Alerts { h.mu.Lock(); defer h.mu.Unlock(); a := h.a; return &a }
func (h *held) SetAlerts(a config.Alerts) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.a, h.n = a, h.n+1
}

// TestThresholdsAreTheSites: a threshold changed on one bastion of a
// site is written to every bastion's profile and put in effect there; two
// bastions changing one rule at once end with the same value.
func TestThresholdsAreTheSites(t *testing.T) {
	st := sitetest.Node(t, "a")
	bastion := func(node string) (*AlertSettings, *held, string) {
		f := filepath.Join(t.TempDir(), "config.yaml")
		if err := os.WriteFile(f, []byte("profile: p\nprofiles:\n  p:\n    environment: sandbox\n    embedded_sandbox: {}\n    alerts:\n      failure_rate: {warning: 10}\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		h := &held{}
		s := &AlertSettings{p: h, file: config.AlertsFile{File: f, Profile: "p"}, log: func() *slog.Logger { return nil }}
		stop, err := s.shareWith(st, node)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(stop)
		return s, h, f
	}
	a, _, fa := bastion("a")
	_, hb, fb := bastion("b")
	if err := a.Save("ana", []string{"failure_rate"}, map[string]string{"warning": "12"}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool {
		b, _ := os.ReadFile(fb)
		return strings.Contains(string(b), "warning: 12") && hb.Alerts().FailureRate.Warning.Value.String() == "12"
	})
	c, _, fc := bastion("c") // a bastion that joins later takes the site's thresholds
	waitFor(t, func() bool { b, _ := os.ReadFile(fc); return strings.Contains(string(b), "warning: 12") })
	var wg sync.WaitGroup
	for i, s := range []*AlertSettings{a, c} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := s.Save("ana", []string{"failure_rate"}, map[string]string{"warning": []string{"20", "30"}[i]}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	waitFor(t, func() bool {
		x, _ := os.ReadFile(fa)
		y, _ := os.ReadFile(fb)
		z, _ := os.ReadFile(fc)
		return string(x) == string(y) && string(y) == string(z)
	})
}

func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	for range 400 { // 20 s
		if ok() {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("the bastions never agreed")
}
