package process

import (
	"context"
	"fmt"
	"strings"

	"treasury/kit/diskfree"
	"treasury/ui/sanitize"
)

// NotReady says why the process cannot serve as it should now (nil when
// it can): the store has no data yet of an interface its profile names,
// the record of actions cannot be written (a probe is written and synced
// in the state directory each time: a directory that became read-only,
// a full disk; not when the operator asked for --read-only), or the site
// cannot be reached. ctx bounds the site's answer.
func (r *Runtime) NotReady(ctx context.Context) []string {
	var why []string
	if un := r.Platform.Unread(); len(un) > 0 {
		names := make([]string, len(un))
		for i, u := range un {
			names[i] = string(u)
		}
		why = append(why, "no data yet from "+strings.Join(names, ", "))
	}
	if !r.Config.ReadOnly && r.Audit != nil {
		err := r.Audit.Writable()
		if err == nil {
			err = diskfree.Probe(r.StateDir, nil)
		}
		if err != nil {
			why = append(why, "the record cannot be written: "+sanitize.Line(err.Error()))
		}
	}
	if r.Site != nil {
		if _, err := r.Site.Health(ctx); err != nil {
			why = append(why, fmt.Sprintf("the site cannot be reached: %s", sanitize.Line(err.Error())))
		}
	}
	return why
}
