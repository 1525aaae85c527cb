package errorsview_test

import (
	"strconv"
	"testing"

	"treasury/config"
	"treasury/ui"
	errorsview "treasury/views/errors"
	"treasury/views/viewtest"
)

// TestErrorsCSVIsData: the errors' CSV has a failure's parts each in a
// column (the screen's "Call" is method and path, its "Code" a code or
// else the class), times in ISO 8601 UTC, "" for a status a refused
// connection has not, 401 for a refused token.
func TestErrorsCSVIsData(t *testing.T) {
	e := viewtest.New(t, viewtest.Options{Skip: viewtest.NoLiquidityHistory(), Profile: func(c *config.Config) {
		c.Custody.BaseURL = "http://127.0.0.1:1"
		c.Payments.ClientSecret = config.NewSecret("not-the-secret")
	}})
	e.Fetch()
	v := errorsview.New(e.Ctx)
	viewtest.Drive(v, v.Update(ui.StoreChanged{}))
	c := viewtest.ReadCSV(t, ui.CSVOf(v))
	c.HasHeader(t, "last_at", "first_at", "times", "interface", "method", "path", "http_status", "code", "type",
		"grpc_code", "class", "title", "message", "request_id", "server_timestamp", "attempts", "left_unread", "topic")
	var refused, denied map[string]string
	for _, r := range c.Rows {
		viewtest.Time(t, "last_at", r["last_at"], false)
		viewtest.Time(t, "first_at", r["first_at"], false)
		if n, err := strconv.Atoi(r["times"]); err != nil || n < 1 {
			t.Errorf("times = %q", r["times"])
		}
		switch {
		case r["interface"] == "custody" && r["http_status"] == "":
			refused = r
		case r["interface"] == "auth" && r["http_status"] != "":
			denied = r
		}
	}
	if refused == nil || refused["method"] != "GET" || refused["message"] == "" {
		t.Errorf("no refused custody call with its method and cause: %v", c.Rows)
	}
	if denied == nil || denied["http_status"] != "401" || denied["class"] == "" || denied["path"] == "" {
		t.Errorf("no token request refused with its status, class and path: %v", c.Rows)
	}
	c.Plain(t)
}
