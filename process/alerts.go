package process

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"sync"
	"time"

	"treasury/config"
	"treasury/desk/platform"
	"treasury/desk/site"
)

// AlertSettings are the thresholds the alerts editor shows and writes: the
// platform's in effect, written to the profile's file and put in effect
// for every session at once. One process writes one save at a time.
type AlertSettings struct {
	p    thresholds
	file config.AlertsFile
	// log says who changed what: the runtime's log (the request log, or
	// the SSH server's session log), read when a change is saved.
	log func() *slog.Logger
	mu  sync.Mutex
	// site, when set, shares every change with the site's other nodes
	// (and applies theirs): node is this one's name.
	site *site.Site
	node string
	// applied is the outcome of each change of the site applied here, by
	// revision, and changed is closed (and replaced) at each: Save waits
	// for its own change to come back in the site's order.
	sitemu  sync.Mutex
	applied map[uint64]error
	last    uint64
	changed chan struct{}
}

// thresholds are the settings in effect (the platform's).
type thresholds interface {
	Alerts() *config.Alerts
	SetAlerts(config.Alerts)
}

var _ thresholds = (*platform.Platform)(nil)

// thresholdChange is a change of thresholds as the site shares it.
type thresholdChange struct {
	Path   []string          `json:"path"`
	Values map[string]string `json:"values"`
	Who    string            `json:"who"`
	Node   string            `json:"node"`
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
	if s.site != nil {
		return fmt.Sprintf("profiles.%s.alerts in %s, and on every bastion of the site", s.file.Profile, s.file.File)
	}
	return fmt.Sprintf("profiles.%s.alerts in %s", s.file.Profile, s.file.File)
}

// Writable says whether there is a file to write: not for the built-in
// profile.
func (s *AlertSettings) Writable() bool { return s.file.File != "" }

// Save writes values into the rule at path and puts the file's settings
// in effect.
//
// On a site, the change goes to the site first, for every node: a change
// the site cannot take is not made here either (two bastions must not
// judge by two thresholds).
func (s *AlertSettings) Save(who string, path []string, values map[string]string) error {
	if s.site == nil {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.apply(who, "", path, values)
	}
	rev, err := s.share(who, path, values)
	if err != nil {
		if log := s.log(); log != nil {
			log.Warn("alert thresholds not changed", "who", who, "rule", strings.Join(path, "."), "err", err.Error())
		}
		return err
	}
	return s.await(rev)
}

// share puts a change to the site's settings; every node, this one too,
// applies it in the site's order (shareWith).
func (s *AlertSettings) share(who string, path []string, values map[string]string) (uint64, error) {
	key := s.siteKey(path)
	if !site.ValidKey(key) {
		return 0, fmt.Errorf("the rule %s cannot be shared with the site: change it in every bastion's profile", strings.Join(path, "."))
	}
	b, err := json.Marshal(thresholdChange{Path: path, Values: values, Who: who, Node: s.node})
	if err != nil {
		return 0, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), siteSettingsWait)
	defer cancel()
	rev, err := s.site.PutSetting(ctx, key, b)
	if err != nil {
		return 0, fmt.Errorf("the site cannot be reached, so the thresholds are changed on no bastion: %w", err)
	}
	return rev, nil
}

// siteSettingsWait bounds a change of the site's settings, and the wait
// for it to come back.
const siteSettingsWait = 5 * time.Second

// await waits for the site's change of revision rev to be applied here.
func (s *AlertSettings) await(rev uint64) error {
	timeout := time.After(siteSettingsWait)
	for {
		s.sitemu.Lock()
		err := s.applied[rev]
		// A later revision applied: this one was too, or was replaced
		// by a later change of the same rule before it came (the site
		// keeps the last value of a rule), which holds on every node.
		done := s.last >= rev
		wait := s.changed
		s.sitemu.Unlock()
		if done {
			return err
		}
		select {
		case <-wait:
		case <-timeout:
			return fmt.Errorf("the site took the change (revision %d) but it did not come back to this bastion within %s: it is applied when it does", rev, siteSettingsWait)
		}
	}
}

// siteKey is the site's key of a rule of this profile.
func (s *AlertSettings) siteKey(path []string) string {
	return "alerts." + s.file.Profile + "." + strings.Join(path, ".")
}

// shareWith makes the thresholds the site's: every change, made on any
// node, is written to this node's file and put in effect in the site's
// order (so two bastions that change one rule at once end with the same
// value), and a change made here goes to the site first (Save).
func (s *AlertSettings) shareWith(st *site.Site, node string) (stop func(), err error) {
	s.site, s.node = st, node
	s.applied, s.changed = map[uint64]error{}, make(chan struct{})
	return st.WatchSettings("alerts."+s.file.Profile, func(_ string, v []byte, rev uint64) {
		var c thresholdChange
		err := json.Unmarshal(v, &c)
		if err == nil {
			s.mu.Lock()
			err = s.apply(c.Who, c.Node, c.Path, c.Values) // apply logs a failure
			s.mu.Unlock()
		}
		s.sitemu.Lock()
		defer s.sitemu.Unlock()
		s.applied[rev], s.last = err, max(s.last, rev)
		for r := range s.applied {
			if r+1000 < rev {
				delete(s.applied, r)
			}
		}
		close(s.changed)
		s.changed = make(chan struct{})
	})
}

// apply writes values into the rule at path and puts the file's settings
// in effect; s.mu is held.
func (s *AlertSettings) apply(who, node string, path []string, values map[string]string) error {
	a, err := s.file.Set(path, values)
	if log := s.log(); log != nil {
		keys := make([]string, 0, len(values))
		for k, v := range values {
			keys = append(keys, k+"="+v)
		}
		sort.Strings(keys)
		attrs := []any{"who", who, "profile", s.file.Profile, "file", s.file.File, "rule", strings.Join(path, "."), "values", strings.Join(keys, " ")}
		if node != "" && node != s.node {
			attrs = append(attrs, "on", node) // a change another bastion of the site made
		}
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
