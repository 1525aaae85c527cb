// Package config turns the configuration file, the environment and the
// command-line flags into one Config value: the chosen profile with its
// endpoints, credentials (as redacting Secrets), webhook receiver settings,
// refresh intervals and alert thresholds.
//
// The file is YAML at $XDG_CONFIG_HOME/treasury/config.yaml (falling back to
// ~/.config/treasury/config.yaml), or the one named by --config or
// TREASURY_CONFIG. The profile is --profile, else TREASURY_PROFILE, else the
// file's `profile:` key, else the only profile in the file. With no file the
// built-in profile "sandbox" runs the embedded sandbox.
//
// Secrets come from environment variables (*_env) or files (*_file); an
// inline secret is accepted with a warning. A problem in the file is an
// *Error naming the file, the dotted key, the line and what is wrong; all
// problems are returned together as Errors. Warnings are returned as a list
// for the caller to show: this package prints nothing.
package config

import (
	"crypto"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"

	"go.yaml.in/yaml/v3"
)

// Environments a profile may name.
const (
	EnvTest    = "test"
	EnvProd    = "prod"
	EnvSandbox = "sandbox" // the embedded sandbox
)

// SandboxProfile is the name of the built-in profile.
const SandboxProfile = "sandbox"

// Environment variables read by Load.
const (
	VarConfig   = "TREASURY_CONFIG"
	VarProfile  = "TREASURY_PROFILE"
	VarReadOnly = "TREASURY_READ_ONLY"
)

// Config is the resolved configuration of one profile.
type Config struct {
	// File is the configuration file read; empty for the built-in profile.
	File string
	// Profile is the chosen profile's name.
	Profile     string
	Environment string
	ReadOnly    bool
	// Embedded, when set, asks main to start the embedded sandbox and reach
	// every interface there; the interface sections are then nil.
	Embedded *Embedded

	// An interface section is nil when the profile does not configure it.
	Liquidity *Liquidity
	Payments  *Payments
	Reporting *Reporting
	Wallet    *Wallet
	Custody   *Custody
	Webhooks  *Webhooks
	// Cluster, when set, makes this process a member of a site (see
	// Cluster).
	Cluster *Cluster

	Refresh Refresh
	Alerts  Alerts
	Mouse   bool
	// Theme is the profile's skin (theme:): a built-in, or a theme file's
	// colours over one. NO_COLOR always wins over it.
	Theme Theme
	// BaseCurrency is the currency the overview totals balances in
	// (base_currency, default DefaultBaseCurrency), converted at the
	// latest mid rates.
	BaseCurrency string
	// Funding is what the funding planner plans by (funding:): the
	// business day's end in the profile's time zone, a top-up's lead.
	Funding Funding
	// SSHRoles are the roles of `treasury serve` sessions that may switch
	// to this profile with :ctx (ssh_roles; none by default). A local
	// dashboard switches to any profile of its file.
	SSHRoles []string
	// Searches are the profile's saved searches (searches:), each shown
	// as a tab after the built-in views, in the file's order.
	Searches []Search
	// Keys are the keys in force of every action (keys: rebinds them).
	Keys Keymap
	// Commands are the profile's custom commands (commands:).
	Commands []Command
	// Warnings are what Load found wrong but not fatal (a secret file
	// others can read, an inline secret): said on stderr, and by the
	// process in its log and as alerts, which the dashboard's screen
	// does not cover.
	Warnings []Warning
}

// DefaultBaseCurrency is the base currency of a profile that names none.
const DefaultBaseCurrency = "USD"

// Embedded configures the embedded sandbox.
type Embedded struct {
	Seed  int64
	Speed float64
	// Variant runs the sandbox's second face (treasury sandbox --variant):
	// the other legal choices where the spec leaves one open.
	Variant bool
	// HistoryPayments sizes the world (payments before start; zero: the
	// sandbox's 3,000); LiveRate is new payments per minute of sandbox
	// time (zero: the sandbox's 12; negative: none).
	HistoryPayments int
	LiveRate        float64
	// Accounts is how many prefunded accounts the payments org has (zero:
	// the sandbox's 3; up to 8).
	Accounts int
	// Retain is how far back (sandbox time) the sandbox keeps settled
	// payments and ledger entries; zero: what its reports cover (the
	// previous two months and the month to date).
	Retain time.Duration
}

