package ui

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"treasury/ui/uitest"
)

// rawView is a list whose records are held without their JSON: y reads
// it again (RawReader), answering with what the view was told to.
type rawView struct {
	listView
	answer RawRecord
	asked  []string
}

func (v *rawView) ReadRaw(id string, _ any) tea.Cmd {
	v.asked = append(v.asked, id)
	ans := v.answer
	ans.ID = id
	return func() tea.Msg { return ans }
}

// TestRawViewReadsAgain: y on a record held without its JSON says it is
// being read, then shows the JSON as the platform sent it (sanitized),
// saying it was read again; a read that failed shows the record as held
// and why; an answer for a raw view closed, or now of another record, is
// dropped.
func TestRawViewReadsAgain(t *testing.T) {
	v := &rawView{listView: listView{name: "alpha", rows: []string{"pay-1", "pay-2"}},
		answer: RawRecord{JSON: json.RawMessage(`{"paymentId":"pay-1","memo":"evil\u001b[2Jtext"}`), Source: "GET /v3/payments/{id}"}}
	a := NewApp(testContext("test", false), v)
	a.Update(tea.WindowSizeMsg{Width: 100, Height: 30})
	_, cmd := a.Update(uitest.Key("y"))
	if a.overlay != rawOverlay || !strings.Contains(a.raw.view(), "reading the record as the platform sends it") || cmd == nil {
		t.Fatalf("while reading: %q", a.raw.view())
	}
	a.Update(cmd())
	got := a.raw.view()
	if !strings.Contains(got, "as received, read again now (GET /v3/payments/{id})") || !strings.Contains(got, `"paymentId": "pay-1"`) ||
		strings.Contains(got, "\x1b[2J") {
		t.Fatalf("after the read: %q", got)
	}

	v.answer = RawRecord{Err: errors.New("HTTP 503 \x1b[31mbusy"), Source: "GET /v3/payments/{id}"}
	a.overlay = noOverlay
	_, cmd = a.Update(uitest.Key("y"))
	a.Update(cmd())
	got = a.raw.view()
	if !strings.Contains(got, "as held: read again from the platform (GET /v3/payments/{id}) it could not be: HTTP 503") ||
		!strings.Contains(got, `"id": "pay-1"`) || strings.Contains(got, "\x1b[31m") {
		t.Fatalf("after a failed read: %q", got)
	}

	a.Update(uitest.Key("y")) // closes
	_, cmd = a.Update(uitest.Key("y"))
	a.Update(uitest.Key("esc"))
	a.Update(cmd()) // the answer comes after the view closed
	if a.overlay == rawOverlay {
		t.Fatal("an answer reopened a closed raw view")
	}
	if len(v.asked) != 3 {
		t.Fatalf("read %d times", len(v.asked))
	}
}
