package variant

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Report rows in the variant carry two columns the spec does not list,
// placed in the middle of the row: settlement_batch_id after
// network_payment_id, fee_currency after sent_currency. A row of a FAILED
// or DECLINED payment has its receiver-side amounts empty.
const (
	colBatch       = "settlement_batch_id"
	colFeeCurrency = "fee_currency"
)

// receiverAmount names the receiver-side optional amounts (2.5, 2.6) that
// are empty on the rows of a payment that never paid out.
func receiverAmount(col string) bool {
	switch col {
	case "received_amount", "deposit_result_amount", "deposit_result_fee_amount", "destination_result_amount",
		"destination_result_adjusted_amount", "destination_result_proceeds", "destination_result_adjusted_proceeds":
		return true
	}
	return false
}

// neverPaidOut reports whether a payment state has no receiver side.
func neverPaidOut(state string) bool { return state == "FAILED" || state == "DECLINED" }

// batchID is the settlement batch of a row: its quote's UTC day.
func batchID(quoteTS string) string {
	day, _, _ := strings.Cut(quoteTS, "T")
	return "SB-" + strings.ReplaceAll(day, "-", "")
}

// reshapeCSV rewrites a CSV report as it streams: the header row names the
// columns.
func reshapeCSV(in io.Reader, out io.Writer) error {
	cr := csv.NewReader(in)
	cr.ReuseRecord = true
	cw := csv.NewWriter(out)
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("variant: CSV report header: %w", err)
	}
	cols := append([]string(nil), header...)
	at := func(name string) int {
		for i, c := range cols {
			if c == name {
				return i
			}
		}
		return -1
	}
	npi, sent, state, quote := at("network_payment_id"), at("sent_currency"), at("payment_state"), at("quote_ts")
	row := make([]string, 0, len(cols)+2)
	build := func(rec []string, header bool) []string {
		row = row[:0]
		failed := !header && state >= 0 && neverPaidOut(rec[state])
		for i, v := range rec {
			if failed && receiverAmount(cols[i]) {
				v = ""
			}
			row = append(row, v)
			switch {
			case i == npi && header:
				row = append(row, colBatch)
			case i == npi && quote >= 0:
				row = append(row, batchID(rec[quote]))
			case i == npi:
				row = append(row, "")
			case i == sent && header:
				row = append(row, colFeeCurrency)
			case i == sent:
				row = append(row, v)
			}
		}
		return row
	}
	if err := cw.Write(build(header, true)); err != nil {
		return err
	}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("variant: CSV report row: %w", err)
		}
		if err := cw.Write(build(rec, false)); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// reshapeRowsJSON rewrites a JSON report (an array of row objects) as it
// streams; emptied amounts are "" (as a CSV cell is).
func reshapeRowsJSON(in io.Reader, out io.Writer) error {
	dec := json.NewDecoder(in)
	dec.UseNumber()
	tok, err := dec.Token()
	if errors.Is(err, io.EOF) {
		return nil
	}
	if d, ok := tok.(json.Delim); err != nil || !ok || d != '[' {
		return fmt.Errorf("variant: a JSON report must be an array (%v)", err)
	}
	bw := bufio.NewWriter(out)
	bw.WriteString("[")
	for n := 0; dec.More(); n++ {
		v, err := decodeValue(dec)
		if err != nil {
			return fmt.Errorf("variant: JSON report row %d: %w", n, err)
		}
		if o, ok := v.(*object); ok {
			reshapeRow(o)
		}
		if n > 0 {
			bw.WriteString(",")
		}
		bw.WriteString("\n")
		bw.Write(marshal(v))
	}
	if _, err := dec.Token(); err != nil {
		return fmt.Errorf("variant: JSON report end: %w", err)
	}
	bw.WriteString("\n]\n")
	return bw.Flush()
}

// reshapeRow applies the variant to one JSON report row.
func reshapeRow(o *object) {
	if st, _ := o.str("payment_state"); neverPaidOut(st) {
		for i, m := range o.members {
			if receiverAmount(m.key) {
				o.members[i].val = ""
			}
		}
	}
	quote, _ := o.str("quote_ts")
	sent, _ := o.str("sent_currency")
	o.insertAfter("network_payment_id", colBatch, batchID(quote))
	o.insertAfter("sent_currency", colFeeCurrency, sent)
}
