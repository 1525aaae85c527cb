package reporting

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"treasury/data/apierr"
	"treasury/data/transport"
)

// Client calls the reporting interface. Build its transport with the
// reporting base URL ({reporting_url}), interface apierr.Reporting and the
// payments token source (auth.NewPayments): the reporting interface takes
// the payments bearer token (spec 5.1).
type Client struct {
	t *transport.Client
}

// New returns a client over t.
func New(t *transport.Client) *Client { return &Client{t: t} }

// MaxDownload is the body limit NewClient sets when cfg.MaxBody is zero: a
// month-to-date RECON report in JSON of a busy organization runs to tens of
// megabytes (about 3 kB per payment).
const MaxDownload = 256 << 20

// NewClient builds the transport from cfg (its Interface is set to
// reporting, its MaxBody to MaxDownload when zero) and returns a client.
func NewClient(cfg transport.Config) (*Client, error) {
	cfg.Interface = apierr.Reporting
	if cfg.MaxBody == 0 {
		cfg.MaxBody = MaxDownload
	}
	t, err := transport.New(cfg)
	if err != nil {
		return nil, err
	}
	return New(t), nil
}

// List returns the reports available (the previous two months and the
// month to date, in each type and format), without download links. A
// record that cannot be read is left out: ListRecords says which.
func (c *Client) List(ctx context.Context) ([]Report, error) {
	out, err := c.ListRecords(ctx)
	if err != nil {
		return nil, err
	}
	return out.Reports, nil
}

// ListRecords is List with the records that could not be read (Skipped),
// each with its place in the list, its id when it has one, and why.
func (c *Client) ListRecords(ctx context.Context) (ReportList, error) {
	return transport.Get[ReportList](ctx, c.t, PathReports, nil)
}

// Get returns one report record, with its download link when it is READY.
func (c *Client) Get(ctx context.Context, id string) (Report, error) {
	if err := checkID(id); err != nil {
		return Report{}, err
	}
	return transport.Get[Report](ctx, c.t, PathReports+"/"+transport.PathEscape(id), nil)
}

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

// Download fetches the content of rep (a record from List or Get: its type
// and format say how to parse it) and parses it. The content comes from
// the record's download_link; a record without one (List gives none) is
// read again with Get for its link, and only when the server gives none
// is the path guessed (PathDownload). An empty content (or a 204) is a
// report without rows; rows that cannot be read are skipped
// (Rows.Skipped). When the content cannot be read at all, the Download is
// still returned, with Raw and a nil Rows, beside the *ParseError, so the
// file can be saved and inspected.
func (c *Client) Download(ctx context.Context, rep Report) (*Download, error) {
	if err := checkID(rep.ID); err != nil {
		return nil, err
	}
	if rep.Status == StatusPending {
		return nil, fmt.Errorf("report %s: %w", rep.ID, ErrNotReady)
	}
	if rep.DownloadLink == "" {
		got, err := c.Get(ctx, rep.ID)
		if err != nil {
			return nil, err
		}
		rep = fresher(rep, got)
	}
	return c.fetch(ctx, rep)
}

// DownloadByID gets the report record of id, then downloads it.
func (c *Client) DownloadByID(ctx context.Context, id string) (*Download, error) {
	rep, err := c.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	return c.fetch(ctx, rep)
}

// fresher is the record got from Get, completed with what the record held
// had that got lacks.
func fresher(held, got Report) Report {
	keep := func(dst *string, v string) {
		if *dst == "" {
			*dst = v
		}
	}
	keep(&got.ID, held.ID)
	keep(&got.Type, held.Type)
	keep(&got.Format, held.Format)
	keep(&got.Status, held.Status)
	if got.StartDate.IsZero() {
		got.StartDate = held.StartDate
	}
	if got.EndDate.IsZero() {
		got.EndDate = held.EndDate
	}
	return got
}

// fetch downloads the content of rep from its link, or from the guessed
// path when it has none, and parses it.
func (c *Client) fetch(ctx context.Context, rep Report) (*Download, error) {
	if rep.Status == StatusPending {
		return nil, fmt.Errorf("report %s: %w", rep.ID, ErrNotReady)
	}
	req := transport.Request{Method: http.MethodGet, Header: http.Header{"Accept": {accept(rep.Format)}}}
	if rep.DownloadLink != "" {
		req.URL = rep.DownloadLink
	} else {
		req.Path = PathDownload + transport.PathEscape(rep.ID)
	}
	var raw []byte
	if _, err := c.t.Do(ctx, req, &raw); err != nil {
		return nil, err
	}
	d := &Download{Report: rep, Raw: raw}
	rows, err := ParseRows(rep.Type, rep.Format, raw)
	if err != nil {
		return d, fmt.Errorf("report %s: %w", rep.ID, err)
	}
	d.Rows = rows
	return d, nil
}

func accept(format string) string {
	if format == FormatCSV {
		return "text/csv, application/json;q=0.5, */*;q=0.1"
	}
	return "application/json, */*;q=0.1"
}

func checkID(id string) error {
	if strings.TrimSpace(id) == "" {
		return errors.New("reporting: a report id is required")
	}
	return nil
}
