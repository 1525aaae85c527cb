package process

import (
	"context"
	"fmt"
	"strings"

	"treasury/kit/diskfree"
	"treasury/ui/sanitize"
	"treasury/wire/apierr"
)

// NotReady says why the process cannot serve as it should now (nil when
// it can): the store has no data yet of an interface its profile names
// (unread: what the store answered last, Platform.Unread, asked by the
// caller apart so that a probe never waits on the store's lock),
// the record of actions cannot be written (a probe is written and synced
// in the state directory each time: a directory that became read-only,
// a full disk; not when the operator asked for --read-only), or the site
// cannot be reached. ctx bounds the site's answer.
func (r *Runtime) NotReady(ctx context.Context, unread []apierr.Interface) []string {
	var why []string
	if len(unread) > 0 {
		names := make([]string, len(unread))
		for i, u := range unread {
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
