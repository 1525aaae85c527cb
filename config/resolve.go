package config

import (
	"fmt"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

func reflectValue(p any) reflect.Value { return reflect.ValueOf(p).Elem() }

func profileNames(m map[string]*rawProfile) string {
	if len(m) == 0 {
		return "none"
	}
	return strings.Join(slices.Sorted(maps.Keys(m)), ", ")
}

// resolver checks a raw profile and builds its Config, reporting problems
// through the decoder (which knows the lines) and collecting warnings.
type resolver struct {
	d      *decoder
	dir    string
	getenv func(string) string
	warns  []Warning
	// noScreen: what is wrong with a display setting is a warning
	// (Options.NoScreen).
	noScreen bool
}

// display resolves a display setting (DisplaySections) with resolve; for a
// command that draws no screen, what resolve found wrong becomes warnings
// and reset leaves the setting at its default.
func (r *resolver) display(resolve, reset func()) {
	n := len(r.d.errs)
	resolve()
	if !r.noScreen || len(r.d.errs) == n {
		return
	}
	for _, e := range r.d.errs[n:] {
		r.warns = append(r.warns, displayWarning(e))
	}
	r.d.errs = r.d.errs[:n]
	reset()
}

// displayWarning is what is wrong with a display setting, said as a
// warning of a command that draws no screen, with its line.
func displayWarning(e *Error) Warning {
	file := e.File
	if e.Line > 0 {
		file += ":" + strconv.Itoa(e.Line)
	}
	return Warning{File: file, Key: e.Key, Msg: e.Msg + " (a display setting: ignored here; the dashboard refuses to start with it)"}
}

// displayOnly sets aside, as warnings, what decoding found wrong under a
// profile's display sections, and those sections with it (a command that
// draws no screen).
func (d *decoder) displayOnly(raw *rawFile) []Warning {
	var out []Warning
	keep := d.errs[:0]
	for _, e := range d.errs {
		name, section, ok := displayKey(e.Key)
		if !ok {
			keep = append(keep, e)
			continue
		}
		out = append(out, displayWarning(e))
		if p := raw.Profiles[name]; p != nil {
			switch section {
			case "keys":
				p.Keys = nil
			case "theme":
				p.Theme = ""
			case "commands":
				p.Commands = nil
			case "searches":
				p.Searches = nil
			}
		}
	}
	d.errs = keep
	return out
}

// displayKey splits a key under a profile's display section
// ("profiles.ops.keys.quit"): the profile and the section.
func displayKey(key string) (profile, section string, ok bool) {
	rest, found := strings.CutPrefix(key, "profiles.")
	if !found {
		return "", "", false
	}
	for _, sec := range DisplaySections() {
		for i := 0; i < len(rest); i++ {
			if rest[i] == '.' && strings.HasPrefix(rest[i+1:], sec) &&
				(len(rest) == i+1+len(sec) || rest[i+1+len(sec)] == '.' || rest[i+1+len(sec)] == '[') {
				return rest[:i], sec, true
			}
		}
	}
	return "", "", false
}

func (r *resolver) warn(key, format string, args ...any) {
	r.warns = append(r.warns, Warning{File: r.d.file, Key: key, Msg: fmt.Sprintf(format, args...)})
}

func (r *resolver) profile(name string, p *rawProfile) *Config {
	base := "profiles." + name
	k := func(key string) string { return joinKey(base, key) }
	cfg := &Config{Profile: name, Environment: p.Environment, Refresh: DefaultRefresh(),
		Alerts: DefaultAlerts(), BaseCurrency: DefaultBaseCurrency, Mouse: true, Funding: DefaultFunding()}
	switch p.Environment {
	case EnvTest, EnvProd, EnvSandbox:
	case "":
		r.d.at(base, "missing required key environment (test, prod or sandbox)")
	default:
		r.d.at(k("environment"), "must be test, prod or sandbox, not %q", p.Environment)
	}
	if p.ReadOnly != nil {
		cfg.ReadOnly = *p.ReadOnly
	}
	if p.Mouse != nil {
		cfg.Mouse = *p.Mouse
	}
	r.display(func() { cfg.Theme = r.theme(k("theme"), p.Theme) }, func() { cfg.Theme = r.theme(k("theme"), "") })
	if p.BaseCurrency != "" {
		if assetRe.MatchString(p.BaseCurrency) {
			cfg.BaseCurrency = p.BaseCurrency
		} else {
			r.d.at(k("base_currency"), "must be an upper-case code such as USD or EUR, not %q", p.BaseCurrency)
		}
	}
	if p.EmbeddedSandbox != nil || p.Environment == EnvSandbox {
		e := &Embedded{Seed: 1, Speed: 1}
		if es := p.EmbeddedSandbox; es != nil {
			e.Seed, e.Variant = es.Seed, es.Variant
			if es.Speed != 0 {
				e.Speed = es.Speed
			}
			if es.Speed < 0 {
				r.d.at(k("embedded_sandbox.speed"), "must be positive")
			}
			e.HistoryPayments = es.HistoryPayments
			if es.HistoryPayments < 0 {
				r.d.at(k("embedded_sandbox.history_payments"), "must be positive")
			}
			e.Accounts = es.Accounts
			if es.Accounts < 0 || es.Accounts > 8 {
				r.d.at(k("embedded_sandbox.accounts"), "must be 1 to 8")
			}
			if es.Retain != "" {
				e.Retain = r.duration(k("embedded_sandbox.retain"), es.Retain)
			}
			if es.LiveRate != nil {
				e.LiveRate = *es.LiveRate
				if e.LiveRate == 0 {
					e.LiveRate = -1 // 0 in the file means none, as with --live-rate 0
				}
			}
		}
		cfg.Embedded = e
		if p.Environment != EnvSandbox && p.Environment != "" {
			r.d.at(k("embedded_sandbox"), "only allowed with environment: sandbox")
		}
		for key, set := range map[string]bool{"liquidity": p.Liquidity != nil, "payments": p.Payments != nil,
			"reporting": p.Reporting != nil, "wallet": p.Wallet != nil, "custody": p.Custody != nil} {
			if set {
				r.d.at(k(key), "not allowed with the embedded sandbox, which provides every interface")
			}
		}
	} else {
		cfg.Liquidity = r.liquidity(k("liquidity"), p.Liquidity)
		cfg.Payments = r.payments(k("payments"), p.Payments)
		cfg.Reporting = r.reporting(k("reporting"), p.Reporting, p.Payments != nil)
		cfg.Wallet = r.wallet(k("wallet"), p.Wallet)
		cfg.Custody = r.custody(k("custody"), p.Custody)
		if p.Liquidity == nil && p.Payments == nil && p.Reporting == nil && p.Wallet == nil && p.Custody == nil && p.Environment != "" {
			r.d.at(base, "configures no interface: give at least one of liquidity, payments, reporting, wallet, custody")
		}
	}
	cfg.Webhooks = r.webhooks(k("webhooks"), p.Webhooks)
	cfg.Cluster = r.cluster(k("cluster"), p.Cluster)
	r.refresh(k("refresh"), p.Refresh, &cfg.Refresh)
	r.funding(k("funding"), p.Funding, &cfg.Funding)
	cfg.SSHRoles = r.roles(k("ssh_roles"), p.SSHRoles)
	r.alerts(k("alerts"), p.Alerts, &cfg.Alerts)
	r.display(func() { cfg.Searches = r.searches(k("searches"), p.Searches) }, func() { cfg.Searches = nil })
	r.display(func() { cfg.Keys = r.keymap(k("keys"), p.Keys) }, func() { cfg.Keys = r.keymap(k("keys"), nil) })
	r.display(func() { cfg.Commands = r.commands(k("commands"), p.Commands, cfg.Keys) }, func() { cfg.Commands = nil })
	if p.Environment == EnvProd && !cfg.ReadOnly {
		r.warn(base, "production profile without read_only: true; actions (freeze, lock, sweep) are enabled")
	}
	return cfg
}

// requiredIn reports a missing key inside section at the section's line.
func (r *resolver) requiredIn(section, key, v string) {
	if strings.TrimSpace(v) == "" {
		full := joinKey(section, key)
		if _, ok := r.d.lines[full]; ok {
			r.d.at(full, "must not be empty")
			return
		}
		r.d.errf(full, r.d.lines[section], "missing required key")
	}
}

func (r *resolver) url(key, v string) string {
	if v == "" {
		return ""
	}
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		r.d.at(key, "must be an absolute http:// or https:// URL, not %q", v)
		return ""
	}
	if u.RawQuery != "" || u.Fragment != "" {
		r.d.at(key, "must be a base URL without query or fragment, not %q", v)
		return ""
	}
	if u.User != nil {
		r.d.at(key, "must not carry credentials; use the *_env or *_file keys")
		return ""
	}
	return strings.TrimRight(v, "/")
}

