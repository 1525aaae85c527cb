package reportsim

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"treasury/sandbox/internal/payworld"
	"treasury/sandbox/internal/simkit"
	"treasury/wire/reporting"
)

func TestPeriods(t *testing.T) {
	d := func(y int, m time.Month, day int) time.Time { return time.Date(y, m, day, 0, 0, 0, 0, time.UTC) }
	for _, c := range []struct {
		now  time.Time
		want []period
	}{
		{time.Date(2026, 11, 16, 9, 30, 0, 0, time.UTC), []period{
			{d(2026, 11, 1), d(2026, 11, 16), d(2026, 11, 16)},
			{d(2026, 10, 1), d(2026, 11, 1), d(2026, 11, 1)},
			{d(2026, 9, 1), d(2026, 10, 1), d(2026, 10, 1)}}},
		{time.Date(2026, 12, 1, 0, 0, 30, 0, time.UTC), []period{ // no month to date on the 1st
			{d(2026, 11, 1), d(2026, 12, 1), d(2026, 12, 1)},
			{d(2026, 10, 1), d(2026, 11, 1), d(2026, 11, 1)}}},
		{time.Date(2027, 1, 31, 23, 59, 0, 0, time.FixedZone("X", -5*3600)), []period{ // Feb 1 in UTC
			{d(2027, 1, 1), d(2027, 2, 1), d(2027, 2, 1)},
			{d(2026, 12, 1), d(2027, 1, 1), d(2027, 1, 1)}}},
		{time.Date(2026, 3, 31, 12, 0, 0, 0, time.UTC), []period{
			{d(2026, 3, 1), d(2026, 3, 31), d(2026, 3, 31)},
			{d(2026, 2, 1), d(2026, 3, 1), d(2026, 3, 1)},
			{d(2026, 1, 1), d(2026, 2, 1), d(2026, 2, 1)}}},
	} {
		got := periods(c.now)
		if len(got) != len(c.want) {
			t.Errorf("periods(%s) = %v, want %v", c.now, got, c.want)
			continue
		}
		for i := range got {
			if !got[i].start.Equal(c.want[i].start) || !got[i].end.Equal(c.want[i].end) || !got[i].gen.Equal(c.want[i].gen) {
				t.Errorf("periods(%s)[%d] = %v, want %v", c.now, i, got[i], c.want[i])
			}
		}
	}
}

func newSim(t *testing.T, history int, faults simkit.FaultSettings) *Sim {
	t.Helper()
	env := &simkit.Env{Seed: 7, Clock: simkit.NewFrozenClock(time.Date(2026, 11, 16, 9, 30, 0, 0, time.UTC)), Faults: simkit.NewFaults(faults)}
	w, err := payworld.New(env, payworld.Options{HistoryPayments: history})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return New(env, nil, w)
}

func fetch(t *testing.T, h http.Handler, path string) (int, []byte) {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	b, _ := io.ReadAll(rec.Result().Body)
	return rec.Code, b
}

// TestHostileRoundTrip: names full of escapes and controls survive CSV and
// JSON alike.
func TestHostileRoundTrip(t *testing.T) {
	s := newSim(t, 300, simkit.FaultSettings{Hostile: true})
	h := s.Handler()
	canon := map[string]map[string]string{} // type -> format -> canonical CSV
	for _, e := range s.catalog(s.env.Clock.Now())[:4] {
		st, body := fetch(t, h, reporting.PathDownload+e.id)
		if st != http.StatusOK {
			t.Fatalf("%s %s: HTTP %d", e.typ, e.format, st)
		}
		rows, err := reporting.ParseRows(e.typ, e.format, body)
		if err != nil {
			t.Fatalf("%s %s: %v", e.typ, e.format, err)
		}
		var b bytes.Buffer
		if e.typ == reporting.TypeRecon {
			err = reporting.WriteReconCSV(&b, rows.Recon)
		} else {
			err = reporting.WritePaymentOpsCSV(&b, rows.PaymentOps)
		}
		if err != nil {
			t.Fatal(err)
		}
		if canon[e.typ] == nil {
			canon[e.typ] = map[string]string{}
		}
		canon[e.typ][e.format] = b.String()
	}
	for typ, m := range canon {
		if m[reporting.FormatCSV] != m[reporting.FormatJSON] {
			t.Errorf("%s: CSV and JSON rows differ", typ)
		}
	}
	for _, frag := range []string{"\x1b]52;", "\r", "\u202e", "\x00"} {
		if !strings.Contains(canon[reporting.TypePaymentOps][reporting.FormatJSON], frag) {
			t.Errorf("no name with %q made it through", frag)
		}
	}
}

