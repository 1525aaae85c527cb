package config

import (
	"slices"
	"strconv"
	"time"

	"github.com/shopspring/decimal"
)

// AlertRule is one line of a profile's alert settings as the app shows and
// edits them: the thresholds of one kind of balance for one currency (or
// its default), the runway's window, the failure rate, stale feeds.
type AlertRule struct {
	// Kind and For name the rule: ("prefunded", "USD"), ("prefunded",
	// "default"), ("payments", "failure rate").
	Kind, For string
	// Path is where its keys are under the profile's alerts section
	// (AlertsFile.Set).
	Path   []string
	Fields []AlertField
}

// AlertField is one threshold of a rule.
type AlertField struct {
	// Key is as the file spells it; Label as a person reads it; Unit
	// follows a value ("h", "%", a currency, "").
	Key, Label, Unit string
	// Value is what the file sets at this rule ("" when it does not).
	// Effective is what applies ("" when no alert is raised). Default is
	// what applies when Value is "" ("" none), and From where that comes
	// from ("default", "built-in", "old key" for alerts.low_balance and
	// alerts.runway_hours).
	Value, Effective, Default, From string
}

// Rules are the alert settings, one rule per line: the prefunded balances'
// default and each currency (those held, given, and set in the file),
// the same for the liquidity balances, then the runway's window, the
// failure rate and stale feeds.
func (a *Alerts) Rules(prefunded, liquidity []string) []AlertRule {
	var out []AlertRule
	for _, b := range []struct {
		bal  *Balances
		held []string
	}{{&a.Prefunded, prefunded}, {&a.Liquidity, liquidity}} {
		out = append(out, b.bal.rule(DefaultRule))
		curs := append([]string(nil), b.held...)
		for c := range b.bal.Currency {
			curs = append(curs, c)
		}
		for c := range b.bal.legacyLow {
			curs = append(curs, c)
		}
		slices.Sort(curs)
		for _, c := range slices.Compact(curs) {
			out = append(out, b.bal.rule(c))
		}
	}
	fr, st := a.FailureRate, a.Stale
	out = append(out,
		AlertRule{Kind: "runway", For: "window", Fields: []AlertField{
			durationField("runway_window", "weighted over", a.RunwayWindow, DefaultRunwayWindow)}},
		AlertRule{Kind: "payments", For: "failure rate", Path: []string{"failure_rate"}, Fields: []AlertField{
			decimalField("warning", "warning at", "%", fr.Warning, DefaultFailureWarning),
			decimalField("critical", "critical at", "%", fr.Critical, DefaultFailureCritical),
			{Key: "min_finished", Label: "of at least", Unit: "finished in " + shortDuration(fr.Window),
				Value: setText(fr.MinFinished, strconv.Itoa), Effective: strconv.Itoa(fr.MinFinished.Value),
				Default: strconv.Itoa(DefaultFailureMinFinished), From: "built-in"}}},
		AlertRule{Kind: "feeds", For: "stale", Path: []string{"stale"}, Fields: []AlertField{
			durationField("warning", "warning after", st.Warning, DefaultStaleWarning),
			durationField("critical", "critical after", st.Critical, DefaultStaleCritical)}})
	return out
}

// rule is the rule of one currency of a kind (or its default).
func (b *Balances) rule(currency string) AlertRule {
	own := b.Currency[currency]
	legacy := b.legacy
	if lb, ok := b.legacyLow[currency]; ok {
		legacy.LowBalance = lb
	}
	// What each field takes when this rule does not set it, and from where.
	type inherited struct {
		s    Setting[decimal.Decimal]
		from string
	}
	inherit := func(pick func(Threshold) Setting[decimal.Decimal]) inherited {
		if currency != DefaultRule && pick(b.Default).Set {
			return inherited{pick(b.Default), DefaultRule}
		}
		if pick(legacy).Set {
			return inherited{pick(legacy), "old key"}
		}
		if v := pick(b.builtin()); v.Value.IsPositive() {
			return inherited{v, "built-in"}
		}
		return inherited{}
	}
	if currency == DefaultRule {
		own = b.Default
	}
	field := func(key, label, unit string, pick func(Threshold) Setting[decimal.Decimal]) AlertField {
		inh := inherit(pick)
		f := AlertField{Key: key, Label: label, Unit: unit, Default: effText(inh.s.Value), From: inh.from}
		if f.Default == "" {
			f.From = ""
		}
		if v := pick(own); v.Set {
			f.Value, f.Effective = v.Value.String(), effText(v.Value)
		} else {
			f.Effective = f.Default
		}
		return f
	}
	r := AlertRule{Kind: b.Kind, For: currency, Path: []string{b.Kind, currency}}
	unit := currency
	if currency == DefaultRule {
		unit = ""
	}
	if b.Kind == KindPrefunded {
		r.Fields = append(r.Fields,
			field("runway_warning_hours", "runway warning under", "h", func(t Threshold) Setting[decimal.Decimal] { return t.RunwayWarning }),
			field("runway_critical_hours", "runway critical under", "h", func(t Threshold) Setting[decimal.Decimal] { return t.RunwayCritical }))
	}
	r.Fields = append(r.Fields,
		field("low_balance", "balance warning under", unit, func(t Threshold) Setting[decimal.Decimal] { return t.LowBalance }),
		field("low_balance_critical", "balance critical under", unit, func(t Threshold) Setting[decimal.Decimal] { return t.LowBalanceCritical }))
	return r
}

func effText(d decimal.Decimal) string {
	if !d.IsPositive() {
		return ""
	}
	return d.String()
}

func decimalField(key, label, unit string, s Setting[decimal.Decimal], def int64) AlertField {
	return AlertField{Key: key, Label: label, Unit: unit, Value: setText(s, decimal.Decimal.String), Effective: effText(s.Value),
		Default: effText(decimal.NewFromInt(def)), From: "built-in"}
}

func durationField(key, label string, s Setting[time.Duration], def time.Duration) AlertField {
	v := s.Value
	if !s.Set {
		v = def
	}
	return AlertField{Key: key, Label: label, Value: setText(s, shortDuration), Effective: shortDuration(v), Default: shortDuration(def), From: "built-in"}
}

func setText[T any](s Setting[T], text func(T) string) string {
	if !s.Set {
		return ""
	}
	return text(s.Value)
}

// shortDuration writes a duration as the file would: 6h, 90m, 45s.
func shortDuration(d time.Duration) string {
	switch {
	case d == 0:
		return "0s"
	case d%time.Hour == 0:
		return strconv.FormatInt(int64(d/time.Hour), 10) + "h"
	case d%time.Minute == 0:
		return strconv.FormatInt(int64(d/time.Minute), 10) + "m"
	case d%time.Second == 0:
		return strconv.FormatInt(int64(d/time.Second), 10) + "s"
	}
	return d.String()
}
