package errorsview

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"treasury/ui/sanitize"
	"treasury/wire/webhook"
)

// webhookLines is the receiver's section above the failed calls, apart
// from them: failed calls are ours to the platform, these are the
// platform's (or anyone's) to us. One line says whether the receiver
// listens and what it accepted; one, when it answered any busy (its queue
// full: the platform delivers those again, they are not refused), how
// many times; and one, when it refused any, counts them per reason, most
// frequent first (the log has each one with its remote address). Nothing when the profile configures no receiver.
func (v *View) webhookLines(w int) []string {
	if v.ctx.Webhooks == nil {
		return nil
	}
	t := v.ctx.Theme
	st := v.ctx.Webhooks()
	head := t.Title.Render("Webhook receiver") + "  "
	if !st.Listening() {
		return []string{ansi.Truncate(head+t.Bad.Render(sanitize.Line(st.Problem())), w, "…")}
	}
	s := st.Stats
	line := fmt.Sprintf("listening on %s · %d accepted · %d duplicates dropped · %d other events ignored",
		sanitize.Line(st.Addr), s.Accepted, s.Duplicates, s.Ignored)
	out := []string{ansi.Truncate(head+t.Muted.Render(line), w, "…")}
	if n := st.Busy(); n > 0 {
		busy := fmt.Sprintf("answered busy %d times: the queue to the store was full (503); the platform delivers each again, and the poll reads the payments meanwhile", n)
		out = append(out, ansi.Truncate(t.Muted.Render(busy), w, "…"))
	}
	if st.Rejected() == 0 {
		return out
	}
	var reasons []string
	for r := range maps.Keys(st.Rejections) {
		if r != webhook.RejectOverloaded {
			reasons = append(reasons, r)
		}
	}
	slices.SortFunc(reasons, func(a, b string) int {
		return cmp.Or(cmp.Compare(st.Rejections[b], st.Rejections[a]), cmp.Compare(a, b))
	})
	parts := make([]string, len(reasons))
	for i, r := range reasons {
		parts[i] = fmt.Sprintf("%s %d", r, st.Rejections[r])
	}
	rej := fmt.Sprintf("rejected %d: %s (the log has each, with its remote address)", st.Rejected(), strings.Join(parts, ", "))
	return append(out, ansi.Truncate(t.Warn.Render(rej), w, "…"))
}
