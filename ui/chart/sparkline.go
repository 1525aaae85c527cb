package chart

import (
	"math"
	"strings"

	"github.com/charmbracelet/lipgloss"

	"treasury/data/live"
)

// sparkBase is the lowest of the eight sparkline levels ▁▂▃▄▅▆▇█, which
// are consecutive code points.
const sparkBase = '▁'

// Sparkline returns a one-line sparkline of the last width points of pts,
// scaled between their minimum and maximum, styled with st (which should set
// colours only). When there are fewer points than width it is padded on the
// left with spaces, so the newest point is always at the right edge; the
// result is always width cells wide. A flat series is drawn at mid height
// and NaN or infinite values as gaps.
func Sparkline(pts []live.Point, width int, st lipgloss.Style) string {
	if width <= 0 {
		return ""
	}
	if len(pts) > width {
		pts = pts[len(pts)-width:]
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range pts {
		if ok(p.Value) {
			lo, hi = min(lo, p.Value), max(hi, p.Value)
		}
	}
	var sb strings.Builder
	sb.Grow(len(pts) * 3)
	for _, p := range pts {
		switch {
		case !ok(p.Value):
			sb.WriteByte(' ')
		case hi == lo:
			sb.WriteRune(sparkBase + 3)
		default:
			i := int(math.Round((p.Value - lo) / (hi - lo) * 7))
			sb.WriteRune(sparkBase + rune(min(max(i, 0), 7)))
		}
	}
	pad := strings.Repeat(" ", width-len(pts))
	if len(pts) == 0 {
		return pad
	}
	return pad + st.Render(sb.String())
}

func ok(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
