package overview

import (
	"testing"

	"treasury/desk/paystats"
)

// TestTopReasonsLeaveOutTheUnread: the payments whose reason is not read
// (it is read by id when shown, or for the alerts) are no reason code: the
// top reasons are of the codes known, and the panel says how many are not
// read.
func TestTopReasonsLeaveOutTheUnread(t *testing.T) {
	failed := []paystats.CodeGroup{{Code: paystats.NoCode, Count: 40}, {Code: "USR_031", Count: 3}, {Code: "SYS_010", Count: 1}}
	declined := []paystats.CodeGroup{{Code: paystats.NoCode, Count: 7}, {Code: "USR_066", Count: 2}}
	s := summarize(paystats.Counts{}, failed, declined)
	if s.Unread != 47 || s.Reasons != 3 || len(s.Top) != 3 || s.Top[0].Code != "USR_031" || s.Top[1].Code != "USR_066" {
		t.Fatalf("unread %d, reasons %d, top %+v", s.Unread, s.Reasons, s.Top)
	}
}
