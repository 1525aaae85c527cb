package platform

import (
	"context"
	"slices"
	"time"

	"treasury/wire/apierr"
)

// Interfaces are the interfaces the store's feeds read, in the header's
// order (the payments token's issuer, auth, apart from payments).
func (p *Platform) Interfaces() []apierr.Interface {
	var out []apierr.Interface
	for _, f := range p.feedList {
		if f.Interface != "" && !slices.Contains(out, f.Interface) {
			out = append(out, f.Interface)
		}
	}
	return out
}

// LastRead is, by interface, when the store last received data of it
// (the newest of its feeds' fetches, this process's own or, in a site,
// the poller's); an interface not read yet is absent.
func (p *Platform) LastRead() map[apierr.Interface]time.Time {
	out := map[apierr.Interface]time.Time{}
	for _, f := range p.feedList {
		if f.Interface == "" {
			continue
		}
		if s := p.Store.Snapshot(f.Topic); s.Loaded() && s.FetchedAt.After(out[f.Interface]) {
			out[f.Interface] = s.FetchedAt
		}
	}
	return out
}

// Unread lists the interfaces the store has no data of yet.
func (p *Platform) Unread() []apierr.Interface {
	read := p.LastRead()
	var out []apierr.Interface
	for _, i := range p.Interfaces() {
		if _, ok := read[i]; !ok {
			out = append(out, i)
		}
	}
	return out
}

// ReadEach reads once, in the background, the first feed of each
// interface none of whose feeds is polled always (reporting, wallet,
// custody: read while a view watches them): a server that no one has
// connected to yet then knows it has data of every interface its profile
// names, and that their credentials work. It returns at once.
func (p *Platform) ReadEach(ctx context.Context) {
	polled := map[apierr.Interface]bool{}
	for _, f := range p.feedList {
		polled[f.Interface] = polled[f.Interface] || f.Always
	}
	seen := map[apierr.Interface]bool{}
	for _, f := range p.feedList {
		if f.Interface == "" || polled[f.Interface] || seen[f.Interface] {
			continue
		}
		seen[f.Interface] = true
		go p.Store.FetchNow(ctx, f.Topic)
	}
}
