// Package client speaks to the reporting interface (spec area C): the
// reports of the last two months, one by id, and their download through
// the link the interface gives, checked and parsed into rows. The wire
// records and the rows are those of package reporting, which the sandbox
// and the views use without a client.
package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"treasury/wire/apierr"
	"treasury/wire/reporting"
	"treasury/wire/transport"
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
func (c *Client) List(ctx context.Context) ([]reporting.Report, error) {
	out, err := c.ListRecords(ctx)
	if err != nil {
		return nil, err
	}
	return out.Reports, nil
}

// ListRecords is List with the records that could not be read (Skipped),
// each with its place in the list, its id when it has one, and why.
func (c *Client) ListRecords(ctx context.Context) (reporting.ReportList, error) {
	return transport.Get[reporting.ReportList](ctx, c.t, reporting.PathReports, nil)
}

// Get returns one report record, with its download link when it is READY.
func (c *Client) Get(ctx context.Context, id string) (reporting.Report, error) {
	if err := checkID(id); err != nil {
		return reporting.Report{}, err
	}
	return transport.Get[reporting.Report](ctx, c.t, reporting.PathReports+"/"+transport.PathEscape(id), nil)
}

// Download fetches the content of rep (a record from List or Get: its type
// and format say how to parse it) and parses it. The content comes from
// the record's download_link; a record without one (List gives none) is
// read again with Get for its link, and only when the server gives none
// is the path guessed (PathDownload). An empty content (or a 204) is a
// report without rows; rows that cannot be read are skipped
// (Rows.Skipped). When the content cannot be read at all, the Download is
// still returned, with Raw and a nil Rows, beside the *ParseError, so the
// file can be saved and inspected.
func (c *Client) Download(ctx context.Context, rep reporting.Report) (*reporting.Download, error) {
	if err := checkID(rep.ID); err != nil {
		return nil, err
	}
	if rep.Status == reporting.StatusPending {
		return nil, fmt.Errorf("report %s: %w", rep.ID, reporting.ErrNotReady)
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
func (c *Client) DownloadByID(ctx context.Context, id string) (*reporting.Download, error) {
	rep, err := c.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	return c.fetch(ctx, rep)
}

// fresher is the record got from Get, completed with what the record held
// had that got lacks.
func fresher(held, got reporting.Report) reporting.Report {
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
func (c *Client) fetch(ctx context.Context, rep reporting.Report) (*reporting.Download, error) {
	if rep.Status == reporting.StatusPending {
		return nil, fmt.Errorf("report %s: %w", rep.ID, reporting.ErrNotReady)
	}
	req := transport.Request{Method: http.MethodGet, Header: http.Header{"Accept": {accept(rep.Format)}}}
	if rep.DownloadLink != "" {
		req.URL = rep.DownloadLink
	} else {
		req.Path = reporting.PathDownload + transport.PathEscape(rep.ID)
	}
	var raw []byte
	if _, err := c.t.Do(ctx, req, &raw); err != nil {
		return nil, err
	}
	d := &reporting.Download{Report: rep, Raw: raw}
	rows, err := reporting.ParseRows(rep.Type, rep.Format, raw)
	if err != nil {
		return d, fmt.Errorf("report %s: %w", rep.ID, err)
	}
	d.Rows = rows
	return d, nil
}

func accept(format string) string {
	if format == reporting.FormatCSV {
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
