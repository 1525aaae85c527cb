package identities_test

import (
	"testing"

	"treasury/ui"
	"treasury/views/identities"
	"treasury/views/viewtest"
)

// TestIdentitiesCSVsAreData: the identities' and an identity's
// instruments' CSVs hold their fields, creation times in ISO 8601 UTC
// (the screen's "2026-11-16 09:40:00" has no zone), the instrument's
// currency in a column of its own, "" for no internal id (not "—").
func TestIdentitiesCSVsAreData(t *testing.T) {
	e := shared.Env(t)
	v := identities.New(e.Ctx, e.P)
	viewtest.Drive(v, v.Update(ui.StoreChanged{}))
	c := viewtest.ReadCSV(t, ui.CSVOf(v))
	c.HasHeader(t, "identity_id", "nickname", "identity_type", "payment_role", "identity_state", "internal_id", "created_at")
	if len(c.Rows) < 4 {
		t.Fatalf("%d identities", len(c.Rows))
	}
	for _, r := range c.Rows {
		viewtest.Time(t, "created_at", r["created_at"], false)
		if r["identity_id"] == "" || r["nickname"] == "" || r["payment_role"] == "" {
			t.Errorf("identity %v lacks its id, name or role", r)
		}
	}
	c.Plain(t)

	for range 3 {
		viewtest.Drive(v, v.Update(viewtest.Key("down")))
	}
	id, _, _ := ui.SelectedOf(v)
	viewtest.Drive(v, v.Update(viewtest.Key("enter")))
	in := viewtest.ReadCSV(t, ui.CSVOf(v))
	in.HasHeader(t, "financial_instrument_id", "identity_id", "label", "financial_instrument_type", "currency", "country", "created_at")
	if len(in.Rows) == 0 {
		t.Fatalf("identity %s: no instruments", id)
	}
	for _, r := range in.Rows {
		viewtest.Time(t, "created_at", r["created_at"], false)
		if len(r["currency"]) != 3 || r["identity_id"] != id {
			t.Errorf("instrument %v: want its currency and identity %s", r, id)
		}
	}
	in.Plain(t)
}
