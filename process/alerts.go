package process

import (
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"sync"

	"treasury/config"
	"treasury/data/platform"
)

// AlertSettings are the thresholds the alerts editor shows and writes: the
// platform's in effect, written to the profile's file and put in effect
// for every session at once. One process writes one save at a time.
type AlertSettings struct {
	p    *platform.Platform
	file config.AlertsFile
	// log says who changed what: the runtime's log (the request log, or
	// the SSH server's session log), read when a change is saved.
	log func() *slog.Logger
	mu  sync.Mutex
}

func newAlertSettings(rt *Runtime, getenv func(string) string) *AlertSettings {
	return &AlertSettings{p: rt.Platform, file: rt.Config.AlertsFile(getenv), log: func() *slog.Logger { return rt.Log }}
}

// Alerts are the settings in effect.
func (s *AlertSettings) Alerts() *config.Alerts { return s.p.Alerts() }

// Where says where a change is written.
func (s *AlertSettings) Where() string {
	if s.file.File == "" {
		return fmt.Sprintf("built-in profile %s: no file to keep thresholds (a profile in %s keeps them)", s.file.Profile, s.file.Would)
	}
	return fmt.Sprintf("profiles.%s.alerts in %s", s.file.Profile, s.file.File)
}

// Writable says whether there is a file to write: not for the built-in
// profile.
func (s *AlertSettings) Writable() bool { return s.file.File != "" }

// Save writes values into the rule at path and puts the file's settings
// in effect.
func (s *AlertSettings) Save(who string, path []string, values map[string]string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	a, err := s.file.Set(path, values)
	if log := s.log(); log != nil {
		keys := make([]string, 0, len(values))
		for k, v := range values {
			keys = append(keys, k+"="+v)
		}
		sort.Strings(keys)
		attrs := []any{"who", who, "profile", s.file.Profile, "file", s.file.File, "rule", strings.Join(path, "."), "values", strings.Join(keys, " ")}
		if err != nil {
			log.Warn("alert thresholds not changed", append(attrs, "err", err.Error())...)
		} else {
			log.Info("alert thresholds changed", attrs...)
		}
	}
	if err != nil {
		return err
	}
	s.p.SetAlerts(a)
	return nil
}
