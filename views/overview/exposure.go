package overview

import (
	"fmt"
	"strings"

	"treasury/views/viewkit"
)

// exposurePanel: per currency what the payments in flight commit, paid
// out in it (out) and paid from it by funding class (figures: from the
// prefunded account, owed just in time, funded just in time, credit,
// other payins by name), beside the prefunded balance, and what is drawn
// said in hours at the pace that drives the currency's runway.
func (v *View) exposurePanel(w int) []string {
	t := v.ctx.Theme
	srcs := []source{srcPayments, srcPrefunded}
	out := []string{v.title(w, "Exposure · in flight", v.ages(srcs...))}
	if !v.configured(srcPayments) {
		return append(out, v.notes(w, srcs...)...)
	}
	snap := get(v, v.exposure)
	if !v.loaded(srcPayments) || !snap.Loaded() {
		notes := v.notes(w, srcs...)
		if len(notes) == 0 {
			notes = []string{t.Muted.Render("counting the payments in flight…")}
		}
		return append(out, notes...)
	}
	e := snap.Data
	it := e.Items()
	if e.Empty() && len(it.Drawn) == 0 {
		return append(append(out, t.Muted.Render("no payment in flight")), v.notes(w, srcs...)...)
	}
	if !e.Balances {
		it.Drawn = append(it.Drawn, "prefunded balances not read")
	}
	// Compact: the page has the room of a few lines for it.
	for _, g := range it.Groups() {
		label := fmt.Sprintf("%-5s", g.Label)
		out = append(out, viewkit.WrapItems(t.Muted.Render(label), strings.Repeat(" ", len(label)), g.Items, w)...)
	}
	return append(out, v.notes(w, srcs...)...)
}
