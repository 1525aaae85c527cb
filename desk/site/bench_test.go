package site

import (
	"context"
	"testing"

	"treasury/desk/audit"
)

// BenchmarkSiteAppend is one audit append through a one-node site (an
// embedded node, its record a stream on disk): the cost an action adds
// over the local file alone (audit's BenchmarkAppend).
func BenchmarkSiteAppend(b *testing.B) {
	s := oneNode(b)
	l, err := audit.Open(b.TempDir(), audit.Options{Host: "bench", Replica: s.Record()})
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	r := attempt("w1")
	for b.Loop() {
		if _, err := l.Append(r); err != nil {
			b.Fatal(err)
		}
	}
	st, _ := s.Record().stream(context.Background())
	info, _ := st.Info(context.Background())
	b.ReportMetric(float64(info.State.Bytes)/float64(info.State.Msgs), "B/line")
}

// BenchmarkSiteCatchUp is a host copying 1,000 lines other hosts appended
// (a bastion back after a restart).
func BenchmarkSiteCatchUp(b *testing.B) {
	s := oneNode(b)
	w, err := audit.Open(b.TempDir(), audit.Options{Host: "writer", Replica: s.Record()})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	for range 1000 {
		if _, err := w.Append(attempt("w1")); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		l, err := audit.Open(b.TempDir(), audit.Options{Host: "reader", Replica: s.Record()})
		if err != nil {
			b.Fatal(err)
		}
		if err := l.Pull(); err != nil || l.State().LastSeq != 1000 {
			b.Fatalf("pulled to %d: %v", l.State().LastSeq, err)
		}
		l.Close()
	}
}
