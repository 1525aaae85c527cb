package addressbook

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"treasury/ui"
	"treasury/ui/sanitize"
	"treasury/views/viewkit"
	"treasury/wire/custody"
)

// pollEvery is how often an intent's status is read while it is open.
const pollEvery = time.Second

// watchdogTicks is how many shell ticks without an answer restart a
// follow.
const watchdogTicks = 5

// pollMsg asks for an intent's status to be read.
type pollMsg struct{ intentID string }

// follow is a lock or unlock intent accepted by the platform and followed
// until it is over.
type follow struct {
	ep        custody.Endpoint // as confirmed
	lock      bool
	intentID  string
	requestID string
	since     time.Time // ctx clock when it was accepted
	intent    custody.Intent
	err       error // of the last status read

	inFlight  bool // a call is out
	scheduled bool // a poll tick is due
	final     bool // terminal: the endpoints are being re-read
	idle      int  // shell ticks since the last answer
}

func (f *follow) verb() string { return verbOf(f.lock) }

// status is the intent's last known status.
func (f *follow) status() string {
	if f.intent.Status == "" {
		return "submitted"
	}
	s := sanitize.Line(f.intent.Status)
	if f.intent.ApprovalsNeeded > 0 && !f.intent.Terminal() {
		s += fmt.Sprintf(" %d/%d", f.intent.Approvals, f.intent.ApprovalsNeeded)
	}
	return s
}

// fields describe the followed intent for the endpoint's detail.
func (f *follow) fields(now time.Time) [][2]string {
	// The approvals are known once the intent was read: before, "0 of 0"
	// would be a guess.
	approvals := "unknown until the intent is read"
	if f.intent.Status != "" {
		approvals = fmt.Sprintf("%d of %d", f.intent.Approvals, f.intent.ApprovalsNeeded)
	}
	fs := [][2]string{
		{"Action", f.verb()}, {"Intent id", f.intentID}, {"Request id", viewkit.Dash(f.requestID)},
		{"Status", "intent " + f.status()},
		{"Approvals", approvals},
		{"Proposed", viewkit.Time(f.since) + " UTC (" + ui.Age(now, f.since) + " ago)"},
	}
	if !f.intent.UpdatedAt.IsZero() {
		fs = append(fs, [2]string{"Updated", viewkit.Time(f.intent.UpdatedAt) + " UTC"})
	}
	if f.err != nil {
		fs = append(fs, [2]string{"Last read", "failed: " + ui.ErrorText(f.err)})
	}
	return fs
}

// intentFields describe a finished intent.
func intentFields(it custody.Intent) [][2]string {
	action := "lock"
	if it.Payload.Type == custody.PayloadUnlock {
		action = "unlock"
	}
	fs := [][2]string{{"Action", action}, {"Intent id", it.ID}, {"Status", it.Status},
		{"Approvals", fmt.Sprintf("%d of %d", it.Approvals, it.ApprovalsNeeded)},
		{"Updated", viewkit.Time(it.UpdatedAt) + " UTC"}}
	if it.Reason != "" {
		fs = append(fs, [2]string{"Reason", it.Reason})
	}
	return fs
}

// followLine is the view's status line while intents are followed: each
// one's action, endpoint, status and age.
func (v *View) followLine(w int) string {
	if len(v.follows) == 0 {
		return ""
	}
	fs := make([]*follow, 0, len(v.follows))
	for _, f := range v.follows {
		fs = append(fs, f)
	}
	slices.SortFunc(fs, func(a, b *follow) int { return a.since.Compare(b.since) })
	now := v.ctx.Clock()
	parts := make([]string, len(fs))
	for i, f := range fs {
		p := fmt.Sprintf("%s %s: intent %s, %s", f.verb(), sanitize.Line(f.ep.Alias), f.status(), ui.Age(now, f.since))
		if f.err != nil {
			p += " (last read failed)"
		}
		parts[i] = p
	}
	return v.ctx.Theme.Warn.Render(ansi.Truncate("⟳ "+strings.Join(parts, " · "), w, "…"))
}
