package sandboxtest

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// PayErr is a payments-family error body read in whichever shape it came:
// the spec's flat object (7.1), the document's {status, errors: {...}} and
// {status, errors: [...]} (status a number or a string), or the token
// service's OAuth {error, error_description}. Tests decode into it to check
// what an error says without caring for its layout (the contract check
// judges the layout).
type PayErr struct {
	Code, Type, Title, Description, Timestamp string
	Status                                    int
	// OAuth and OAuthDescription are the token service's error and
	// error_description.
	OAuth, OAuthDescription string
}

// UnmarshalJSON reads any of the shapes.
func (e *PayErr) UnmarshalJSON(b []byte) error {
	var top struct {
		Status           json.RawMessage `json:"status"`
		Errors           json.RawMessage `json:"errors"`
		Error            string          `json:"error"`
		ErrorDescription string          `json:"error_description"`
	}
	if err := json.Unmarshal(b, &top); err != nil {
		return err
	}
	e.OAuth, e.OAuthDescription = top.Error, top.ErrorDescription
	e.Status, _ = strconv.Atoi(string(bytes.Trim(top.Status, `"`)))
	item := b
	if len(top.Errors) > 0 {
		item = top.Errors
		var list []json.RawMessage
		if json.Unmarshal(top.Errors, &list) == nil && len(list) > 0 {
			item = list[0]
		}
	}
	var one struct {
		Code, Type, Title, Description, Timestamp string
	}
	if err := json.Unmarshal(item, &one); err != nil {
		return err
	}
	e.Code, e.Type, e.Title, e.Description, e.Timestamp = one.Code, one.Type, one.Title, one.Description, one.Timestamp
	return nil
}
