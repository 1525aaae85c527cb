package reportsim

import (
	"time"

	"treasury/sandbox/internal/simkit"
	"treasury/wire/reporting"
)

// readyAfter is how long after its generation at 00:00 UTC a report is
// available (spec 2.4: normally at 00:01 UTC).
const readyAfter = time.Minute

// entry is one report of the catalog. Its period is [start, end): the
// record's end_date is the last millisecond included (2.4: inclusive).
// gen is when it was generated; its rows are the world as of gen.
type entry struct {
	id, typ, format string
	start, end, gen time.Time
	ready           bool
}

// record is the wire record; link is empty in the list.
func (e entry) record(link string) reporting.Report {
	status := reporting.StatusPending
	if e.ready {
		status = reporting.StatusReady
	}
	return reporting.Report{
		ID: e.id, Type: e.typ, Format: e.format, Status: status,
		StartDate: e.start, EndDate: e.end.Add(-time.Millisecond), DownloadLink: link,
	}
}

// period is a report period [start, end) generated at gen.
type period struct{ start, end, gen time.Time }

// periods are the report periods at now, newest first: the month to date
// (from the first of the month to 00:00 UTC today, absent on the first day
// of a month, when it would be empty) and the two full months before it.
func periods(now time.Time) []period {
	now = now.UTC()
	y, m, d := now.Date()
	today := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	month := time.Date(y, m, 1, 0, 0, 0, 0, time.UTC)
	prev := month.AddDate(0, -1, 0)
	var out []period
	if today.After(month) {
		out = append(out, period{start: month, end: today, gen: today})
	}
	return append(out,
		period{start: prev, end: month, gen: month},
		period{start: prev.AddDate(0, -1, 0), end: prev, gen: prev})
}

// Report types and formats, in the catalog's order.
var (
	types   = [...]string{reporting.TypePaymentOps, reporting.TypeRecon}
	formats = [...]string{reporting.FormatCSV, reporting.FormatJSON}
)

// catalog lists the reports at now: every period in each type and format.
func (s *Sim) catalog(now time.Time) []entry {
	ps := periods(now)
	out := make([]entry, 0, len(ps)*len(types)*len(formats))
	for _, p := range ps {
		for _, t := range types {
			for _, f := range formats {
				out = append(out, entry{
					id:  reportID(s.env.Seed, t, f, p),
					typ: t, format: f, start: p.start, end: p.end, gen: p.gen,
					ready: !now.Before(p.gen.Add(readyAfter)),
				})
			}
		}
	}
	return out
}

// reportID is stable for a seed, type, format and period: the month-to-date
// report gets a new id each day, as it is a new report.
func reportID(seed uint64, typ, format string, p period) string {
	return simkit.UUIDOf(seed, simkit.Key("report"), simkit.Key(typ), simkit.Key(format),
		uint64(p.start.UnixMilli()), uint64(p.end.UnixMilli()))
}
