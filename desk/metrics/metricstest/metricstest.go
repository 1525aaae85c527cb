// Package metricstest reads a metrics endpoint as Prometheus does, with
// its own text parser (github.com/prometheus/common/expfmt), for tests:
// scrape, look a value up by name and labels, list every label value.
package metricstest

import (
	"io"
	"net/http"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// Families are the metric families of one scrape, by name.
type Families = map[string]*dto.MetricFamily

// Parse reads the text exposition format.
func Parse(r io.Reader) (Families, error) {
	p := expfmt.NewTextParser(model.UTF8Validation)
	return p.TextToMetricFamilies(r)
}

// Scrape GETs url (a /metrics endpoint) and parses its answer; it fails
// tb on an error, a status other than 200 or a format that is not text.
func Scrape(tb testing.TB, url string) Families {
	tb.Helper()
	resp, err := http.Get(url)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		tb.Fatalf("GET %s: %s", url, resp.Status)
	}
	if got := expfmt.ResponseFormat(resp.Header); got.FormatType() != expfmt.TypeTextPlain {
		tb.Fatalf("GET %s: format %s, want text", url, got)
	}
	fams, err := Parse(resp.Body)
	if err != nil {
		tb.Fatalf("GET %s: Prometheus's parser: %v", url, err)
	}
	return fams
}

// Value is the sum, over the series of family name whose labels include
// labels, of their values: a counter's or gauge's value, a histogram's
// or summary's count of observations. ok is false when no series
// matches.
func Value(fams Families, name string, labels map[string]string) (v float64, ok bool) {
	f := fams[name]
	if f == nil {
		return 0, false
	}
	for _, m := range f.GetMetric() {
		if !has(m, labels) {
			continue
		}
		ok = true
		switch {
		case m.Counter != nil:
			v += m.Counter.GetValue()
		case m.Gauge != nil:
			v += m.Gauge.GetValue()
		case m.Histogram != nil:
			v += float64(m.Histogram.GetSampleCount())
		case m.Summary != nil:
			v += float64(m.Summary.GetSampleCount())
		case m.Untyped != nil:
			v += m.Untyped.GetValue()
		}
	}
	return v, ok
}

// Sum is the sum of the observations of histogram name's series whose
// labels include labels.
func Sum(fams Families, name string, labels map[string]string) float64 {
	var s float64
	for _, m := range fams[name].GetMetric() {
		if has(m, labels) && m.Histogram != nil {
			s += m.Histogram.GetSampleSum()
		}
	}
	return s
}

func has(m *dto.Metric, labels map[string]string) bool {
	for k, want := range labels {
		found := false
		for _, l := range m.GetLabel() {
			if l.GetName() == k && l.GetValue() == want {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// Label is one label value of a series, where it was found.
type Label struct {
	Family, Name, Value string
}

// Labels lists every label value of every series of fams.
func Labels(fams Families) []Label {
	var out []Label
	for name, f := range fams {
		for _, m := range f.GetMetric() {
			for _, l := range m.GetLabel() {
				out = append(out, Label{Family: name, Name: l.GetName(), Value: l.GetValue()})
			}
		}
	}
	return out
}