// path resolves a file name in the config: ~ is the home directory and a
// relative name is taken from the config file's directory.
func (r *resolver) path(p string) string {
	if p == "" {
		return ""
	}
	if p == "~" || strings.HasPrefix(p, "~/") {
		p = filepath.Join(homeDir(r.getenv), strings.TrimPrefix(p, "~"))
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(r.dir, p)
	}
	return p
}

// readPrivate reads a file that holds a secret, warning when group or
// others may read it.
func (r *resolver) readPrivate(key, name string) ([]byte, bool) {
	p := r.path(name)
	st, err := os.Stat(p)
	if err != nil {
		r.d.at(key, "cannot read %s: %v", p, unwrapPathErr(err))
		return nil, false
	}
	if st.Mode().Perm()&0o077 != 0 {
		r.warn(key, "%s is readable by group or others (mode %04o); run chmod 600 %s", p, st.Mode().Perm(), p)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		r.d.at(key, "cannot read %s: %v", p, unwrapPathErr(err))
		return nil, false
	}
	return b, true
}

func unwrapPathErr(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// secret resolves one secret from name (inline), name_env or name_file in
// section; it reports a missing one when required.
func (r *resolver) secret(section, name, inline, env, file string, required bool) Secret {
	set := 0
	for _, v := range []string{inline, env, file} {
		if v != "" {
			set++
		}
	}
	if set > 1 {
		r.d.errf(joinKey(section, name), r.d.lines[section], "give only one of %s, %s_env, %s_file", name, name, name)
		return Secret{}
	}
	switch {
	case env != "":
		key := joinKey(section, name+"_env")
		v := r.getenv(env)
		if v == "" {
			r.d.at(key, "environment variable %s is not set or empty", env)
		}
		return NewSecret(v)
	case file != "":
		key := joinKey(section, name+"_file")
		b, ok := r.readPrivate(key, file)
		if !ok {
			return Secret{}
		}
		v := strings.TrimRight(string(b), "\r\n")
		if v == "" {
			r.d.at(key, "%s is empty", r.path(file))
		}
		return NewSecret(v)
	case inline != "":
		r.warn(joinKey(section, name), "secret written inline in the configuration file; prefer %s_env or %s_file", name, name)
		return NewSecret(inline)
	}
	if required {
		r.d.errf(joinKey(section, name+"_env"), r.d.lines[section], "missing required secret: give %s_env or %s_file", name, name)
	}
	return Secret{}
}
