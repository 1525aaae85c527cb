package audit

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
)

// hashField opens the last field of every line: `,"hash":"<64 hex>"}`.
var hashField = []byte(`,"hash":"`)

// seal returns r as one line (without its newline) ending with its hash,
// and the hash. r's Seq, Prev and the rest are written as they are.
func seal(r Record) ([]byte, string, error) {
	r.Hash = ""
	body, err := json.Marshal(r)
	if err != nil {
		return nil, "", fmt.Errorf("audit: %w", err)
	}
	sum := sha256.Sum256(body)
	h := hex.EncodeToString(sum[:])
	line := make([]byte, 0, len(body)+len(hashField)+len(h)+2)
	line = append(line, body[:len(body)-1]...)
	line = append(line, hashField...)
	line = append(line, h...)
	line = append(line, '"', '}')
	return line, h, nil
}

// errNoHash says a line does not end with its hash field.
var errNoHash = errors.New(`the line does not end with its "hash" field`)

// unseal parses a line and checks its own hash: it returns the record and
// the hash its content has. A line whose content does not match its hash
// field returns the record, the hash its content has, and no error: the
// caller compares (Verify names the line).
func unseal(line []byte) (Record, string, error) {
	var r Record
	if err := json.Unmarshal(line, &r); err != nil {
		return Record{}, "", err
	}
	i := bytes.LastIndex(line, hashField)
	if i < 0 || len(line)-i != len(hashField)+64+2 || !bytes.HasSuffix(line, []byte(`"}`)) {
		return r, "", errNoHash
	}
	body := make([]byte, 0, i+1)
	body = append(append(body, line[:i]...), '}')
	sum := sha256.Sum256(body)
	return r, hex.EncodeToString(sum[:]), nil
}