// Liquidity is the liquidity interface (bearer token).
type Liquidity struct {
	BaseURL string
	Token   Secret
	// PageSize is the first page size asked for (page_size); zero lets
	// the client choose.
	PageSize int
}

// Payments is the payments interface and its token issuer.
type Payments struct {
	BaseURL, AuthURL, Audience, ClientID string
	ClientSecret                         Secret
	// PageSize bounds the page size asked for (page_size); zero means
	// each list's documented maximum.
	PageSize int
}

// Reporting is the reporting interface; it uses the payments token.
type Reporting struct {
	BaseURL string
}

// Client is a client id and secret.
type Client struct {
	ClientID     string
	ClientSecret Secret
}

// Wallet is the wallet interface: a read (monitoring) credential and, for
// actions, optional controls and transactions credentials.
type Wallet struct {
	BaseURL string
	// PageSize is the first page size asked for (page_size); zero means
	// each list's documented maximum.
	PageSize int
	Client
	Controls     *Client
	Transactions *Client
}

// Custody is the custody address-book interface. SigningKey is the
// operator's Ed25519 key that signs lock and unlock intents as UserID.
type Custody struct {
	// PageSize is the first limit asked for (page_size); zero means 100.
	PageSize                  int
	BaseURL, DomainID, UserID string
	Token                     Secret
	SigningKeyFile            string
	SigningKey                crypto.Signer // nil when no signing_key_file
}

// Webhooks configure the PAYMENT_STATE_TRANSITION receiver.
type Webhooks struct {
	Listen       string // host:port
	Path         string // the callback path, default /webhooks/payments
	TLSCertFile  string
	TLSKeyFile   string
	PublicKey    crypto.PublicKey // verifies notifications; its type picks the algorithm
	HeaderPrefix string
	Tolerance    time.Duration
}

// Funding is how the funding planner plans a top-up.
type Funding struct {
	// Zone is the time zone of the business day (time_zone, an IANA name
	// such as Europe/London; default UTC), DayEnds the time of day it
	// ends there (day_ends, "17:00" by default): the planner carries each
	// currency to it unless told a number of hours.
	Zone    *time.Location
	DayEnds time.Duration
	// TopUpLead is how long a top-up takes to reach the prefunded
	// account (top_up_lead, default 1h): the planner says which payments
	// owed just in time fall due before one sent now arrives.
	TopUpLead time.Duration
}

// DefaultFunding is the planner's settings when the profile sets none.
func DefaultFunding() Funding {
	return Funding{Zone: time.UTC, DayEnds: 17 * time.Hour, TopUpLead: time.Hour}
}

// ZoneName names the business day's time zone.
func (f Funding) ZoneName() string {
	if f.Zone == nil {
		return "UTC"
	}
	return f.Zone.String()
}

// Refresh are the poll intervals.
type Refresh struct {
	Quotes, Balances, Payments, Wallets, Reports, AddressBook time.Duration
}

// DefaultRefresh are the poll intervals when the profile sets none.
func DefaultRefresh() Refresh {
	return Refresh{Quotes: 2 * time.Second, Balances: 5 * time.Second, Payments: 5 * time.Second,
		Wallets: 15 * time.Second, Reports: 5 * time.Minute, AddressBook: 30 * time.Second}
}

// Default webhook settings.
const (
	DefaultWebhookPath      = "/webhooks/payments"
	DefaultWebhookTolerance = 5 * time.Minute
	DefaultHeaderPrefix     = "X-Payments"
)

