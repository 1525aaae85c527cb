package reporting

import (
	"errors"
	"fmt"
	"strings"
)

// Download is a downloaded report: Report is the record it was downloaded
// by (with its download link when the server gave one), Raw the content
// exactly as received, for saving to a file; Rows is the content parsed by
// the report's type and format (nil when it could not be read at all; its
// Skipped says which rows could not be read).
type Download struct {
	Report Report
	Raw    []byte
	Rows   *Rows
	// Unreadable, when set, is why the content could not be read at all
	// (Rows is nil): set by a reader that keeps such a download as its
	// answer (Download returns it beside the error).
	Unreadable error
}

// FileName suggests a file name for the report as downloaded:
// <type>_<start>_<end>_<id>.<csv|json>, dates as YYYY-MM-DD.
func (d *Download) FileName() string {
	ext := strings.ToLower(d.Report.Format)
	if ext != "csv" && ext != "json" {
		ext = "dat"
	}
	id := d.Report.ID
	clean := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r == '-' || r == '_' || (r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') {
				return r
			}
			return -1
		}, s)
	}
	return fmt.Sprintf("%s_%s_%s_%s.%s", clean(d.Report.Type), d.Report.StartDate.UTC().Format("2006-01-02"),
		d.Report.EndDate.UTC().Format("2006-01-02"), clean(id), ext)
}

// ErrNotReady is returned, without a download, for a report whose status
// is PENDING: it is still being generated (the month to date is normally
// available at 00:01 UTC, spec 2.4). Other statuses are tried: the service
// decides.
var ErrNotReady = errors.New("reporting: the report is still being generated")
