package reportsim

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"sync"

	"treasury/sandbox/internal/payworld"
	"treasury/wire/reporting"
)

// Bodies up to cacheMaxBody are generated in memory and cached (a report
// never changes once generated); larger ones, which a long-running or
// accelerated sandbox makes for the month to date, are streamed as they are
// generated and not kept. At most cacheLimit bodies are kept: the catalog
// holds 12 reports, twice over for the hostile-strings fault.
const (
	cacheMaxBody = 4 << 20
	cacheLimit   = 24
	chunkRows    = 256
)

// cacheKey names a generated body: the report and whether hostile strings
// were on (they change names in the rows).
type cacheKey struct {
	id      string
	hostile bool
}

type cache struct {
	mu sync.Mutex
	m  map[cacheKey][]byte
}

func newCache() *cache { return &cache{m: map[cacheKey][]byte{}} }

func (c *cache) get(k cacheKey) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.m[k]
	return b, ok
}

func (c *cache) put(k cacheKey, b []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= cacheLimit {
		clear(c.m)
	}
	c.m[k] = b
}

// serveContent writes the body of report e: CSV with a header row, or a
// JSON array of row objects, one per line; 204 when it has no rows.
func (s *Sim) serveContent(w http.ResponseWriter, e entry) {
	k := cacheKey{id: e.id, hostile: s.env.Faults != nil && s.env.Faults.Hostile()}
	start := func() {
		ct, ext := "application/json", "json"
		if e.format == reporting.FormatCSV {
			ct, ext = "text/csv; charset=utf-8", "csv"
		}
		w.Header().Set("Content-Type", ct)
		w.Header().Set("Content-Disposition", `attachment; filename="`+e.typ+"_"+e.start.Format("2006-01-02")+"_"+e.id+"."+ext+`"`)
		w.WriteHeader(http.StatusOK)
	}
	body, ok := s.cache.get(k)
	if !ok {
		out := &spill{w: w, start: start}
		if err := s.generate(e, out); err != nil || out.streaming {
			if err != nil {
				s.env.Log("reportsim: report %s: %v", e.id, err)
			}
			return
		}
		body = out.buf.Bytes()
		s.cache.put(k, body)
	}
	if len(body) == 0 {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	start()
	w.Write(body)
}

// spill buffers a body until it passes cacheMaxBody, then starts the
// response and streams the rest.
type spill struct {
	w         io.Writer
	start     func()
	buf       bytes.Buffer
	streaming bool
}

func (s *spill) Write(p []byte) (int, error) {
	if s.streaming {
		return s.w.Write(p)
	}
	s.buf.Write(p)
	if s.buf.Len() <= cacheMaxBody {
		return len(p), nil
	}
	s.start()
	s.streaming = true
	_, err := s.w.Write(s.buf.Bytes())
	s.buf = bytes.Buffer{}
	return len(p), err
}

// generate writes the body of e, built from the world as of its
// generation, to out in chunks of rows; nothing when it has no rows.
func (s *Sim) generate(e entry, out io.Writer) error {
	enc := &encoder{typ: e.typ, format: e.format, out: out}
	s.world.ForEachPayment(e.start, e.end, e.gen, func(v payworld.PaymentView) bool {
		if e.typ == reporting.TypeRecon {
			enc.recon = append(enc.recon, s.reconRows(v)...)
		} else {
			enc.ops = append(enc.ops, s.opsRow(v))
		}
		if len(enc.ops)+len(enc.recon) >= chunkRows {
			enc.flush()
		}
		return enc.err == nil
	})
	enc.flush()
	if enc.err == nil && enc.rows > 0 && e.format == reporting.FormatJSON {
		_, enc.err = io.WriteString(out, "\n]\n")
	}
	return enc.err
}

// encoder writes rows in chunks: the CSV header once, the JSON array
// brackets around all rows.
type encoder struct {
	typ, format string
	out         io.Writer
	ops         []reporting.PaymentOpsRow
	recon       []reporting.ReconRow
	rows        int
	err         error
}

func (c *encoder) flush() {
	n := len(c.ops) + len(c.recon)
	if n == 0 || c.err != nil {
		return
	}
	var b bytes.Buffer
	switch {
	case c.format == reporting.FormatJSON && c.typ == reporting.TypeRecon:
		c.err = writeJSON(&b, c.recon, c.rows == 0)
	case c.format == reporting.FormatJSON:
		c.err = writeJSON(&b, c.ops, c.rows == 0)
	case c.typ == reporting.TypeRecon:
		c.err = reporting.WriteReconCSV(&b, c.recon)
	default:
		c.err = reporting.WritePaymentOpsCSV(&b, c.ops)
	}
	chunk := b.Bytes()
	if c.format == reporting.FormatCSV && c.rows > 0 {
		chunk = chunk[bytes.IndexByte(chunk, '\n')+1:] // the header is written once
	}
	if c.err == nil {
		_, c.err = c.out.Write(chunk)
	}
	c.rows += n
	c.ops, c.recon = c.ops[:0], c.recon[:0]
}

// writeJSON writes rows as elements of a JSON array, one per line: the
// opening bracket before the first chunk, a comma before every later row.
func writeJSON[R any](b *bytes.Buffer, rows []R, first bool) error {
	for i := range rows {
		switch {
		case i == 0 && first:
			b.WriteString("[\n")
		default:
			b.WriteString(",\n")
		}
		row, err := json.Marshal(&rows[i])
		if err != nil {
			return err
		}
		b.Write(row)
	}
	return nil
}