// Options are the inputs besides the file: flags and the environment.
type Options struct {
	// ConfigFile is --config; Profile is --profile.
	ConfigFile string
	Profile    string
	// ReadOnly is --read-only; it can only turn read-only mode on.
	ReadOnly bool
	// Getenv reads the environment; nil means os.Getenv.
	Getenv func(string) string
	// CheckSearch, when set, checks each saved search against the views
	// (which exist, their columns, their search language): see
	// Config.CheckSearches.
	CheckSearch SearchCheck
	// NoScreen is for a command that draws no screen (treasury get): what
	// is wrong with a display setting (DisplaySections: keys:, theme:,
	// commands:, searches:) is a warning, the setting left at its default,
	// not an error that stops it: a cron export does not fail on a key
	// binding.
	NoScreen bool
}

// DisplaySections are the sections of a profile that only the dashboard's
// screen reads.
func DisplaySections() []string { return []string{"keys", "theme", "commands", "searches"} }

// file is the configuration file the options name: --config, then
// TREASURY_CONFIG, then the default path (explicit false).
func (o Options) file() (file string, explicit bool) {
	file, explicit = o.ConfigFile, true
	if file == "" {
		file = o.getenv(VarConfig)
	}
	if file == "" {
		file, explicit = Path(o.getenv), false
	}
	return file, explicit
}

func (o Options) getenv(k string) string {
	if o.Getenv == nil {
		return os.Getenv(k)
	}
	return o.Getenv(k)
}

// Warning is something the user should know that does not stop the program
// (an inline secret, a secret file others can read).
type Warning struct {
	File string
	Key  string
	Msg  string
}

func (w Warning) String() string {
	if w.Key == "" {
		return w.File + ": " + w.Msg
	}
	return w.File + ": " + w.Key + ": " + w.Msg
}

// Path is the default configuration file: $XDG_CONFIG_HOME/treasury/
// config.yaml, falling back to ~/.config/treasury/config.yaml.
func Path(getenv func(string) string) string {
	if getenv == nil {
		getenv = os.Getenv
	}
	return filepath.Join(xdgDir(getenv, "XDG_CONFIG_HOME", ".config"), "treasury", "config.yaml")
}

// StateDir is where treasury keeps state (audit log, written profiles):
// $XDG_STATE_HOME/treasury, falling back to ~/.local/state/treasury.
func StateDir(getenv func(string) string) string {
	if getenv == nil {
		getenv = os.Getenv
	}
	return filepath.Join(xdgDir(getenv, "XDG_STATE_HOME", filepath.Join(".local", "state")), "treasury")
}

func xdgDir(getenv func(string) string, variable, fallback string) string {
	if d := getenv(variable); d != "" && filepath.IsAbs(d) {
		return d
	}
	return filepath.Join(homeDir(getenv), fallback)
}

// homeDir is $HOME, else the user's home directory as the OS knows it.
func homeDir(getenv func(string) string) string {
	if home := getenv("HOME"); home != "" {
		return home
	}
	home, _ := os.UserHomeDir()
	return home
}

// Builtin is the built-in sandbox profile.
func Builtin() *Config {
	return &Config{Profile: SandboxProfile, Environment: EnvSandbox, Embedded: &Embedded{Seed: 1, Speed: 1},
		Refresh: DefaultRefresh(), Alerts: DefaultAlerts(), BaseCurrency: DefaultBaseCurrency, Mouse: true, Funding: DefaultFunding(),
		Theme: Theme{Name: "default"}}
}

// Load reads the configuration and resolves the chosen profile. The error,
// when the file is wrong, is Errors; warnings are returned even with a
// configuration that loads.
func Load(o Options) (*Config, []Warning, error) {
	file, explicit := o.file()
	profile := o.Profile
	if profile == "" {
		profile = o.getenv(VarProfile)
	}
	readOnly := o.ReadOnly || truthy(o.getenv(VarReadOnly))

	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) && !explicit {
		if profile != "" && profile != SandboxProfile {
			return nil, nil, Errors{{File: file, Msg: fmt.Sprintf("profile %q asked for, but there is no configuration file (only the built-in profile %q exists)", profile, SandboxProfile)}}
		}
		cfg := Builtin()
		cfg.ReadOnly = cfg.ReadOnly || readOnly
		return cfg, nil, nil
	}
	if err != nil {
		return nil, nil, Errors{{File: file, Msg: "cannot read the configuration file: " + err.Error()}}
	}
	cfg, warns, err := parse(file, data, profile, o.getenv, o.NoScreen)
	if err != nil {
		return nil, warns, err
	}
	cfg.ReadOnly = cfg.ReadOnly || readOnly
	cfg.Warnings = warns
	if o.CheckSearch != nil && !o.NoScreen {
		if err := cfg.CheckSearches(o.CheckSearch); err != nil {
			return nil, warns, err
		}
	}
	return cfg, warns, nil
}

