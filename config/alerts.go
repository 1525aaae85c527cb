package config

import (
	"time"

	"github.com/shopspring/decimal"
)

// Alerts are the alert thresholds of a profile and where alerts go. Every
// threshold has a default, so that alerts work with no configuration: a
// runway under 24 h is a warning and under 6 h critical, a failure rate
// of 10 % a warning and 30 % critical, a polled feed without an answer for
// a minute a warning and for five critical; a new critical alert rings the
// terminal's bell and raises a desktop notification. Low balances have no
// default amount: what is low depends on the currency and the business.
type Alerts struct {
	// RunwayWindow is the time constant of the runway's weighted net
	// outflow (runway_window).
	RunwayWindow Setting[time.Duration]
	// Prefunded and Liquidity are the thresholds of the balances of each
	// kind: the payments interface's prefunded accounts and the liquidity
	// interface's balances.
	Prefunded, Liquidity Balances
	FailureRate          FailureRate
	Stale                Stale
	Terminal             Terminal
	// Webhook, when set, is where `treasury serve` posts alerts.
	Webhook *AlertWebhook
}

// Setting is one threshold: its value, and whether the file set it (an
// unset one takes the default).
type Setting[T any] struct {
	Value T
	Set   bool
}

// Given is a setting the file gives.
func Given[T any](v T) Setting[T] { return Setting[T]{Value: v, Set: true} }

// or is s when the file set it, else d.
func (s Setting[T]) or(d Setting[T]) Setting[T] {
	if s.Set {
		return s
	}
	return d
}

// Balance kinds, as the file names them (alerts.prefunded,
// alerts.liquidity).
const (
	KindPrefunded = "prefunded"
	KindLiquidity = "liquidity"
)

// DefaultRule is the key of a kind's thresholds for every currency not
// named (alerts.prefunded.default).
const DefaultRule = "default"

// Threshold are the thresholds of one kind of balance of one currency (or
// of every currency: the kind's default). Runways are in hours, balances
// in the currency; zero turns a level off. A runway is the prefunded
// balances' only: the liquidity interface has no ledger to measure an
// outflow by.
type Threshold struct {
	RunwayWarning, RunwayCritical  Setting[decimal.Decimal]
	LowBalance, LowBalanceCritical Setting[decimal.Decimal]
}

// Balances are the thresholds of one kind of balance: its default and
// those of currencies named.
type Balances struct {
	Kind     string
	Default  Threshold
	Currency map[string]Threshold
	// legacy and legacyLow are the values of the old keys
	// (alerts.runway_hours; alerts.low_balance, which applied to both
	// kinds), taken when neither the currency nor the default sets the
	// field.
	legacy    Threshold
	legacyLow map[string]Setting[decimal.Decimal]
}

// Default thresholds.
var (
	DefaultRunwayWarning  = decimal.NewFromInt(24)
	DefaultRunwayCritical = decimal.NewFromInt(6)
)

// Default failure rate and stale-feed thresholds.
const (
	DefaultRunwayWindow       = 6 * time.Hour
	DefaultFailureWarning     = 10 // percent
	DefaultFailureCritical    = 30 // percent
	DefaultFailureMinFinished = 20
	DefaultFailureWindow      = time.Hour
	DefaultStaleWarning       = time.Minute
	DefaultStaleCritical      = 5 * time.Minute
	DefaultWebhookPerMinute   = 6
	DefaultWebhookMinSeverity = "high"
	webhookMaxPerMinute       = 60
)

// builtin are a kind's thresholds when the file sets none.
func (b Balances) builtin() Threshold {
	if b.Kind == KindPrefunded {
		return Threshold{RunwayWarning: Setting[decimal.Decimal]{Value: DefaultRunwayWarning},
			RunwayCritical: Setting[decimal.Decimal]{Value: DefaultRunwayCritical}}
	}
	return Threshold{}
}

// merge takes each field of t, else of d.
func (t Threshold) merge(d Threshold) Threshold {
	return Threshold{RunwayWarning: t.RunwayWarning.or(d.RunwayWarning), RunwayCritical: t.RunwayCritical.or(d.RunwayCritical),
		LowBalance: t.LowBalance.or(d.LowBalance), LowBalanceCritical: t.LowBalanceCritical.or(d.LowBalanceCritical)}
}

// For is the thresholds in effect for a currency: the currency's own,
// else the kind's default, else the old keys', else the built-in ones.
func (b Balances) For(currency string) Threshold {
	t := b.Currency[currency].merge(b.Default)
	legacy := b.legacy
	if lb, ok := b.legacyLow[currency]; ok {
		legacy.LowBalance = lb
	}
	return t.merge(legacy).merge(b.builtin())
}

// FailureRate raises an alert when, of at least MinFinished payments that
// finished (completed, failed, declined or returned) within Window, the
// share that failed or were declined reaches Warning or Critical percent.
type FailureRate struct {
	Warning, Critical Setting[decimal.Decimal]
	MinFinished       Setting[int]
	Window            time.Duration
}

// Stale raises an alert when a feed polled now has had no good answer for
// Warning or Critical (and at least three of its poll intervals).
type Stale struct {
	Warning, Critical Setting[time.Duration]
}

// Terminal is what a session's terminal does on a new critical alert: ring
// the bell, raise a desktop notification (OSC 9 and OSC 777).
type Terminal struct {
	Bell, Desktop bool
}

// AlertWebhook is an outgoing webhook: alerts of MinSeverity and above,
// posted as {"text": ...} (the body Slack, Mattermost, Rocket.Chat,
// Google Chat and Teams' incoming webhooks take), at most PerMinute a
// minute.
type AlertWebhook struct {
	// URL is a secret: an incoming webhook's address is its credential.
	URL         Secret
	MinSeverity string // "medium" or "high"
	PerMinute   int
}

// DefaultAlerts are the alert settings of a profile that sets none.
func DefaultAlerts() Alerts {
	return Alerts{
		RunwayWindow: Setting[time.Duration]{Value: DefaultRunwayWindow},
		Prefunded:    Balances{Kind: KindPrefunded, Currency: map[string]Threshold{}},
		Liquidity:    Balances{Kind: KindLiquidity, Currency: map[string]Threshold{}},
		FailureRate: FailureRate{Warning: Setting[decimal.Decimal]{Value: decimal.NewFromInt(DefaultFailureWarning)},
			Critical:    Setting[decimal.Decimal]{Value: decimal.NewFromInt(DefaultFailureCritical)},
			MinFinished: Setting[int]{Value: DefaultFailureMinFinished}, Window: DefaultFailureWindow},
		Stale:    Stale{Warning: Setting[time.Duration]{Value: DefaultStaleWarning}, Critical: Setting[time.Duration]{Value: DefaultStaleCritical}},
		Terminal: Terminal{Bell: true, Desktop: true},
	}
}
