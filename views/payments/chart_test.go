package paymentsview

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"treasury/data/live"
	"treasury/data/payments"
	"treasury/ui"
)

// TestStateChartSpansTheHistoryItNames: with two hours of counts held, the
// chart drew the last points that fit its width (36 minutes) under the
// title "last 24 h". It draws the whole history held, every state in the
// same time slots (a state first counted an hour later starts halfway),
// and its title says how long that is.
func TestStateChartSpansTheHistoryItNames(t *testing.T) {
	t0 := time.Date(2026, 11, 25, 9, 37, 0, 0, time.UTC)
	now := t0
	k := live.KeyOf[int]("test-counts")
	st := live.New(live.Options{Inline: true, Now: func() time.Time { return now }, Feeds: []live.Feed{
		live.ValueFeed(k, func(context.Context) (int, error) { return int(now.Sub(t0) / time.Minute), nil },
			live.FeedOptions[int, int]{Interval: time.Hour, Samples: func(n, _ int) []live.Sample {
				out := []live.Sample{{Series: live.SeriesStateCount + "INITIATED", At: now, Value: float64(n % 7)}}
				if n >= 60 {
					out = append(out, live.Sample{Series: live.SeriesStateCount + "FAILED", At: now, Value: float64(n)})
				}
				return out
			}}),
	}})
	for i := 0; i <= 120; i++ {
		now = t0.Add(time.Duration(i) * time.Minute)
		st.FetchNow(context.Background(), k.Topic())
	}
	r := lipgloss.NewRenderer(io.Discard, termenv.WithProfile(termenv.Ascii))
	ctx := &ui.Context{Renderer: r, Theme: ui.NewTheme(r), Store: st, Now: func() time.Time { return now }}
	const w, sparkW = 60, 60 - (payments.StateWidth + 1) - 7 - 2
	out := drawStateChart(ctx, w, 10)
	lines := strings.Split(out, "\n")
	if !strings.Contains(lines[0], "last 24h window, 2h held") {
		t.Errorf("title %q: two hours are held of the 24 hours' window", lines[0])
	}
	spark := func(state string) []rune {
		for _, l := range lines {
			if strings.HasPrefix(l, state+" ") {
				r := []rune(l)
				return r[len(r)-sparkW:]
			}
		}
		t.Fatalf("no line for %s in\n%s", state, out)
		return nil
	}
	blanks := func(r []rune) int { return len(r) - len([]rune(strings.TrimLeft(string(r), " "))) }
	if n := blanks(spark("INITIATED")); n != 0 {
		t.Errorf("INITIATED, counted from the start, begins with %d blank columns:\n%s", n, out)
	}
	if n := blanks(spark("FAILED")); n < sparkW/2-2 || n > sparkW/2+2 {
		t.Errorf("FAILED, counted from the middle of the history, begins with %d blank columns of %d:\n%s", n, sparkW, out)
	}
}
