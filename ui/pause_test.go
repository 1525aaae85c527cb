package ui

import (
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"treasury/ui/uitest"
)

// liveView draws a figure it reads at every render, as the overview reads
// the store: what a pause must hold still.
type liveView struct {
	listView
	figure  *int
	changed int // StoreChanged received
}

func (v *liveView) Update(msg tea.Msg) tea.Cmd {
	if _, ok := msg.(StoreChanged); ok {
		v.changed++
	}
	return v.listView.Update(msg)
}

func (v *liveView) Render(w, h int) string { return "figure " + strconv.Itoa(*v.figure) }

// TestPauseHoldsWhatIsShown: p holds the body and the ages however the
// data moves and the clock ticks, and says since when; a key draws what
// the person asked for; r shows the next news once and moves the time
// said; p again resumes.
func TestPauseHoldsWhatIsShown(t *testing.T) {
	ctx := testContext("test", false)
	now := time.Date(2026, 11, 16, 9, 30, 0, 0, time.UTC)
	ctx.Now = func() time.Time { return now }
	figure := 1
	v := &liveView{listView: listView{name: "alpha", rows: []string{"a-1"}}, figure: &figure}
	a := NewApp(ctx, v)
	a.Update(tea.WindowSizeMsg{Width: 100, Height: 20})
	body := func() string { return strings.Split(a.Frame(), "\n")[3] }
	header := func() string { return strings.Split(a.Frame(), "\n")[0] }
	if body() != "figure 1" {
		t.Fatalf("body %q", body())
	}
	a.Update(uitest.Key("p"))
	if !strings.Contains(header(), "PAUSED at 09:30:00 (p)") {
		t.Fatalf("header %q", header())
	}
	figure, now = 2, now.Add(7*time.Second)
	a.Update(Tick{Now: now})
	a.Update(StoreChanged{})
	if body() != "figure 1" || v.changed != 0 || ctx.Shown().Equal(now) {
		t.Fatalf("paused: body %q, %d store changes, ages at %v", body(), v.changed, ctx.Shown())
	}
	a.Update(uitest.Key("j")) // the person acts: what they see is drawn
	if body() != "figure 2" {
		t.Fatalf("after a key: %q", body())
	}
	figure = 3
	a.Update(uitest.Key("r"))
	a.Update(StoreChanged{}) // the refresh's news, shown once
	if body() != "figure 3" || v.changed != 1 || !strings.Contains(header(), "PAUSED at 09:30:07") {
		t.Fatalf("after r: body %q, %d changes, header %q", body(), v.changed, header())
	}
	figure = 4
	a.Update(StoreChanged{})
	if body() != "figure 3" || v.changed != 1 {
		t.Fatalf("after r's news: %q, %d changes", body(), v.changed)
	}
	a.Update(uitest.Key("p"))
	if body() != "figure 4" || v.changed != 2 || strings.Contains(header(), "PAUSED") {
		t.Fatalf("resumed: %q, %d changes, %q", body(), v.changed, header())
	}
}
