package live

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// BenchmarkChangeWithUnwatchedKeys: a change of a topic with 100
// derivations built from it, watched (built at each change) or watched by
// nobody (paused: a change costs them nothing), against none at all.
func BenchmarkChangeWithUnwatchedKeys(b *testing.B) {
	for _, c := range []struct {
		name  string
		n     int
		pause bool
	}{{"none", 0, false}, {"built=100", 100, false}, {"paused=100", 100, true}} {
		b.Run(c.name, func(b *testing.B) {
			v := []string{"a"}
			k := KeyOf[[]string]("list")
			st := New(Options{Inline: true, Idle: time.Minute, Feeds: []Feed{
				ListFeed(k, func(s string) string { return s }, func(context.Context) ([]string, error) { return v, nil },
					FeedOptions[[]string, []string]{Interval: time.Hour})}})
			defer st.Close()
			builds := 0
			for i := range c.n {
				Derive(st, k, fmt.Sprint("d", i), func(_ int, in Snap[[]string]) int { builds++; return len(in.Data) })
			}
			st.FetchNow(context.Background(), "list")
			if c.pause {
				st.PauseUnused(time.Now().Add(time.Hour))
			}
			builds = 0
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				i++
				v = []string{fmt.Sprint(i)} // a change each fetch
				st.FetchNow(context.Background(), "list")
			}
			b.ReportMetric(float64(builds)/float64(b.N), "builds/op")
		})
	}
}
