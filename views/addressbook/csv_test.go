package addressbook_test

import (
	"strconv"
	"testing"

	"treasury/ui"
	"treasury/views/viewtest"
)

// TestEndpointsCSVIsData: the endpoints' CSV has an endpoint's fields,
// not the screen's cells: "" for no listing (not "—"), has_abi true or
// false (not "yes"/"—"), times in ISO 8601 UTC.
func TestEndpointsCSVIsData(t *testing.T) {
	e := shared.Env(t)
	want := endpoints(t, e)[0]
	v := newView(e)
	viewtest.Drive(v, v.Update(ui.StoreChanged{}))
	c := viewtest.ReadCSV(t, ui.CSVOf(v))
	c.HasHeader(t, "endpoint_id", "alias", "address", "ledger_id", "lock", "listing", "has_abi", "trust_score",
		"domain_id", "description", "revision", "created_at", "created_by", "last_modified_at")
	if len(c.Rows) != len(endpoints(t, e)) {
		t.Fatalf("%d rows for %d endpoints", len(c.Rows), len(endpoints(t, e)))
	}
	abi, dated := 0, 0
	for _, r := range c.Rows {
		if r["created_at"] != "" {
			dated++
		}
		if r["has_abi"] != "true" && r["has_abi"] != "false" {
			t.Errorf("has_abi = %q", r["has_abi"])
		}
		if r["has_abi"] == "true" {
			abi++
		}
		if _, err := strconv.Atoi(r["trust_score"]); err != nil {
			t.Errorf("trust_score = %q", r["trust_score"])
		}
		viewtest.Time(t, "created_at", r["created_at"], true)
		viewtest.Time(t, "last_modified_at", r["last_modified_at"], true)
		if r["endpoint_id"] == want.ID && (r["alias"] != want.Alias || r["address"] != want.Address || r["lock"] != want.Lock) {
			t.Errorf("endpoint %s: %v, want %+v", want.ID, r, want)
		}
	}
	if abi == 0 || dated == 0 {
		t.Errorf("%d endpoints with an ABI, %d with a creation time: want some of each", abi, dated)
	}
	c.Plain(t)
}

// TestCounterpartiesCSVIsData: the counterparties' and a counterparty's
// addresses' CSVs: "" for no description or label (not "—"), the chains
// of an address "; " between two, times in ISO 8601 UTC.
func TestCounterpartiesCSVIsData(t *testing.T) {
	e := shared.Env(t)
	v := newView(e)
	viewtest.Drive(v, v.Update(ui.StoreChanged{}))
	viewtest.Drive(v, v.Update(viewtest.Key("w")))
	e.P.Store.Sync()
	viewtest.Drive(v, v.Update(ui.StoreChanged{}))
	c := viewtest.ReadCSV(t, ui.CSVOf(v))
	c.HasHeader(t, "counterparty_id", "name", "description", "created_at")
	if len(c.Rows) == 0 {
		t.Fatal("no counterparties")
	}
	for _, r := range c.Rows {
		viewtest.Time(t, "created_at", r["created_at"], false)
	}
	c.Plain(t)
	viewtest.Drive(v, v.Update(viewtest.Key("enter")))
	a := viewtest.ReadCSV(t, ui.CSVOf(v))
	a.HasHeader(t, "address_id", "counterparty_id", "label", "address", "blockchains", "created_at")
	if len(a.Rows) == 0 {
		t.Fatalf("counterparty %s: no addresses", c.Rows[0]["counterparty_id"])
	}
	for _, r := range a.Rows {
		viewtest.Time(t, "created_at", r["created_at"], false)
		if r["address"] == "" || r["blockchains"] == "" {
			t.Errorf("address %v: no address or chains", r)
		}
	}
	a.Plain(t)
}
