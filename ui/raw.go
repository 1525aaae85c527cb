package ui

import (
	"encoding/json"

	tea "charm.land/bubbletea/v2"
)

// The raw view (y) shows a record as the network sent it. Records a
// process holds many of (the payments: 100,000 in a store) are held
// decoded, without that JSON: a view of them reads it again from the
// platform when asked (RawReader), the pager saying so meanwhile and
// showing the record as held if the read fails.

// RawReader is a view whose records are held without the JSON they came
// as: ReadRaw returns the command that reads record id's again (its
// answer a RawRecord), or nil when rec holds it (or cannot be read
// again): the record is then shown as it is.
type RawReader interface {
	ReadRaw(id string, rec any) tea.Cmd
}

// RawRecord answers ReadRaw: record ID's JSON as the platform sends it
// now, or why it could not be read; Source names the read ("GET
// /v3/payments/{id}").
type RawRecord struct {
	ID     string
	JSON   json.RawMessage
	Source string
	Err    error
}

// received is JSON read again, shown as received.
type received json.RawMessage

func (r received) RawJSON() json.RawMessage { return json.RawMessage(r) }

// showRaw opens the raw view of record id (rec): at once from what rec
// holds, or, for a RawReader's record, while its JSON is read again.
func (a *App) showRaw(id string, rec any) tea.Cmd {
	a.rawFor, a.rawHeld = "", nil
	if r, ok := As[RawReader](a.Active()); ok {
		if cmd := r.ReadRaw(id, rec); cmd != nil {
			a.rawFor, a.rawHeld = id, rec
			a.raw = a.pager(newTextPager(a.ctx, "reading the record as the platform sends it…",
				"the dashboard holds it decoded, not as received", a.width, a.height-a.chrome()))
			a.overlay = rawOverlay
			return cmd
		}
	}
	a.raw = a.pager(newRawPager(a.ctx, rec, a.width, a.height-a.chrome()))
	a.overlay = rawOverlay
	return nil
}

// rawRead shows what a RawReader read, when the raw view still waits for
// it: the JSON as the platform sent it now, or the record as held and
// why it could not be read.
func (a *App) rawRead(msg RawRecord) {
	if a.overlay != rawOverlay || a.rawFor == "" || msg.ID != a.rawFor {
		return // closed, or waiting for another record now
	}
	held := a.rawHeld
	a.rawFor, a.rawHeld = "", nil
	h := a.height - a.chrome()
	if msg.Err != nil || len(msg.JSON) == 0 {
		why := "nothing came back"
		if msg.Err != nil {
			why = msg.Err.Error()
		}
		a.raw = a.pager(newRawPagerAs(a.ctx, held, "", "as held: read again from the platform ("+msg.Source+") it could not be: "+why, a.width, h))
		return
	}
	a.raw = a.pager(newRawPagerAs(a.ctx, received(msg.JSON), "as received, read again now ("+msg.Source+"): the dashboard does not keep it",
		"", a.width, h))
}
