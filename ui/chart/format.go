package chart

import (
	"math"
	"strconv"
	"strings"
)

// yFormat formats Y axis values with as many decimals as the label spacing
// needs, so neighbouring labels differ: rates keep their precision
// (17.0213) and large balances are shown in thousands, millions or
// billions (12.5k, 1.25M, 3.2B) to keep the axis narrow.
type yFormat struct {
	div    float64
	suffix string
	dec    int
}

// newYFormat chooses the format for values in [lo, hi] drawn over rows rows
// with a label every step rows.
func newYFormat(lo, hi float64, rows, step int) yFormat {
	f := yFormat{div: 1}
	switch a := max(math.Abs(lo), math.Abs(hi)); {
	case a >= 1e9:
		f.div, f.suffix = 1e9, "B"
	case a >= 1e6:
		f.div, f.suffix = 1e6, "M"
	case a >= 1e4:
		f.div, f.suffix = 1e3, "k"
	}
	spacing := (hi - lo) / float64(max(rows, 1)) * float64(max(step, 1)) / f.div
	if spacing > 0 && spacing < 1 {
		f.dec = int(math.Ceil(-math.Log10(spacing)))
	}
	if spacing < 10 {
		f.dec++ // one digit more than the spacing needs: 1.5B, not 2B
	}
	if f.div == 1 {
		f.dec = max(f.dec, 2) // plain values (rates, small balances): cents at least
	}
	f.dec = min(f.dec, 8)
	return f
}

// label is a linechart.LabelFormatter.
func (f yFormat) label(_ int, v float64) string {
	s := strconv.FormatFloat(v/f.div, 'f', f.dec, 64)
	if strings.HasPrefix(s, "-") && strings.Trim(s, "-0.") == "" {
		s = s[1:] // no "-0.00"
	}
	return s + f.suffix
}