func TestEmptyReport(t *testing.T) {
	s := newSim(t, 1, simkit.FaultSettings{})
	h := s.Handler()
	empty := 0
	for _, e := range s.catalog(s.env.Clock.Now()) {
		st, body := fetch(t, h, reporting.PathDownload+e.id)
		switch {
		case st == http.StatusNoContent && len(body) == 0:
			empty++
		case st != http.StatusOK:
			t.Errorf("%s %s: HTTP %d %s", e.typ, e.format, st, body)
		}
	}
	if empty < 8 {
		t.Errorf("%d empty reports of 12 for a world of one payment, want at least 8", empty)
	}
}

func TestNotUUID(t *testing.T) {
	s := newSim(t, 10, simkit.FaultSettings{})
	for _, id := range []string{"x", strings.Repeat("a", 36), "0B8A7C1E-6D0F-4F5E-9A0B-00000000000g"} {
		if st, _ := fetch(t, s.Handler(), reporting.PathReports+"/"+id); st != http.StatusBadRequest {
			t.Errorf("id %q: HTTP %d, want 400", id, st)
		}
	}
	id := strings.ToUpper(s.catalog(s.env.Clock.Now())[0].id)
	if st, _ := fetch(t, s.Handler(), reporting.PathReports+"/"+id); st != http.StatusOK {
		t.Errorf("upper-case id: HTTP %d, want 200", st)
	}
}

// TestLargeReportStreams: a body over cacheMaxBody is streamed, not kept,
// and reads back like the cached CSV of the same report.
func TestLargeReportStreams(t *testing.T) {
	s := newSim(t, 6000, simkit.FaultSettings{})
	h := s.Handler()
	var rows [2]*reporting.Rows
	for _, e := range s.catalog(s.env.Clock.Now()) {
		if e.typ != reporting.TypeRecon || !e.start.Equal(time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC)) {
			continue
		}
		st, body := fetch(t, h, reporting.PathDownload+e.id)
		_, cached := s.cache.get(cacheKey{id: e.id})
		large := len(body) > cacheMaxBody
		if st != http.StatusOK || large == cached || (e.format == reporting.FormatJSON && !large) {
			t.Fatalf("%s: HTTP %d, %d bytes, cached %v", e.format, st, len(body), cached)
		}
		r, err := reporting.ParseRows(e.typ, e.format, body)
		if err != nil {
			t.Fatalf("%s: %v", e.format, err)
		}
		rows[len(e.format)%2] = r // CSV and JSON
	}
	if rows[0] == nil || rows[1] == nil || rows[0].Len() < 2*chunkRows || rows[0].Len() != rows[1].Len() {
		t.Fatalf("rows %v", rows)
	}
	for i := range rows[0].Recon {
		if a, b := rows[0].Recon[i], rows[1].Recon[i]; a.TransactionID != b.TransactionID || !a.BalanceResult.Equal(b.BalanceResult.Decimal()) {
			t.Fatalf("line %d: %+v and %+v", i, a, b)
		}
	}
}

// TestConcurrentDownloads: parallel requests for the same reports get the
// same bytes (run with -race).
func TestConcurrentDownloads(t *testing.T) {
	s := newSim(t, 300, simkit.FaultSettings{})
	h := s.Handler()
	cat := s.catalog(s.env.Clock.Now())
	ref := newSim(t, 300, simkit.FaultSettings{}).Handler() // same seed, its own cache
	want := make([][]byte, len(cat))
	for i, e := range cat {
		_, want[i] = fetch(t, ref, reporting.PathDownload+e.id)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8*len(cat))
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, e := range cat {
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, reporting.PathDownload+e.id, nil))
				if rec.Code != http.StatusOK || !bytes.Equal(rec.Body.Bytes(), want[i]) {
					errs <- e.typ + " " + e.format
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Errorf("%s: a concurrent download differs", e)
	}
}
