package reportsim

import (
	"bytes"
	"encoding/json"
	"sync"

	"treasury/data/reporting"
	"treasury/data/sandbox/internal/payworld"
)

// cacheLimit bounds the cached report bodies: the catalog holds 12 reports,
// twice over for the hostile-strings fault.
const cacheLimit = 48

// cacheKey names a generated body: the report and whether hostile strings
// were on (they change names in the rows).
type cacheKey struct {
	id      string
	hostile bool
}

// cache keeps generated report bodies: a report's content never changes
// once generated.
type cache struct {
	mu sync.Mutex
	m  map[cacheKey][]byte
}

func newCache() *cache { return &cache{m: map[cacheKey][]byte{}} }

// content is the body of report e: CSV with a header row, or a JSON array
// of row objects; nil when the report has no rows.
func (s *Sim) content(e entry) []byte {
	k := cacheKey{id: e.id, hostile: s.env.Faults != nil && s.env.Faults.Hostile()}
	s.cache.mu.Lock()
	defer s.cache.mu.Unlock()
	if b, ok := s.cache.m[k]; ok {
		return b
	}
	b := s.generate(e)
	if len(s.cache.m) >= cacheLimit {
		clear(s.cache.m)
	}
	s.cache.m[k] = b
	return b
}

// generate builds the body of e from the world as of its generation.
func (s *Sim) generate(e entry) []byte {
	var ops []reporting.PaymentOpsRow
	var recon []reporting.ReconRow
	s.world.ForEachPayment(e.start, e.end, e.gen, func(v payworld.PaymentView) bool {
		if e.typ == reporting.TypeRecon {
			recon = append(recon, s.reconRows(v)...)
		} else {
			ops = append(ops, s.opsRow(v))
		}
		return true
	})
	if len(ops) == 0 && len(recon) == 0 {
		return nil
	}
	var b bytes.Buffer
	var err error
	switch {
	case e.format == reporting.FormatJSON && e.typ == reporting.TypeRecon:
		err = writeJSON(&b, recon)
	case e.format == reporting.FormatJSON:
		err = writeJSON(&b, ops)
	case e.typ == reporting.TypeRecon:
		err = reporting.WriteReconCSV(&b, recon)
	default:
		err = reporting.WritePaymentOpsCSV(&b, ops)
	}
	if err != nil {
		// The rows are the simulator's own values: encoding them cannot
		// fail short of a bug, which the sandbox's tests would show.
		s.env.Log("reportsim: encode report %s: %v", e.id, err)
		return nil
	}
	return b.Bytes()
}

// writeJSON writes rows as a JSON array, one row object per line.
func writeJSON[R any](b *bytes.Buffer, rows []R) error {
	b.WriteString("[\n")
	for i := range rows {
		row, err := json.Marshal(&rows[i])
		if err != nil {
			return err
		}
		b.Write(row)
		if i < len(rows)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("]\n")
	return nil
}
