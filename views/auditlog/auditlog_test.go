package auditlog_test

import (
	"testing"
	"time"

	"treasury/data/audit"
	"treasury/views/auditlog"
	"treasury/views/viewtest"
)

func TestAuditShowsNewestFirstAndFollowsAppends(t *testing.T) {
	e := viewtest.Shared(t)
	at := e.Sandbox.Clock().Now()
	e.Audit.Append(audit.Entry{Time: at, Profile: "sandbox", Environment: "test", Operator: "tester", Action: "freeze",
		Targets: map[string]string{"transaction": "tx-1", "wallet": "w-1"}, Reason: "suspected fraud", MutationID: "m-1", Outcome: audit.OutcomeOK})
	e.Audit.Append(audit.Entry{Time: at.Add(time.Second), Profile: "sandbox", Environment: "test", Operator: "tester", Action: "sweep",
		Targets: map[string]string{"sweep": "s-1"}, MutationID: "m-2", Outcome: audit.OutcomeError, ErrorCode: "ERR017.006", Error: "sweep already running"})
	tm := e.Program(t, auditlog.New(e.Ctx, e.Audit))
	viewtest.WaitFor(t, tm, "ERR017.006")
	e.Audit.Append(audit.Entry{Time: at.Add(2 * time.Second), Operator: "tester", Action: "lock",
		Targets: map[string]string{"endpoint": "ep-9"}, Outcome: audit.OutcomeRefused, Error: "read-only"})
	viewtest.WaitFor(t, tm, "endpoint=ep-9") // picked up on the next tick
	viewtest.Golden(t, tm)
}
