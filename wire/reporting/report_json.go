package reporting

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"treasury/wire"
)

// Skip is a report record of a list that could not be read.
type Skip struct {
	// Index is the record's place in the list, from 0.
	Index int
	// ID is the record's id when one could be found in it, else "".
	ID string
	// Reason says which field could not be read and why.
	Reason string
}

func (s Skip) String() string {
	who := fmt.Sprintf("report record %d", s.Index+1)
	if s.ID != "" {
		who = "report " + s.ID
	}
	return who + ": " + s.Reason
}

// RawJSON is the record's JSON as received; nil for a record built in code.
func (r Report) RawJSON() json.RawMessage {
	if r.raw == "" {
		return nil
	}
	return json.RawMessage(r.raw)
}

// SetRaw keeps b as the record's JSON.
func (r *Report) SetRaw(b json.RawMessage) { r.raw = string(b) }

// UnmarshalJSON reads a report record as a tolerant reader: unknown fields
// are ignored, the dates are ISO 8601 in any of the forms parseTime reads
// (absent, null or "" is a zero date), and only the id is required. The
// record keeps a copy of b (RawJSON).
func (r *Report) UnmarshalJSON(b []byte) error {
	var w struct {
		ID           *string         `json:"id"`
		Type         string          `json:"type"`
		Format       string          `json:"format"`
		Status       string          `json:"status"`
		StartDate    json.RawMessage `json:"start_date"`
		EndDate      json.RawMessage `json:"end_date"`
		DownloadLink string          `json:"download_link"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return errors.New(jsonReason(err))
	}
	if w.ID == nil || strings.TrimSpace(*w.ID) == "" {
		return errors.New("id: a report id is required")
	}
	start, err := recordDate("start_date", w.StartDate)
	if err != nil {
		return err
	}
	end, err := recordDate("end_date", w.EndDate)
	if err != nil {
		return err
	}
	*r = Report{ID: *w.ID, Type: w.Type, Format: w.Format, Status: w.Status, StartDate: start, EndDate: end,
		DownloadLink: strings.TrimSpace(w.DownloadLink), raw: string(b)}
	return nil
}

// recordDate reads a date of a report record: a string, null or absent.
func recordDate(name string, raw json.RawMessage) (time.Time, error) {
	c, err := jsonCell(raw)
	if err == nil {
		if c.empty() {
			return time.Time{}, nil
		}
		var t time.Time
		if t, err = timeCell(c); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("%s: %v", name, err)
}

// UnmarshalJSON reads the list record by record: one that cannot be read
// is noted in Skipped and the others are listed. A reports array that is
// missing, or is not an array, is an error: the answer is not a list.
func (l *ReportList) UnmarshalJSON(b []byte) error {
	var env struct {
		Reports json.RawMessage `json:"reports"`
	}
	if err := json.Unmarshal(b, &env); err != nil {
		return fmt.Errorf("report list: %s", jsonReason(err))
	}
	l.Reports, l.Skipped = []Report{}, nil
	switch t := bytes.TrimSpace(env.Reports); {
	case len(t) == 0:
		return errors.New("report list: the answer has no reports array")
	case string(t) == "null":
		return nil
	case t[0] != '[':
		return fmt.Errorf("report list: reports is %s, not an array", clip(string(t)))
	}
	// Streamed, and bounded like every list (wire.MaxItems): a body of
	// tiny elements must not cost hundreds of times its size.
	dec := json.NewDecoder(bytes.NewReader(env.Reports))
	if _, err := dec.Token(); err != nil {
		return fmt.Errorf("report list: %s", jsonReason(err))
	}
	for i := 0; dec.More(); i++ {
		if i >= wire.MaxItems {
			l.Reports, l.Skipped = []Report{}, nil
			return fmt.Errorf("report list: %w", wire.ErrTooManyItems)
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			l.Reports, l.Skipped = []Report{}, nil
			return fmt.Errorf("report list: %s", jsonReason(err))
		}
		var r Report
		if err := json.Unmarshal(raw, &r); err != nil {
			l.Skipped = append(l.Skipped, Skip{Index: i, ID: idOf(raw), Reason: err.Error()})
			continue
		}
		l.Reports = append(l.Reports, r)
	}
	return nil
}

// idOf finds the id of a record that could not be read, if it has a
// string one.
func idOf(raw []byte) string {
	var m map[string]json.RawMessage
	var id string
	if json.Unmarshal(raw, &m) != nil || json.Unmarshal(m["id"], &id) != nil {
		return ""
	}
	return clip(id)
}

// jsonReason turns a decoding error into a short reason naming the field.
func jsonReason(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		field := te.Field
		if field == "" {
			return fmt.Sprintf("the record is a JSON %s, not an object", te.Value)
		}
		return fmt.Sprintf("%s: a JSON %s where a %s was expected", field, te.Value, te.Type.Kind())
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}
