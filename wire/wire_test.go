package wire_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"treasury/wire"
)

type rec struct {
	wire.Raw `json:"-"`
	ID       string    `json:"id"`
	N        int       `json:"n"`
	At       time.Time `json:"at"`
	By       wire.Any  `json:"by"`
}

func TestItemsSkipsAloneAndKeepsRaw(t *testing.T) {
	body := []byte(`{"items":[{"id":"a","n":1,"by":"ana","new":true},{"id":"b","n":"two"},{"id":"c","at":"yesterday"},7,{"id":"d","by":{"id":"u1","name":"Ben"}}]}`)
	var page struct {
		Items wire.Items[rec] `json:"items"`
	}
	if err := json.Unmarshal(body, &page); err != nil {
		t.Fatal(err)
	}
	got := page.Items
	if len(got.Items) != 2 || got.Items[0].ID != "a" || got.Items[1].ID != "d" {
		t.Fatalf("items %+v", got.Items)
	}
	if len(got.Skipped) != 3 {
		t.Fatalf("skipped %+v", got.Skipped)
	}
	for i, want := range []string{"n:", "at:", "an object"} {
		if !strings.Contains(got.Skipped[i].Reason, want) && !strings.Contains(got.Skipped[i].String(), want) {
			t.Errorf("skip %d %q does not say %q", i, got.Skipped[i], want)
		}
	}
	if got.Skipped[0].ID != "b" || got.Skipped[0].Index != 1 || got.Skipped[2].ID != "" {
		t.Errorf("skips %+v", got.Skipped)
	}
	// The raw JSON is the record's own copy, unknown fields included.
	raw := got.Items[0].RawJSON()
	if !strings.Contains(string(raw), `"new":true`) {
		t.Fatalf("raw %s", raw)
	}
	for i := range body {
		body[i] = 'x'
	}
	if !strings.Contains(string(raw), `"new":true`) {
		t.Fatal("the raw JSON points into the response buffer")
	}
	if got.Items[0].By.Text() != "ana" || got.Items[1].By.Text() != "Ben" {
		t.Fatalf("by %q %q", got.Items[0].By.Text(), got.Items[1].By.Text())
	}
}

func TestItemsShapes(t *testing.T) {
	var l wire.Items[rec]
	for _, ok := range []string{`null`, `[]`, ` [ ] `} {
		if err := json.Unmarshal([]byte(ok), &l); err != nil || len(l.Items) != 0 {
			t.Errorf("%s: %v %+v", ok, err, l)
		}
	}
	for _, bad := range []string{`{}`, `"x"`, `3`} {
		if err := json.Unmarshal([]byte(bad), &l); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
	b, _ := json.Marshal(wire.Of(rec{ID: "z"}))
	if !strings.HasPrefix(string(b), `[{"id":"z"`) {
		t.Errorf("marshal %s", b)
	}
}

func TestAnyText(t *testing.T) {
	for raw, want := range map[string]string{`"s"`: "s", `null`: "", `12.5`: "12.5", `true`: "true",
		`{"id":"u1"}`: "u1", `[1, 2]`: "[1,2]", `{"x": {"y": 1}}`: `{"x":{"y":1}}`} {
		var a wire.Any
		if err := json.Unmarshal([]byte(raw), &a); err != nil || a.Text() != want {
			t.Errorf("%s: %q, %v; want %q", raw, a.Text(), err, want)
		}
	}
	var a wire.Any
	json.Unmarshal([]byte(`"true"`), &a)
	if !a.Bool() || wire.String("no").Bool() {
		t.Error("Bool")
	}
}

func TestSkipsCollector(t *testing.T) {
	wire.Note(context.Background(), "x", []wire.Skip{{}}) // no collector: nothing happens
	ctx, s := wire.WithSkips(context.Background())
	for range 30 {
		wire.Note(ctx, "quotes", []wire.Skip{{ID: "q", Reason: "bad"}})
	}
	if s.Count() != 30 || len(s.List()) != 20 || s.List()[0].What != "quotes" {
		t.Fatalf("count %d list %d", s.Count(), len(s.List()))
	}
	if got := wire.Summary(s.Count(), s.List()); !strings.HasPrefix(got, "30 records could not be read") {
		t.Fatalf("summary %q", got)
	}
	wire.NoteUnlisted(ctx, 970) // a decoder that listed its first skips only
	wire.NoteUnlisted(context.Background(), 5)
	if s.Count() != 1000 || len(s.List()) != 20 {
		t.Fatalf("after unlisted skips: count %d list %d", s.Count(), len(s.List()))
	}
}
