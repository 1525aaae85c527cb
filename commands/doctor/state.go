package doctor

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"treasury/desk/audit"
	"treasury/kit/diskfree"
	"treasury/kit/words"
)

// state checks the state directory: that its file system has room left
// and that it can be written now (the audit log is written before every
// action, which is refused when it cannot be), and the audit log's chain,
// with the attempts that have no outcome.
func (p *prober) state() Section {
	dir := p.o.StateDir
	s := Section{Name: "state", Target: dir}
	if dir == "" {
		s.Checks = []Check{{Name: "disk", Status: Skip, Detail: "no state directory"}}
		return s
	}
	if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
		s.Checks = []Check{{Name: "disk", Status: Skip, Detail: "not created yet: the dashboard creates it (mode 0700) when it starts"}}
		return s
	}
	s.Checks = append(s.Checks, diskCheck(dir), auditCheck(filepath.Join(dir, audit.FileName)))
	return s
}

// diskCheck is the room left on dir's file system and a probe written.
func diskCheck(dir string) Check {
	const room = "Free space on that file system: when the audit log cannot be written every action is refused. The request and session logs rotate at --log-max-size, keeping --log-keep files."
	if err := diskfree.Probe(dir, nil); err != nil {
		return Check{Name: "disk", Status: Fail, Detail: "cannot be written: " + err.Error(),
			Guidance: "Every action is refused while the audit log cannot be written. " + room}
	}
	free, err := diskfree.Avail(dir)
	switch {
	case err != nil:
		return Check{Name: "disk", Status: OK, Detail: "writable (free space not known: " + err.Error() + ")"}
	case free < diskfree.Low:
		return Check{Name: "disk", Status: Warn, Detail: fmt.Sprintf("writable, %s free: under %s", words.Bytes(free), words.Bytes(diskfree.Low)),
			Guidance: room}
	}
	return Check{Name: "disk", Status: OK, Detail: "writable, " + words.Bytes(free) + " free"}
}

// auditCheck verifies the audit log's chain and names the attempts that
// have no outcome.
func auditCheck(path string) Check {
	sum, err := audit.VerifyFile(path)
	var br *audit.Break
	switch {
	case errors.Is(err, os.ErrNotExist):
		return Check{Name: "audit", Status: OK, Detail: "no audit log yet (no action attempted)"}
	case errors.As(err, &br) && br.Kind == audit.Torn:
		return Check{Name: "audit", Status: Warn, Detail: fmt.Sprintf("%s ends with a torn line (a write cut short)", path),
			Guidance: "The next dashboard or `treasury serve` to start moves the torn bytes to a file beside the log and records the repair; the lines before it, and the keys of their attempts, are kept."}
	case errors.As(err, &br):
		return Check{Name: "audit", Status: Fail, Detail: fmt.Sprintf("%s is broken at line %d: %s (%s)", path, br.Line, br.Kind,
			words.Count(len(sum.Unacknowledged()), "break")+" not acknowledged"),
			Guidance: "Run `treasury audit verify` for every break and the attempts still open; once checked, `treasury audit ack --reason \"...\"` acknowledges them. The dashboard goes on appending to the same chain, and says so in every session until then."}
	case err != nil:
		return Check{Name: "audit", Status: Fail, Detail: "cannot be read: " + err.Error()}
	}
	c := Check{Name: "audit", Status: OK, Detail: fmt.Sprintf("intact, %s", words.Count(sum.Lines, "line"))}
	if n := len(sum.Breaks); n > 0 {
		c.Detail = fmt.Sprintf("%s; %s, each acknowledged by an operator", words.Count(sum.Lines, "line"), words.Count(n, "break"))
	}
	open, settled := 0, 0
	for _, a := range sum.Open {
		if a.Settled() {
			settled++
		} else {
			open++
		}
	}
	if settled > 0 {
		c.Detail += fmt.Sprintf("; %s without an outcome settled by a retry under the same key", words.Count(settled, "attempt"))
	}
	if open > 0 {
		c.Status = Warn
		c.Detail += fmt.Sprintf("; %s without an outcome (in flight, or interrupted)", words.Count(open, "attempt"))
		c.Guidance = "Check on the platform whether they were applied (`treasury audit verify` lists them); the dashboard's next attempt of each reuses its key."
	}
	return c
}
