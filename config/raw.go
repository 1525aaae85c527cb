package config

// The raw structs mirror the YAML file key for key; resolve turns them into
// a Config. Every leaf is a plain string, bool or number so that parsing
// (durations, URLs, decimals) happens in one place with the key's line.

type rawFile struct {
	Profile  string                 `yaml:"profile,omitempty"`
	Profiles map[string]*rawProfile `yaml:"profiles,omitempty"`
}

type rawProfile struct {
	Environment     string             `yaml:"environment,omitempty"`
	ReadOnly        *bool              `yaml:"read_only,omitempty"`
	EmbeddedSandbox *rawEmbedded       `yaml:"embedded_sandbox,omitempty"`
	Liquidity       *rawLiquidity      `yaml:"liquidity,omitempty"`
	Payments        *rawPayments       `yaml:"payments,omitempty"`
	Reporting       *rawReporting      `yaml:"reporting,omitempty"`
	Wallet          *rawWallet         `yaml:"wallet,omitempty"`
	Custody         *rawCustody        `yaml:"custody,omitempty"`
	Webhooks        *rawWebhooks       `yaml:"webhooks,omitempty"`
	Cluster         *rawCluster        `yaml:"cluster,omitempty"`
	Refresh         *rawRefresh        `yaml:"refresh,omitempty"`
	Alerts          *rawAlerts         `yaml:"alerts,omitempty"`
	Mouse           *bool              `yaml:"mouse,omitempty"`
	Theme           string             `yaml:"theme,omitempty"`
	BaseCurrency    string             `yaml:"base_currency,omitempty"`
	Funding         *rawFunding        `yaml:"funding,omitempty"`
	SSHRoles        []string           `yaml:"ssh_roles,omitempty"`
	Searches        []*rawSearch       `yaml:"searches,omitempty"`
	Commands        []*rawCommand      `yaml:"commands,omitempty"`
	Keys            map[string]keyList `yaml:"keys,omitempty"`
}

// rawSearch is one saved search (searches.go).
type rawSearch struct {
	Title   string   `yaml:"title,omitempty"`
	View    string   `yaml:"view,omitempty"`
	Search  string   `yaml:"search,omitempty"`
	Window  string   `yaml:"window,omitempty"`
	Columns []string `yaml:"columns,omitempty"`
	Sort    string   `yaml:"sort,omitempty"`
}

type rawEmbedded struct {
	Seed            int64    `yaml:"seed,omitempty"`
	Speed           float64  `yaml:"speed,omitempty"`
	Variant         bool     `yaml:"variant,omitempty"`
	HistoryPayments int      `yaml:"history_payments,omitempty"`
	Accounts        int      `yaml:"accounts,omitempty"`
	LiveRate        *float64 `yaml:"live_rate,omitempty"`
	Retain          string   `yaml:"retain,omitempty"`
}

type rawLiquidity struct {
	BaseURL   string `yaml:"base_url,omitempty"`
	Token     string `yaml:"token,omitempty"`
	TokenEnv  string `yaml:"token_env,omitempty"`
	TokenFile string `yaml:"token_file,omitempty"`
	PageSize  int    `yaml:"page_size,omitempty"`
}

type rawPayments struct {
	BaseURL          string `yaml:"base_url,omitempty"`
	AuthURL          string `yaml:"auth_url,omitempty"`
	Audience         string `yaml:"audience,omitempty"`
	ClientID         string `yaml:"client_id,omitempty"`
	ClientSecret     string `yaml:"client_secret,omitempty"`
	ClientSecretEnv  string `yaml:"client_secret_env,omitempty"`
	ClientSecretFile string `yaml:"client_secret_file,omitempty"`
	PageSize         int    `yaml:"page_size,omitempty"`
}

type rawReporting struct {
	BaseURL string `yaml:"base_url,omitempty"`
}

type rawClient struct {
	ClientID         string `yaml:"client_id,omitempty"`
	ClientSecret     string `yaml:"client_secret,omitempty"`
	ClientSecretEnv  string `yaml:"client_secret_env,omitempty"`
	ClientSecretFile string `yaml:"client_secret_file,omitempty"`
}