func truthy(s string) bool {
	switch s {
	case "1", "true", "TRUE", "True", "yes", "on":
		return true
	}
	return false
}

// Parse resolves profile (empty: the file's `profile:` key or its only
// profile) from the YAML data of file. Relative paths in the file are taken
// from file's directory.
func Parse(file string, data []byte, profile string, getenv func(string) string) (*Config, []Warning, error) {
	return parse(file, data, profile, getenv, false)
}

// parse is Parse; noScreen makes what is wrong with a display setting a
// warning (Options.NoScreen).
func parse(file string, data []byte, profile string, getenv func(string) string, noScreen bool) (*Config, []Warning, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, nil, Errors{syntaxError(file, data, err)}
	}
	d := newDecoder(file)
	var raw rawFile
	if len(root.Content) > 0 {
		d.decode(&root, reflectValue(&raw), "")
	}
	var shown []Warning // display settings set aside (noScreen)
	if noScreen {
		shown = d.displayOnly(&raw)
	}
	if len(d.errs) > 0 {
		return nil, shown, d.errs
	}
	name := profile
	if name == "" {
		name = raw.Profile
	}
	if name == "" && len(raw.Profiles) == 1 {
		for n := range raw.Profiles {
			name = n
		}
	}
	rp, ok := raw.Profiles[name]
	switch {
	case ok && rp == nil:
		return nil, nil, Errors{{File: file, Key: "profiles." + name, Line: d.lines["profiles."+name], Msg: "the profile is empty"}}
	case ok:
	case name == SandboxProfile || (name == "" && len(raw.Profiles) == 0):
		cfg := Builtin()
		cfg.File = file
		return cfg, nil, nil
	case name == "":
		return nil, nil, Errors{{File: file, Key: "profile", Msg: "several profiles and none chosen: set `profile:`, --profile or " + VarProfile}}
	default:
		line, key := 0, ""
		if raw.Profile == name && profile == "" {
			line, key = d.lines["profile"], "profile"
		}
		return nil, nil, Errors{{File: file, Key: key, Line: line, Msg: fmt.Sprintf("no profile %q in the file (profiles: %s)", name, profileNames(raw.Profiles))}}
	}
	r := &resolver{d: d, dir: filepath.Dir(file), getenv: getenv, noScreen: noScreen, warns: shown}
	cfg := r.profile(name, rp)
	if len(d.errs) > 0 {
		sort.SliceStable(d.errs, func(i, j int) bool {
			if d.errs[i].Line != d.errs[j].Line {
				return d.errs[i].Line < d.errs[j].Line
			}
			return d.errs[i].Key < d.errs[j].Key
		})
		return nil, r.warns, d.errs
	}
	cfg.File = file
	return cfg, r.warns, nil
}

// Key is the key of a setting of the profile's section, as the file
// spells it ("profiles.uat.custody"), for messages that say what to fix.
func (c *Config) Key(section string) string {
	return "profiles." + c.Profile + "." + section
}

// ErrReadOnly refuses an action in a read-only session (the profile's
// read_only, --read-only, TREASURY_READ_ONLY or an SSH viewer key). It is
// defined here, on the ground, so the actions that refuse with it and the
// shell that refuses to open their dialog share one error without the
// shell importing the actions.
var ErrReadOnly = errors.New("read-only session: actions are disabled (profile read_only, --read-only, or an SSH viewer key)")
