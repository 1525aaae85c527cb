package ui

import "time"

// pause is a session's freeze of what it shows (p): while paused, the
// store's changes do not reach the views, the ages and the clock hold,
// and the body drawn when it was paused is drawn again at every frame
// until the person acts (a key, a click, a resize: what they asked for is
// drawn, from the data held then) or refreshes once (r). Other sessions
// are not paused: the store goes on for them.
type pause struct {
	// at is when the data shown was last read: when p paused it, or the
	// last r since; zero while not paused.
	at time.Time
	// once says r asked for the store's next news to be shown once.
	once bool
	// body is the body as last drawn while paused, for w x h of view.
	body   string
	w, h   int
	view   View
	frozen bool
}

// paused reports whether the session is paused.
func (a *App) paused() bool { return !a.pause.at.IsZero() }

// togglePause pauses the session, or resumes it: on resume the view reads
// the store as it is now.
func (a *App) togglePause() {
	if a.paused() {
		a.pause = pause{}
		return
	}
	a.pause = pause{at: a.ctx.Clock()}
	a.ctx.shown = a.ctx.Clock()
}

// thaw lets the next frame draw the body again (the person acted).
func (a *App) thaw() { a.pause.frozen = false }

// pausedBody is the body while paused: the one drawn before, unless the
// person acted or the size or view changed since.
func (a *App) pausedBody(w, h int) string {
	p := &a.pause
	if p.frozen && p.w == w && p.h == h && p.view == a.Active() {
		return p.body
	}
	p.body, p.w, p.h, p.view, p.frozen = a.Active().Render(w, h), w, h, a.Active(), true
	return p.body
}

// pausedBadge is the header's mark of a pause: when the data shown was
// read (the pause, or the last r since), UTC.
func (a *App) pausedBadge() string {
	return "PAUSED at " + a.pause.at.UTC().Format("15:04:05") + " (p)"
}