type rawWallet struct {
	BaseURL          string     `yaml:"base_url,omitempty"`
	ClientID         string     `yaml:"client_id,omitempty"`
	ClientSecret     string     `yaml:"client_secret,omitempty"`
	ClientSecretEnv  string     `yaml:"client_secret_env,omitempty"`
	ClientSecretFile string     `yaml:"client_secret_file,omitempty"`
	Controls         *rawClient `yaml:"controls,omitempty"`
	Transactions     *rawClient `yaml:"transactions,omitempty"`
	PageSize         int        `yaml:"page_size,omitempty"`
}

type rawCustody struct {
	BaseURL        string `yaml:"base_url,omitempty"`
	DomainID       string `yaml:"domain_id,omitempty"`
	Token          string `yaml:"token,omitempty"`
	TokenEnv       string `yaml:"token_env,omitempty"`
	TokenFile      string `yaml:"token_file,omitempty"`
	SigningKeyFile string `yaml:"signing_key_file,omitempty"`
	UserID         string `yaml:"user_id,omitempty"`
	PageSize       int    `yaml:"page_size,omitempty"`
}

type rawWebhooks struct {
	Listen        string `yaml:"listen,omitempty"`
	Path          string `yaml:"path,omitempty"`
	TLSCertFile   string `yaml:"tls_cert_file,omitempty"`
	TLSKeyFile    string `yaml:"tls_key_file,omitempty"`
	PublicKeyFile string `yaml:"public_key_file,omitempty"`
	HeaderPrefix  string `yaml:"header_prefix,omitempty"`
	Tolerance     string `yaml:"tolerance,omitempty"`
}

type rawFunding struct {
	TimeZone  string `yaml:"time_zone,omitempty"`
	DayEnds   string `yaml:"day_ends,omitempty"`
	TopUpLead string `yaml:"top_up_lead,omitempty"`
}

type rawRefresh struct {
	Quotes      string `yaml:"quotes,omitempty"`
	Balances    string `yaml:"balances,omitempty"`
	Payments    string `yaml:"payments,omitempty"`
	Wallets     string `yaml:"wallets,omitempty"`
	Reports     string `yaml:"reports,omitempty"`
	AddressBook string `yaml:"addressbook,omitempty"`
}

type rawAlerts struct {
	// LowBalance and RunwayHours are the old keys: one amount for both
	// kinds of balance, one runway for every currency (a warning).
	LowBalance   map[string]string        `yaml:"low_balance,omitempty"`
	RunwayHours  string                   `yaml:"runway_hours,omitempty"`
	RunwayWindow string                   `yaml:"runway_window,omitempty"`
	Prefunded    map[string]*rawThreshold `yaml:"prefunded,omitempty"`
	Liquidity    map[string]*rawThreshold `yaml:"liquidity,omitempty"`
	FailureRate  *rawFailureRate          `yaml:"failure_rate,omitempty"`
	Stale        *rawStale                `yaml:"stale,omitempty"`
	Terminal     *rawTerminal             `yaml:"terminal,omitempty"`
	Webhook      *rawAlertWebhook         `yaml:"webhook,omitempty"`
}

type rawThreshold struct {
	RunwayWarningHours  string `yaml:"runway_warning_hours,omitempty"`
	RunwayCriticalHours string `yaml:"runway_critical_hours,omitempty"`
	LowBalance          string `yaml:"low_balance,omitempty"`
	LowBalanceCritical  string `yaml:"low_balance_critical,omitempty"`
}

type rawFailureRate struct {
	Warning     string `yaml:"warning,omitempty"`
	Critical    string `yaml:"critical,omitempty"`
	MinFinished string `yaml:"min_finished,omitempty"`
}

type rawStale struct {
	Warning  string `yaml:"warning,omitempty"`
	Critical string `yaml:"critical,omitempty"`
}

type rawTerminal struct {
	Bell    *bool `yaml:"bell,omitempty"`
	Desktop *bool `yaml:"desktop,omitempty"`
}

type rawAlertWebhook struct {
	URL         string `yaml:"url,omitempty"`
	URLEnv      string `yaml:"url_env,omitempty"`
	URLFile     string `yaml:"url_file,omitempty"`
	MinSeverity string `yaml:"min_severity,omitempty"`
	PerMinute   int    `yaml:"per_minute,omitempty"`
}
