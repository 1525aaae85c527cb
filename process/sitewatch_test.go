package process

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"treasury/data/live"
	"treasury/data/site"
)

// looks is a site whose weaknesses the test sets.
type looks struct {
	mu   sync.Mutex
	weak []site.Weakness
}

func (l *looks) Weak(context.Context) []site.Weakness {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]site.Weakness(nil), l.weak...)
}
func (l *looks) Changed() <-chan struct{} { return make(chan struct{}) }
func (l *looks) Node() string             { return "b1" }
func (l *looks) set(w ...site.Weakness) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.weak = w
}

// TestTheSiteWatchRaisesWhatMakesTheSiteWeak: each weakness the site
// names is an alert with the header's banner (SITE FORMING while the
// site forms, SITE WEAK after), raised once while it holds, changed when
// its words change, high when the record cannot take a line or this
// node is the one refused, and withdrawn when it clears.
func TestTheSiteWatchRaisesWhatMakesTheSiteWeak(t *testing.T) {
	st := live.New(live.Options{})
	l := &looks{}
	w := &siteWatch{site: l, alerts: st, log: slog.New(slog.NewTextHandler(io.Discard, nil)), raised: map[string]string{}}
	ctx := context.Background()
	alerts := func() map[string]live.Alert {
		out := map[string]live.Alert{}
		for _, a := range st.Alerts() {
			out[a.Key] = a
		}
		return out
	}

	l.set(site.Weakness{Key: "site:forming", Forming: true, Title: "The site is forming: 1 of 3 nodes heard (b1); actions wait for its record"})
	w.look(ctx)
	if a := alerts()["site:forming"]; a.Banner != "SITE FORMING" || a.Severity != live.Medium || !strings.Contains(a.Title, "forming") {
		t.Fatalf("forming: %+v", alerts())
	}

	behind := site.Weakness{Key: "site:node:b3", Title: "b3 16 lines behind: the site cannot lose another node", Guidance: "bring it back"}
	refused := site.Weakness{Key: "site:refused:b1", Title: "b1 is refused by the site for its credentials (authorization)"}
	l.set(behind, refused)
	w.look(ctx)
	as := alerts()
	if _, ok := as["site:forming"]; ok || len(as) != 2 {
		t.Fatalf("formed, b3 behind, b1 refused: %+v", as)
	}
	if a := as["site:node:b3"]; a.Banner != "SITE WEAK" || a.Title != behind.Title || a.Guidance != "bring it back" || a.Severity != live.Medium {
		t.Errorf("b3 behind: %+v", a)
	}
	if a := as["site:refused:b1"]; a.Banner != "SITE WEAK" || a.Severity != live.High {
		t.Errorf("this node refused: %+v", a)
	}

	l.set(site.Weakness{Key: "site:node:b3", Title: "b3 offline: the site's record cannot take a line", Grave: true})
	w.look(ctx)
	as = alerts()
	if a := as["site:node:b3"]; len(as) != 1 || a.Severity != live.High || !strings.Contains(a.Title, "cannot take a line") {
		t.Errorf("b3 offline: %+v", as)
	}

	l.set()
	w.look(ctx)
	if as := alerts(); len(as) != 0 {
		t.Errorf("whole again: %+v", as)
	}
}
