package ui

import (
	"fmt"
	"time"
)

// short writes a duration in its largest units: "40s", "5m", "2h05m",
// "3d".
func short(d time.Duration) string {
	neg := d < 0
	if neg {
		d = -d
	}
	var s string
	switch {
	case d < time.Minute:
		s = fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		s = fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		s = fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	default:
		s = fmt.Sprintf("%dd", int(d.Hours()/24))
	}
	if neg {
		return "-" + s
	}
	return s
}

// Age formats how long ago t was, for views and the header, as the bound
// it is under: to the next ten seconds under a minute ("<10s", "<40s",
// "<1m"), the next minute under two days ("<2m", "<2h06m"), the next day
// beyond ("<4d"). An age never reads younger than it is: "1m" for one of
// 1m59s would say the data is a minute fresher than it is. The bound is
// taken a second after now, as the text stays on screen until the next
// tick. A t after now (a server's clock ahead of ours) is "<10s" ago,
// never a negative age. Ages stepping by ten seconds or more, not one, an
// idle session's frame changes a few times a minute, and is drawn only
// then. It is for ages only: a deadline or an expiry is Until's.
func Age(now, t time.Time) string {
	if t.IsZero() {
		return "never"
	}
	d := max(now.Sub(t), 0) + ageSlack
	step := ageStep
	switch {
	case d >= 48*time.Hour:
		step = 24 * time.Hour
	case d >= time.Minute:
		step = time.Minute
	}
	return "<" + short((d/step+1)*step)
}

// AgeChange is how long after now the text of Age(now, t) changes: a
// frame that shows it is the same until then (never, for a zero t: a
// long time). A view that keeps its frame between ticks redraws it then.
func AgeChange(now, t time.Time) time.Duration {
	if t.IsZero() {
		return neverChanges
	}
	d := max(now.Sub(t), 0) + ageSlack
	var next time.Duration // the d at which the text changes
	switch {
	case d < time.Minute:
		next = (d/ageStep + 1) * ageStep
	case d < 48*time.Hour:
		next = (d/time.Minute + 1) * time.Minute
	default:
		next = (d/(24*time.Hour) + 1) * 24 * time.Hour
	}
	// Before t (a clock ahead of ours) d stays at ageSlack until now
	// reaches t.
	return next - d + max(t.Sub(now), 0)
}

// neverChanges is AgeChange's "not by time".
const neverChanges = 1000 * time.Hour

// ageSlack is how long an age is shown before it is drawn again (the
// clock's tick); ageStep the step of the ages under a minute.
const (
	ageSlack = time.Second
	ageStep  = 10 * time.Second
)

// Until formats how long until t, a deadline or an expiry: "in 1h59m"
// while it is ahead of now, "expired 3d ago" once it is not (the age Age
// writes; an expiry due this second has expired). The minutes of less
// than two days are kept, rounded down: "in 1h59m" is not yet two hours.
func Until(now, t time.Time) string {
	if t.IsZero() {
		return "never"
	}
	if left := t.Sub(now); left > 0 {
		return "in " + short(left)
	}
	return "expired " + Age(now, t) + " ago"
}
